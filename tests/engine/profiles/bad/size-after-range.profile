# expect: 5:8: format 'YUYV' has a size range on line 4; a range must be the format's only size
name x
format YUYV
  size 64x48-1280x720 step 2x1 fps 30
  size 1920x1080 fps 5
