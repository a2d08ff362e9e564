# expect: 3:13: unexpected 'yes' after 'multiplanar' (it takes no value)
name x
multiplanar yes
format NV12
 size 640x480 fps 30
