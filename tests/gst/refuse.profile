# refuse.profile: one fourcc on both queues with different sizes, for
# tests/gst/test_negcamsink.c. ENUM_FRAMESIZES carries no buffer type, so
# it lists the capture entry's 320x240; the output queue takes only
# 640x480, and negcamsink must refuse 320x240 naming the width.
name refuse
card "Negcam Refuse Test"
format YUYV
  size 320x240 fps 30
format YUYV output
  size 640x480 fps 30
