# expect: 4:38: flag 'csc-xfer-func' is listed twice
name x
format YUYV
  flags csc-xfer-func csc-colorspace csc-xfer-func
  size 640x480 fps 30
