# expect: 5:8: format 'YUYV' already has sizes; a size range must be the format's only size
name x
format YUYV
  size 640x480 fps 30
  size 64x48-1280x720 step 2x1 fps 30
