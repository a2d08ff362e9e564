# expect: 4:29: bad size step '0x8': expected WIDTHxHEIGHT with both at least 1, as in 16x8
name x
format NV12
  size 48x32-1920x1088 step 0x8 fps 30
