# expect: 3:8: bad pixel format 'YUYV2': expected a fourcc of 1 to 4 characters, as YUYV or MJPG
name x
format YUYV2
