# expect: 4:26: frame rate '60/2' is listed twice for this size (interval 1/30)
name x
format YUYV
  size 640x480 fps 30 25 60/2
