# expect: 3:8: format 'YUYV' has no sizes: add a line such as 'size 640x480 fps 30' after it
name x
format YUYV
format MJPG
  size 640x480 fps 30
