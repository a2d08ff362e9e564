# Mobius Mini action camera in UVC mode
# Kind: H.264
# Interesting: H264 is format 0 before YUYV and MJPG; only `--list-formats` was posted (no sizes), old layout
# Source: https://github.com/rospilot/rospilot/issues/78 (description, cberner, 2017-11-18)
#   https://github.com/rospilot/rospilot/issues/78
# Listing, verbatim: tests/engine/profiles/cameras/mobius-mini-h264-first.txt
# Driver: uvcvideo
# Imported by negcam-ctl --import from tests/engine/profiles/cameras/mobius-mini-h264-first.txt.
# A --list-formats-ext listing does not show the colorimetry, the field,
# the default format or how the driver adjusts sizes: they keep the
# defaults of docs/profiles.md (add colorspace, field, default, adjust).
name mobius-mini-h264-first
quirks no-enum-framesizes

format H264
  size 640x480 fps 30          # placeholder

format YUYV
  size 640x480 fps 30          # placeholder

format MJPG
  size 640x480 fps 30          # placeholder
