# no-name UVC "Webcam: Webcam" on a Raspberry Pi 4 (kernel 5.15)
# Kind: H.264
# Interesting: MJPG, H264 and YUYV; the H264 format lists every size twice and every interval twice (30/25/30/25) — repeats inside one format; `/dev/video2 | ` prefix
# Source: ayufan/camera-streamer `debug/raspi4.txt` lines 912-1024 @ e17a86e4f9bd0fda4bd901f14a5e2eef682962f8
#   https://github.com/ayufan/camera-streamer/blob/e17a86e4f9bd0fda4bd901f14a5e2eef682962f8/debug/raspi4.txt#L912-L1024
# Listing, verbatim: tests/engine/profiles/cameras/webcam-h264-dupsizes-prefixed.txt
# Driver: uvcvideo
# Imported by negcam-ctl --import from tests/engine/profiles/cameras/webcam-h264-dupsizes-prefixed.txt.
# A --list-formats-ext listing does not show the colorimetry, the field,
# the default format or how the driver adjusts sizes: they keep the
# defaults of docs/profiles.md (add colorspace, field, default, adjust).
name webcam-h264-dupsizes-prefixed

format MJPG
  size 320x240 fps 30 25
  size 480x272 fps 30 25
  size 640x360 fps 30 25
  size 640x480 fps 30 25
  size 800x600 fps 30 25
  size 1024x576 fps 30 25
  size 1280x720 fps 30 25
  size 1440x1080 fps 30 25
  size 1920x1080 fps 30 25
  size 2560x1440 fps 25

format H264
  size 320x240 fps 30 25
  size 480x272 fps 30 25
  size 640x360 fps 30 25
  size 640x480 fps 30 25
  size 800x600 fps 30 25
  size 1024x576 fps 30 25
  size 1280x720 fps 30 25
  size 1440x1080 fps 30 25
  size 1920x1080 fps 30 25
  size 2560x1440 fps 25

format YUYV
  size 320x240 fps 30
  size 480x272 fps 30
  size 640x360 fps 30
  size 640x480 fps 30
  size 800x600 fps 15
  size 1024x576 fps 10
  size 1280x720 fps 10
