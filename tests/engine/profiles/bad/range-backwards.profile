# expect: 4:8: size range '1920x1080-640x480' runs backwards: write the smaller size first
name x
format YUYV
  size 1920x1080-640x480 step 2x1 fps 30
