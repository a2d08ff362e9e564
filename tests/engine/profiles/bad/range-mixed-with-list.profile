# expect: 4:23: a rate range must be the only rate of its size: write it on its own line
name x
format YUYV
  size 640x480 fps 30 1-60
