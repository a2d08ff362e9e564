# expect: 4:8: bad size '640*480': expected WIDTHxHEIGHT (640x480) or a range MINxMIN-MAXxMAX (48x32-1920x1080)
name x
format YUYV
  size 640*480 fps 30
