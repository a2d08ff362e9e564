# expect: 4:1: missing 'name' line: every profile needs a name, as in 'name webcam'
format YUYV
  size 640x480 fps 30
