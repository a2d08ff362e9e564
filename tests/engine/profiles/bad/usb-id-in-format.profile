# expect: 4:1: 'usb-id' belongs to the profile header, before the first 'format' line
name x
format YUYV
usb-id 046d:082d
 size 640x480 fps 30
