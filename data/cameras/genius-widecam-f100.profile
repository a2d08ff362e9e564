# Genius WideCam F100 (card "USB_Camera", kernel 3.19)
# Kind: USB webcam
# Interesting: old layout with the uvcvideo-era names `YUV 4:2:2 (YUYV)` and `MJPEG`; 8-space indentation; file later removed from the repo
# Source: Falcons-Robocup/code `packages/frontVision/README.md` lines 75-116 @ b3433a4cd9bc11e1a7df62b56f6869496c9e16fb
#   https://github.com/Falcons-Robocup/code/blob/b3433a4cd9bc11e1a7df62b56f6869496c9e16fb/packages/frontVision/README.md#L75-L116
# Listing, verbatim: tests/engine/profiles/cameras/genius-widecam-f100.txt
# Driver: uvcvideo
# USB id: usb.ids (2025.07.26): 0458 KYE Systems Corp., 708c "Genius WideCam F100"
usb-id 0458:708c
# Imported by negcam-ctl --import from tests/engine/profiles/cameras/genius-widecam-f100.txt.
# A --list-formats-ext listing does not show the colorimetry, the field,
# the default format or how the driver adjusts sizes: they keep the
# defaults of docs/profiles.md (add colorspace, field, default, adjust).
name genius-widecam-f100

format YUYV
  size 640x480 fps 30
  size 160x120 fps 30
  size 176x144 fps 30
  size 320x240 fps 30
  size 352x288 fps 30
  size 800x600 fps 10
  size 1280x720 fps 8
  size 1920x1080 fps 5

format MJPG
  size 640x480 fps 30
  size 160x120 fps 30
  size 176x144 fps 30
  size 320x240 fps 30
  size 352x288 fps 30
  size 800x600 fps 30
  size 1280x720 fps 30
  size 1920x1080 fps 30
