# expect: 3:26: default frame rate '25' is not offered by 'YUYV' 640x480
name x
default YUYV 640x480 fps 25
format YUYV
  size 640x480 fps 30 15
