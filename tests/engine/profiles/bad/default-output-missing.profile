# expect: 3:9: default format 'YUYV' is not an output format of this profile: add a 'format' block for it
name x
default YUYV output
format YUYV
  size 640x480 fps 30
