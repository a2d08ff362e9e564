# expect: 3:7: expected a USB id after 'usb-id', as in 'usb-id 046d:082d'
name x
usb-id
format YUYV
 size 640x480 fps 30
