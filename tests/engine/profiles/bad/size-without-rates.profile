# expect: 4:8: size '640x480' has no frame rates: add 'fps 30' or 'interval 1/30' to the line
name x
format YUYV
  size 640x480
