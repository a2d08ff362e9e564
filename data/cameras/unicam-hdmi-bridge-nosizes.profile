# HDMI-to-CSI-2 bridge on Raspberry Pi `unicam` (RGB3/UYVY only: the TC358743 signature; the comment names no chip), kernel 6.6.31
# Kind: capture card
# Interesting: `--list-formats-ext` prints formats with no sizes at all (the bridge's size comes from DV timings, no ENUM_FRAMESIZES)
# Source: https://github.com/awawa-dev/HyperHDR/issues/888 (comment by jsammarco, 2024-06-28)
#   https://github.com/awawa-dev/HyperHDR/issues/888
# Listing, verbatim: tests/engine/profiles/cameras/unicam-hdmi-bridge-nosizes.txt
# Imported by negcam-ctl --import from tests/engine/profiles/cameras/unicam-hdmi-bridge-nosizes.txt.
# A --list-formats-ext listing does not show the colorimetry, the field,
# the default format or how the driver adjusts sizes: they keep the
# defaults of docs/profiles.md (add colorspace, field, default, adjust).
name unicam-hdmi-bridge-nosizes
quirks no-enum-framesizes

format RGB3
  size 640x480 fps 30          # placeholder

format UYVY
  size 640x480 fps 30          # placeholder
