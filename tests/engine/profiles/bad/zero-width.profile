# expect: 4:8: size '0x480': width 0 must be at least 1
name x
format YUYV
  size 0x480 fps 30
