# expect: 4:23: bad frame rate '7.5': expected frames per second as N or N/D (30, 30000/1001, 15/2) or a range (1-60)
name x
format YUYV
  size 640x480 fps 30 7.5
