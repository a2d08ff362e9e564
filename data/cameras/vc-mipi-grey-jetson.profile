# Vision Components VC MIPI OV9281 (mono global shutter) on Jetson
# Kind: Bayer or greyscale sensor
# Interesting: `GREY` and `Y10 ` (fourcc with a trailing space) at 1280x800/30; old layout, lines indented tab + 4 spaces
# Source: VC-MIPI-modules/vc_mipi_nvidia `README.md` lines 160-173 @ 3cf322c9f226c192dd591ce197b7910757eb0c24 (removed by the next commit 9c51249)
#   https://github.com/VC-MIPI-modules/vc_mipi_nvidia/blob/3cf322c9f226c192dd591ce197b7910757eb0c24/README.md#L160-L173
# Listing, verbatim: tests/engine/profiles/cameras/vc-mipi-grey-jetson.txt
# Imported by negcam-ctl --import from tests/engine/profiles/cameras/vc-mipi-grey-jetson.txt.
# A --list-formats-ext listing does not show the colorimetry, the field,
# the default format or how the driver adjusts sizes: they keep the
# defaults of docs/profiles.md (add colorspace, field, default, adjust).
name vc-mipi-grey-jetson

format GREY
  size 1280x800 fps 30

format "Y10 "
  size 1280x800 fps 30
