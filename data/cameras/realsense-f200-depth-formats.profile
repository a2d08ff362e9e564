# Intel RealSense F200 depth node with the depthview uvcvideo patch
# Kind: depth or IR
# Interesting: depth/IR vendor fourccs `INVZ`, `INZI`, `INVR`, `INRI`, `INVI`, `RELI` (only `--list-formats`, no sizes); first line indented 4 spaces, the rest with a tab
# Source: teknotus/depthview branch `kernelpatchfmt` `Readme.md` lines 8-42 @ ecd476ca4c7539c15d4332b99362bf0ae38cd9a6
#   https://github.com/teknotus/depthview/blob/ecd476ca4c7539c15d4332b99362bf0ae38cd9a6/Readme.md#L8-L42
# Listing, verbatim: tests/engine/profiles/cameras/realsense-f200-depth-formats.txt
# Driver: uvcvideo
# Imported by negcam-ctl --import from tests/engine/profiles/cameras/realsense-f200-depth-formats.txt.
# A --list-formats-ext listing does not show the colorimetry, the field,
# the default format or how the driver adjusts sizes: they keep the
# defaults of docs/profiles.md (add colorspace, field, default, adjust).
name realsense-f200-depth-formats
quirks no-enum-framesizes

format YUYV
  size 640x480 fps 30          # placeholder

format INVZ opaque
  description "Depth 16-bit (INVZ)"
  size 640x480 fps 30          # placeholder

format INZI
  size 640x480 fps 30          # placeholder

format INVR opaque
  description "Depth 16-bit (INVR)"
  size 640x480 fps 30          # placeholder

format INRI opaque
  description "Depth:IR 16:8 24-bit (INRI)"
  size 640x480 fps 30          # placeholder

format INVI opaque
  description "Infrared 8-bit (INVI)"
  size 640x480 fps 30          # placeholder

format RELI opaque
  description "FlickerIR 8-bit (RELI)"
  size 640x480 fps 30          # placeholder
