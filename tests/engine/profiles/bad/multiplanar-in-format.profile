# expect: 4:1: 'multiplanar' belongs to the profile header, before the first 'format' line
name x
format NV12
multiplanar
 size 640x480 fps 30
