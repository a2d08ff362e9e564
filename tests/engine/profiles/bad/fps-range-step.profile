# expect: 4:25: an fps range has no 'step' (equal rate steps are not equal interval steps): write 'interval MIN-MAX step S'
name x
format YUYV
  size 640x480 fps 1-60 step 1
