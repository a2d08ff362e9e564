# expect: 4:8: size '16386x480': width 16386 exceeds the maximum 16384
name x
format YUYV
  size 16386x480 fps 30
