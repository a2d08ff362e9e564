# expect: 3:8: USB id '046d:082d1' is not VENDOR:PRODUCT, four hexadecimal digits each and a vendor other than 0000, as in 'usb-id 046d:082d'
name x
usb-id 046d:082d1
format YUYV
 size 640x480 fps 30
