# expect: 4:20: frame rate '2000000' is out of range: numerator and denominator are at most 1000000
name x
format YUYV
  size 640x480 fps 2000000
