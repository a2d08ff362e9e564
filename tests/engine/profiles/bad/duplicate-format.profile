# expect: 7:8: format 'YUYV' is defined twice: put all its sizes in one block
name x
format YUYV
  size 640x480 fps 30
format MJPG
  size 640x480 fps 30
format YUYV
  size 320x240 fps 30
