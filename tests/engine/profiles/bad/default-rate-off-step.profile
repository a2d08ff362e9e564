# expect: 3:31: default frame interval '1/7' is not offered by 'NV12' 640x480
name x
default NV12 640x480 interval 1/7
format NV12
  size 48x32-1920x1088 step 16x8 interval 1/60-1/1 step 1/60
