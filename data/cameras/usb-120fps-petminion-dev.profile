# USB camera of the petminion developer (model not given; ELP-style 120 fps MJPG)
# Kind: USB webcam
# Interesting: non-integer rate `0.008s (120.101 fps)`; unsorted sizes (1280x1024 after 800x600); YUYV 1080p at 6 fps
# Source: petminion/petminion `docs/development.md` lines 162-194 @ 75f99cfe2421ded3a24da5d3423117bfd2193487
#   https://github.com/petminion/petminion/blob/75f99cfe2421ded3a24da5d3423117bfd2193487/docs/development.md#L162-L194
# Listing, verbatim: tests/engine/profiles/cameras/usb-120fps-petminion-dev.txt
# Driver: uvcvideo
# Imported by negcam-ctl --import from tests/engine/profiles/cameras/usb-120fps-petminion-dev.txt.
# A --list-formats-ext listing does not show the colorimetry, the field,
# the default format or how the driver adjusts sizes: they keep the
# defaults of docs/profiles.md (add colorspace, field, default, adjust).
name usb-120fps-petminion-dev

format MJPG
  size 1920x1080 fps 30
  size 1280x720 fps 60
  size 1024x768 fps 30
  size 640x480 fps 8287/69
  size 800x600 fps 60
  size 1280x1024 fps 30
  size 320x240 fps 8287/69

format YUYV
  size 1920x1080 fps 6
  size 1280x720 fps 9
  size 1024x768 fps 6
  size 640x480 fps 30
  size 800x600 fps 20
  size 1280x1024 fps 6
  size 320x240 fps 30
