# expect: 5:8: format 'MJPG' has no sizes: add a line such as 'size 640x480 fps 30' after it
name x
format YUYV
  size 640x480 fps 30
format MJPG
# nothing here
