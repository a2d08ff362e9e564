# Logitech C922 Pro Stream Webcam (uvcvideo, BTT Pi / Allwinner H616, kernel 5.16.17)
# Kind: USB webcam
# Interesting: YUYV + MJPG, 18 sizes each; published as a crowsnest/camera-streamer `dump_cameras.sh` dump: every line prefixed `/dev/video0 | `
# Source: ayufan/camera-streamer `debug/btt-pi.txt` lines 75-333 @ e17a86e4f9bd0fda4bd901f14a5e2eef682962f8
#   https://github.com/ayufan/camera-streamer/blob/e17a86e4f9bd0fda4bd901f14a5e2eef682962f8/debug/btt-pi.txt#L75-L333
# Listing, verbatim: tests/engine/profiles/cameras/logitech-c922-prefixed.txt
# Driver: uvcvideo
# USB id: usb.ids (2025.07.26): 046d Logitech, Inc., 085c "C922 Pro Stream Webcam"
usb-id 046d:085c
# Imported by negcam-ctl --import from tests/engine/profiles/cameras/logitech-c922-prefixed.txt.
# A --list-formats-ext listing does not show the colorimetry, the field,
# the default format or how the driver adjusts sizes: they keep the
# defaults of docs/profiles.md (add colorspace, field, default, adjust).
name logitech-c922-prefixed

format YUYV
  size 640x480 fps 30 24 20 15 10 15/2 5
  size 160x90 fps 30 24 20 15 10 15/2 5
  size 160x120 fps 30 24 20 15 10 15/2 5
  size 176x144 fps 30 24 20 15 10 15/2 5
  size 320x180 fps 30 24 20 15 10 15/2 5
  size 320x240 fps 30 24 20 15 10 15/2 5
  size 352x288 fps 30 24 20 15 10 15/2 5
  size 432x240 fps 30 24 20 15 10 15/2 5
  size 640x360 fps 30 24 20 15 10 15/2 5
  size 800x448 fps 30 24 20 15 10 15/2 5
  size 800x600 fps 24 20 15 10 15/2 5
  size 864x480 fps 24 20 15 10 15/2 5
  size 960x720 fps 15 10 15/2 5
  size 1024x576 fps 15 10 15/2 5
  size 1280x720 fps 10 15/2 5
  size 1600x896 fps 15/2 5
  size 1920x1080 fps 5
  size 2304x1296 fps 2
  size 2304x1536 fps 2

format MJPG
  size 640x480 fps 30 24 20 15 10 15/2 5
  size 160x90 fps 30 24 20 15 10 15/2 5
  size 160x120 fps 30 24 20 15 10 15/2 5
  size 176x144 fps 30 24 20 15 10 15/2 5
  size 320x180 fps 30 24 20 15 10 15/2 5
  size 320x240 fps 30 24 20 15 10 15/2 5
  size 352x288 fps 30 24 20 15 10 15/2 5
  size 432x240 fps 30 24 20 15 10 15/2 5
  size 640x360 fps 30 24 20 15 10 15/2 5
  size 800x448 fps 30 24 20 15 10 15/2 5
  size 800x600 fps 30 24 20 15 10 15/2 5
  size 864x480 fps 30 24 20 15 10 15/2 5
  size 960x720 fps 30 24 20 15 10 15/2 5
  size 1024x576 fps 30 24 20 15 10 15/2 5
  size 1280x720 fps 60 30 24 20 15 10 15/2 5
  size 1600x896 fps 30 24 20 15 10 15/2 5
  size 1920x1080 fps 30 24 20 15 10 15/2 5
