# Lenovo Yoga Pro 7 14IRH8 IR camera (/dev/video2 of "Integrated Camera")
# Kind: depth or IR
# Interesting: `GREY` 640x360 with intervals ascending (15 fps listed before 30 fps)
# Source: https://github.com/EmixamPP/linux-enable-ir-emitter/issues/135 (description, azvyae, 2023)
#   https://github.com/EmixamPP/linux-enable-ir-emitter/issues/135
# Listing, verbatim: tests/engine/profiles/cameras/lenovo-yoga-pro7-ir.txt
# Driver: uvcvideo
# Imported by negcam-ctl --import from tests/engine/profiles/cameras/lenovo-yoga-pro7-ir.txt.
# A --list-formats-ext listing does not show the colorimetry, the field,
# the default format or how the driver adjusts sizes: they keep the
# defaults of docs/profiles.md (add colorspace, field, default, adjust).
name lenovo-yoga-pro7-ir

format GREY
  size 640x360 fps 15 30
