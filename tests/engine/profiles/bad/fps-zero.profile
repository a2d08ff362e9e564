# expect: 4:23: frame rate '0' is zero: it must be positive
name x
format YUYV
  size 640x480 fps 30 0
