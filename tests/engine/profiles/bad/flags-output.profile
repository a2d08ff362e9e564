# expect: 4:9: flag 'csc-quantization' is for capture formats only: colorspace conversion is requested on capture
name x
format YUYV output
  flags csc-quantization
  size 640x480 fps 30
