# expect: 4:25: frame interval '1/0' divides by zero
name x
format YUYV
  size 640x480 interval 1/0
