# DJI Osmo Action 4 in webcam mode
# Kind: USB webcam
# Interesting: MJPG and H264 only (no raw), 720p/1080p30; listing kept inside a Python docstring, indented 16-24 spaces
# Source: JunweiLiang/tennis_project `get_camera_images_av.py` lines 40-52 @ 2090f78b7d21ccdd8f64b9ec366d30325a48b0ab
#   https://github.com/JunweiLiang/tennis_project/blob/2090f78b7d21ccdd8f64b9ec366d30325a48b0ab/get_camera_images_av.py#L40-L52
# Listing, verbatim: tests/engine/profiles/cameras/dji-action4-webcam.txt
# Driver: uvcvideo
# Imported by negcam-ctl --import from tests/engine/profiles/cameras/dji-action4-webcam.txt.
# A --list-formats-ext listing does not show the colorimetry, the field,
# the default format or how the driver adjusts sizes: they keep the
# defaults of docs/profiles.md (add colorspace, field, default, adjust).
name dji-action4-webcam

format MJPG
  size 1280x720 fps 30
  size 1920x1080 fps 30

format H264
  size 1280x720 fps 30
  size 1920x1080 fps 30
