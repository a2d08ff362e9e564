# expect: 4:8: size '99999999999x480' is too large: a width or height is at most 16384
name x
format YUYV
  size 99999999999x480 fps 30
