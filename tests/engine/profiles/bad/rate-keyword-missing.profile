# expect: 4:16: expected 'fps' or 'interval' after the size, found '30'
name x
format YUYV
  size 640x480 30
