# Intel IPU6 ISYS capture node (laptop MIPI camera; the extra `Z16`/`Y8I`/`Y12I` are ipu6-drivers' isys formats, see intel/ipu6-drivers PR #114)
# Kind: multiplanar SoC
# Interesting: `Video Capture Multiplanar` with 19 formats and no sizes; `Y12I`, `Z16 `, `Y8I ` (RealSense-style interleaved IR and depth), `BX24`
# Source: https://github.com/EmixamPP/linux-enable-ir-emitter/issues/212 (description, simonsd054; the `/dev/video10` block)
#   https://github.com/EmixamPP/linux-enable-ir-emitter/issues/212
# Listing, verbatim: tests/engine/profiles/cameras/ipu6-isys-mplane-nosizes.txt
# Imported by negcam-ctl --import from tests/engine/profiles/cameras/ipu6-isys-mplane-nosizes.txt.
# A --list-formats-ext listing does not show the colorimetry, the field,
# the default format or how the driver adjusts sizes: they keep the
# defaults of docs/profiles.md (add colorspace, field, default, adjust).
name ipu6-isys-mplane-nosizes
quirks no-enum-framesizes
multiplanar

format "Y10 "
  size 640x480 fps 30          # placeholder

format BX24
  size 640x480 fps 30          # placeholder

format Y12I
  size 640x480 fps 30          # placeholder

format "Z16 "
  size 640x480 fps 30          # placeholder

format YUYV
  size 640x480 fps 30          # placeholder

format "Y8I "
  size 640x480 fps 30          # placeholder

format BG12
  size 640x480 fps 30          # placeholder

format GB12
  size 640x480 fps 30          # placeholder

format BA12
  size 640x480 fps 30          # placeholder

format RG12
  size 640x480 fps 30          # placeholder

format BG10
  size 640x480 fps 30          # placeholder

format GB10
  size 640x480 fps 30          # placeholder

format BA10
  size 640x480 fps 30          # placeholder

format RG10
  size 640x480 fps 30          # placeholder

format BA81
  size 640x480 fps 30          # placeholder

format GBRG
  size 640x480 fps 30          # placeholder

format GRBG
  size 640x480 fps 30          # placeholder

format RGGB
  size 640x480 fps 30          # placeholder

format GREY
  size 640x480 fps 30          # placeholder
