# expect: 4:1: a second 'default' for the capture queue (the first is on line 3)
name x
default YUYV
default MJPG capture
