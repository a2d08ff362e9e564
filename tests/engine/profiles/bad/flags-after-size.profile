# expect: 5:3: 'flags' must come before the format's first 'size' line
name x
format YUYV
  size 640x480 fps 30
  flags csc-colorspace
