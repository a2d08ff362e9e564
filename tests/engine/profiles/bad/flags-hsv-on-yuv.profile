# expect: 4:24: flag 'csc-hsv' is for HSV formats: use 'csc-ycbcr-enc'
name x
format YUYV
  flags csc-colorspace csc-hsv
  size 640x480 fps 30
