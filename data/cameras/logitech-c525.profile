# Logitech HD Webcam C525 (kernel 3.19)
# Kind: USB webcam
# Interesting: 25 sizes per format including 864x480, 1184x656, 1392x768, 1712x960, 1792x1008; old layout, old names; 356 lines
# Source: Falcons-Robocup/code `vision/omniCam/README.md` lines 85-440 @ dca3ffdfd7020a9913e6af6b555eac107b38a4ca
#   https://github.com/Falcons-Robocup/code/blob/dca3ffdfd7020a9913e6af6b555eac107b38a4ca/vision/omniCam/README.md#L85-L440
# Listing, verbatim: tests/engine/profiles/cameras/logitech-c525.txt
# Driver: uvcvideo
# USB id: usb.ids (2025.07.26): 046d Logitech, Inc., 0826 "HD Webcam C525"
usb-id 046d:0826
# Imported by negcam-ctl --import from tests/engine/profiles/cameras/logitech-c525.txt.
# A --list-formats-ext listing does not show the colorimetry, the field,
# the default format or how the driver adjusts sizes: they keep the
# defaults of docs/profiles.md (add colorspace, field, default, adjust).
name logitech-c525

format YUYV
  size 640x480 fps 30 24 20 15 10 15/2 5
  size 160x120 fps 30 24 20 15 10 15/2 5
  size 176x144 fps 30 24 20 15 10 15/2 5
  size 320x176 fps 30 24 20 15 10 15/2 5
  size 320x240 fps 30 24 20 15 10 15/2 5
  size 432x240 fps 30 24 20 15 10 15/2 5
  size 352x288 fps 30 24 20 15 10 15/2 5
  size 544x288 fps 30 24 20 15 10 15/2 5
  size 640x360 fps 30 24 20 15 10 15/2 5
  size 752x416 fps 30 24 20 15 10 15/2 5
  size 800x448 fps 30 24 20 15 10 15/2 5
  size 864x480 fps 24 20 15 10 15/2 5
  size 960x544 fps 20 15 10 15/2 5
  size 1024x576 fps 15 10 15/2 5
  size 800x600 fps 24 20 15 10 15/2 5
  size 1184x656 fps 15 10 15/2 5
  size 960x720 fps 15 10 15/2 5
  size 1280x720 fps 10 15/2 5
  size 1392x768 fps 10 15/2 5
  size 1504x832 fps 15/2 5
  size 1600x896 fps 15/2 5
  size 1280x960 fps 15/2 5
  size 1712x960 fps 5
  size 1792x1008 fps 5
  size 1920x1080 fps 5

format MJPG
  size 640x480 fps 30 24 20 15 10 15/2 5
  size 160x120 fps 30 24 20 15 10 15/2 5
  size 176x144 fps 30 24 20 15 10 15/2 5
  size 320x176 fps 30 24 20 15 10 15/2 5
  size 320x240 fps 30 24 20 15 10 15/2 5
  size 432x240 fps 30 24 20 15 10 15/2 5
  size 352x288 fps 30 24 20 15 10 15/2 5
  size 544x288 fps 30 24 20 15 10 15/2 5
  size 640x360 fps 30 24 20 15 10 15/2 5
  size 752x416 fps 30 24 20 15 10 15/2 5
  size 800x448 fps 30 24 20 15 10 15/2 5
  size 864x480 fps 30 24 20 15 10 15/2 5
  size 960x544 fps 30 24 20 15 10 15/2 5
  size 1024x576 fps 30 24 20 15 10 15/2 5
  size 800x600 fps 30 24 20 15 10 15/2 5
  size 1184x656 fps 30 24 20 15 10 15/2 5
  size 960x720 fps 30 24 20 15 10 15/2 5
  size 1280x720 fps 30 24 20 15 10 15/2 5
  size 1392x768 fps 30 24 20 15 10 15/2 5
  size 1504x832 fps 30 24 20 15 10 15/2 5
  size 1600x896 fps 30 24 20 15 10 15/2 5
  size 1280x960 fps 30 24 20 15 10 15/2 5
  size 1712x960 fps 30 24 20 15 10 15/2 5
  size 1792x1008 fps 30 24 20 15 10 15/2 5
  size 1920x1080 fps 30 24 20 15 10 15/2 5
