# expect: 4:9: unknown format flag 'csc-colourspace'; did you mean 'csc-colorspace'?
name x
format YUYV
  flags csc-colourspace
  size 640x480 fps 30
