# Intel RealSense SR300 depth node (ODROID-XU4, Ubuntu 14.04, uvcvideo with the depthview format patch)
# Kind: depth or IR
# Interesting: a format uvcvideo could not map is printed as `Pixel Format: ''` with the raw GUID `435a4e49-b602-480f-978c-e4e88ae` as its name; depth/IR fourccs `INVZ`, `INZI`, `INVI`; old layout, 4-space indentation; `--list-formats` only
# Source: https://github.com/teknotus/depthview/issues/15 (description, ZahraBoroujeni, 2016-06-02)
#   https://github.com/teknotus/depthview/issues/15
# Listing, verbatim: tests/engine/profiles/cameras/realsense-sr300-unknown-guid.txt
# Driver: uvcvideo
# Imported by negcam-ctl --import from tests/engine/profiles/cameras/realsense-sr300-unknown-guid.txt.
# A --list-formats-ext listing does not show the colorimetry, the field,
# the default format or how the driver adjusts sizes: they keep the
# defaults of docs/profiles.md (add colorspace, field, default, adjust).
name realsense-sr300-unknown-guid
quirks no-enum-framesizes

format YUYV
  size 640x480 fps 30          # placeholder

format INVZ opaque
  description "Depth 16-bit (INVZ)"
  size 640x480 fps 30          # placeholder

format INZI
  size 640x480 fps 30          # placeholder

format INVI opaque
  description "Infrared 8-bit (INVI)"
  size 640x480 fps 30          # placeholder
