# expect: 4:29: size step 16x16 does not divide the range 48x32-1920x1080 into whole steps
name x
format NV12
  size 48x32-1920x1080 step 16x16 fps 30
