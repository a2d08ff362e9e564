# expect: 4:22: expected frame rates after 'fps', as in 'fps 30 15'
name x
format YUYV
  size 640x480 fps   # rates forgotten
