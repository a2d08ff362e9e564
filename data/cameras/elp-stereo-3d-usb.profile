# ELP "3D USB Camera" side-by-side stereo (uvcvideo, Raspberry Pi 5)
# Kind: USB webcam
# Interesting: double-width stereo sizes 3200x1200, 2560x720, 1600x600 (120 fps), 640x240; 8-space indentation (copied from a terminal)
# Source: Roblibs/rovi_ros_ws `docs/stereo_elp.md` lines 43-101 @ 7869f11be5df50e7d7a112bc8d1aaa5c5524e403
#   https://github.com/Roblibs/rovi_ros_ws/blob/7869f11be5df50e7d7a112bc8d1aaa5c5524e403/docs/stereo_elp.md#L43-L101
# Listing, verbatim: tests/engine/profiles/cameras/elp-stereo-3d-usb.txt
# Driver: uvcvideo
# Imported by negcam-ctl --import from tests/engine/profiles/cameras/elp-stereo-3d-usb.txt.
# A --list-formats-ext listing does not show the colorimetry, the field,
# the default format or how the driver adjusts sizes: they keep the
# defaults of docs/profiles.md (add colorspace, field, default, adjust).
name elp-stereo-3d-usb

format MJPG
  size 3200x1200 fps 60 30 25 20 15 10
  size 2560x720 fps 60 30 25 20 15 10
  size 1600x600 fps 120 60 30 25 20 15 10
  size 1280x480 fps 120 60 30 25 20 15 10
  size 640x240 fps 120 60 30 25 20 15 10

format YUYV
  size 3200x1200 fps 2
  size 2560x720 fps 2
  size 1600x600 fps 10
  size 1280x480 fps 15 10
  size 640x240 fps 60 30 25 20 15 10
