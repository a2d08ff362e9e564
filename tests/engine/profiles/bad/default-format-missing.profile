# expect: 3:9: default format 'MJPG' is not a capture format of this profile: add a 'format' block for it
name x
default MJPG
format YUYV
  size 640x480 fps 30
