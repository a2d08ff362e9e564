# output.profile: a device with an output queue, for the negcamsink tests
# (tests/gst/test_negcamsink.c). Its formats are the kind a virtual-camera
# loop offers to its producer: raw sizes and rates, MJPG and H.264.
name output
card "Negcam Output Test"
adjust nearest
default GREY 320x240 fps 30
default YUYV output 640x480 fps 30

# One capture format, apart from the output fourccs (ENUM_FRAMESIZES has
# no buffer type: a fourcc on both queues would enumerate the capture one).
format GREY
  size 320x240 fps 30

format YUYV output
  size 640x480  fps 30 15
  size 320x240  fps 30 15
  size 1280x720 fps 30

format MJPG output
  size 640x480  fps 30
  size 1280x720 fps 30

format YU12 output
  size 640x480  fps 30

format H264 output
  size 640x480  fps 30
