# expect: 6:8: size 640x480 is listed twice for 'YUYV'
name x
format YUYV
  size 640x480 fps 30
  size 320x240 fps 30
  size 640x480 fps 15
