# expect: 4:1: 'usb-id' is given twice
name x
usb-id 046d:082d
usb-id 046d:085c
format YUYV
 size 640x480 fps 30
