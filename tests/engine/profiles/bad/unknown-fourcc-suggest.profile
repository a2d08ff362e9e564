# expect: 3:8: unknown pixel format 'YUVV'; did you mean 'YUYV'?
name x
format YUVV
  size 640x480 fps 30
