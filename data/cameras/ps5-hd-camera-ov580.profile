# Sony PlayStation 5 HD Camera (OmniVision OV580 stereo bridge, custom UVC firmware)
# Kind: USB webcam
# Interesting: YUYV only, 13 unsorted stereo/mono sizes up to 5148x1088, rate `0.004s (240.004 fps)`
# Source: raleighlittles/PS5-Camera-Firmware-Loader `README.md` lines 111-152 @ c0696a781bd15c4a620950091b04860fae47d22d
#   https://github.com/raleighlittles/PS5-Camera-Firmware-Loader/blob/c0696a781bd15c4a620950091b04860fae47d22d/README.md#L111-L152
# Listing, verbatim: tests/engine/profiles/cameras/ps5-hd-camera-ov580.txt
# Driver: uvcvideo
# USB id: the source, its dmesg line "Found UVC 1.00 device USB Camera-OV580 (05a9:058c)"
usb-id 05a9:058c
# Imported by negcam-ctl --import from tests/engine/profiles/cameras/ps5-hd-camera-ov580.txt.
# A --list-formats-ext listing does not show the colorimetry, the field,
# the default format or how the driver adjusts sizes: they keep the
# defaults of docs/profiles.md (add colorspace, field, default, adjust).
name ps5-hd-camera-ov580

format YUYV
  size 896x256 fps 120
  size 1920x1080 fps 30 15 8
  size 960x520 fps 60
  size 448x256 fps 120
  size 1280x800 fps 60 30 15 8
  size 640x376 fps 120
  size 320x184 fps 53521/223
  size 5148x1088 fps 30 15 8
  size 3840x1080 fps 30 15 8
  size 1920x520 fps 60
  size 2560x800 fps 60 30 15 8
  size 1280x376 fps 120
  size 640x184 fps 53521/223
