# expect: 5:3: 'flags' is given twice for this format: list all flags on one line
name x
format YUYV
  flags csc-colorspace
  flags csc-quantization
  size 640x480 fps 30
