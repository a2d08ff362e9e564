# expect: 4:25: frame interval range '1/1-1/60' runs backwards: write the smaller value first
name x
format YUYV
  size 640x480 interval 1/1-1/60
