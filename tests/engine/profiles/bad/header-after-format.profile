# expect: 5:1: 'quirks' belongs to the profile header, before the first 'format' line
name x
format YUYV
  size 640x480 fps 30
quirks fixed-rate
