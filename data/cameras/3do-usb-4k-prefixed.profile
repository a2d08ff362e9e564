# "3DO USB CAMERA" 4K UVC camera (uvcvideo on BTT CB2 / RK3566)
# Kind: USB webcam
# Interesting: MJPG/YUYV with 27 unsorted sizes (1920x1080 first, 3840x2160 second, 160x120 fourth, odd 340x340/440x440, 3840x3104); MJPG 1080p60 but YUYV 1080p at 5 fps; `/dev/video9 | ` prefix
# Source: ayufan/camera-streamer `debug/btt-pi2.txt` lines 746-877 @ e17a86e4f9bd0fda4bd901f14a5e2eef682962f8
#   https://github.com/ayufan/camera-streamer/blob/e17a86e4f9bd0fda4bd901f14a5e2eef682962f8/debug/btt-pi2.txt#L746-L877
# Listing, verbatim: tests/engine/profiles/cameras/3do-usb-4k-prefixed.txt
# Driver: uvcvideo
# Imported by negcam-ctl --import from tests/engine/profiles/cameras/3do-usb-4k-prefixed.txt.
# A --list-formats-ext listing does not show the colorimetry, the field,
# the default format or how the driver adjusts sizes: they keep the
# defaults of docs/profiles.md (add colorspace, field, default, adjust).
name 3do-usb-4k-prefixed

format MJPG
  size 1920x1080 fps 60 30
  size 3840x2160 fps 30
  size 640x480 fps 60 30
  size 160x120 fps 60 30
  size 176x144 fps 60 30
  size 320x180 fps 60 30
  size 320x240 fps 60 30
  size 352x288 fps 60 30
  size 340x340 fps 60 30
  size 424x240 fps 60 30
  size 440x440 fps 60 30
  size 480x270 fps 60 30
  size 640x360 fps 30
  size 800x448 fps 60 30
  size 800x600 fps 60 30
  size 848x480 fps 60 30
  size 960x540 fps 60 30
  size 1024x576 fps 60 30
  size 1280x720 fps 60 30
  size 1600x896 fps 60 30
  size 2560x1440 fps 30
  size 3840x3104 fps 30
  size 3264x2448 fps 30
  size 2592x1944 fps 30
  size 2048x1536 fps 30
  size 1600x1200 fps 30
  size 1024x768 fps 60 30

format YUYV
  size 1920x1080 fps 5
  size 3840x2160 fps 1
  size 640x480 fps 30
  size 160x120 fps 30
  size 176x144 fps 30
  size 320x180 fps 30
  size 320x240 fps 30
  size 352x288 fps 30
  size 340x340 fps 30
  size 424x240 fps 30
  size 440x440 fps 30
  size 480x270 fps 30
  size 640x360 fps 30
  size 800x448 fps 30
  size 800x600 fps 10
  size 848x480 fps 30
  size 960x540 fps 10
  size 1024x576 fps 10
  size 1280x720 fps 10
  size 1600x896 fps 5
  size 2560x1440 fps 1
  size 3840x3104 fps 1
  size 3264x2448 fps 1
  size 2592x1944 fps 1
  size 2048x1536 fps 1
  size 1600x1200 fps 1
  size 1024x768 fps 10
