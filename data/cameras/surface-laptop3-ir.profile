# Microsoft Surface Laptop 3 infrared (Windows Hello) camera
# Kind: depth or IR
# Interesting: one format `GREY` 480x480 at 60 fps: square IR frames, greyscale only
# Source: https://github.com/linux-surface/linux-surface/issues/428 (comment by nakato, 2021-05-06)
#   https://github.com/linux-surface/linux-surface/issues/428
# Listing, verbatim: tests/engine/profiles/cameras/surface-laptop3-ir.txt
# Driver: uvcvideo
# Imported by negcam-ctl --import from tests/engine/profiles/cameras/surface-laptop3-ir.txt.
# A --list-formats-ext listing does not show the colorimetry, the field,
# the default format or how the driver adjusts sizes: they keep the
# defaults of docs/profiles.md (add colorspace, field, default, adjust).
name surface-laptop3-ir

format GREY
  size 480x480 fps 60
