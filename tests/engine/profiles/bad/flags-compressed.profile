# expect: 4:9: flag 'csc-colorspace' needs a raw format: 'MJPG' is compressed
name x
format MJPG
  flags csc-colorspace
  size 640x480 fps 30
