# expect: 3:22: expected 'fps' or 'interval' after the default size, found '30'
name x
default YUYV 640x480 30
