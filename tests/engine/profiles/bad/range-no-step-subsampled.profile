# expect: 4:8: size step 1x1 must be a multiple of 2x2 for 'NV12': add 'step WxH' after the range
name x
format NV12
  size 48x32-1920x1088 fps 1-60
