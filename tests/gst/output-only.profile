# output-only.profile: a node with an output queue and no capture queue,
# as a loop's output side or vivid's video output looks, for the device
# provider's Video/Sink entry (tests/gst/test_negcamsink.c, through
# libnegcam-preload.so).
name output-only
card "Negcam Output Only"
format YUYV output
  size 640x480  fps 30
  size 1280x720 fps 30
format MJPG output
  size 1280x720 fps 30
