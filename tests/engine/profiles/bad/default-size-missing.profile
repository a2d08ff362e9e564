# expect: 3:14: default size 800x600 is not a size of 'YUYV'
name x
default YUYV 800x600
format YUYV
  size 640x480 fps 30
