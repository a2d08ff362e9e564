# expect: 4:1: 'multiplanar' is given twice
name x
multiplanar
multiplanar
format NV12
 size 640x480 fps 30
