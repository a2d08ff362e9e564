# expect: 3:1: 'size' outside a format: add a 'format FOURCC' line before it
name x
size 640x480 fps 30
