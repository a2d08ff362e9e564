# One field per buffer (V4L2_FIELD_ALTERNATE): ENUM_FRAMESIZES lists
# frames, G/TRY/S_FMT count one field's lines. For the node libnegcam-preload.so serves
# (meson test negcamsrc-stream-alternate).
name alternate
field alternate
format YUYV
  size 640x480 fps 25
  size 320x240 fps 25
