# expect: 4:9: flag 'emulated' is set by libv4l for the formats it converts, never by a driver: list the device without libv4l
name x
format YUYV
  flags emulated
  size 640x480 fps 30
