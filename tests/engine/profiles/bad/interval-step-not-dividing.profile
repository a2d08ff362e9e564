# expect: 4:39: step '1/7' does not divide the range 1/60-1/1 into whole steps
name x
format YUYV
  size 640x480 interval 1/60-1/1 step 1/7
