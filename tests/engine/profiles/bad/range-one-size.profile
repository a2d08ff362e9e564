# expect: 4:8: size range '640x480-640x480' holds one size: write it without a range
name x
format YUYV
  size 640x480-640x480 step 2x1 fps 30
