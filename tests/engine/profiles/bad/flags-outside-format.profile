# expect: 2:1: 'flags' outside a format: add a 'format FOURCC' line before it
flags csc-colorspace
name x
format YUYV
  size 640x480 fps 30
