# expect: 5:29: size step 16x2 must be a multiple of 2x4 for 'NV12'
name x
field top
format NV12
  size 64x64-1920x1080 step 16x2 fps 30
