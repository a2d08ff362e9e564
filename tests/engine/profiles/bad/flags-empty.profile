# expect: 4:8: expected flag names after 'flags', as in 'flags csc-colorspace csc-quantization'
name x
format YUYV
  flags
  size 640x480 fps 30
