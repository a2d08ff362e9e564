# VIA Technologies 040d:300a USB camera on a Raspberry Pi
# Kind: H.264
# Interesting: H264 only, 640x480 to 2048x1024 at 30/15/10 fps: no raw or MJPG fallback
# Source: https://github.com/jacksonliam/mjpg-streamer/issues/290 (description, md-rubel, 2021-01-29)
#   https://github.com/jacksonliam/mjpg-streamer/issues/290
# Listing, verbatim: tests/engine/profiles/cameras/via-h264-only.txt
# Driver: uvcvideo
# USB id: the source (the camera is named by its ids there)
usb-id 040d:300a
# Imported by negcam-ctl --import from tests/engine/profiles/cameras/via-h264-only.txt.
# A --list-formats-ext listing does not show the colorimetry, the field,
# the default format or how the driver adjusts sizes: they keep the
# defaults of docs/profiles.md (add colorspace, field, default, adjust).
name via-h264-only

format H264
  size 640x480 fps 30 15 10
  size 1280x720 fps 30 15 10
  size 1920x1080 fps 30 15 10
  size 2048x1024 fps 30 15 10
