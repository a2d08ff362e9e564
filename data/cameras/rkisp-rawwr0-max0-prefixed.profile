# Rockchip RK3566 ISP raw write node `rkisp_rawwr0` (no sensor linked)
# Kind: multiplanar SoC
# Interesting: multiplanar raw Bayer/grey node whose range is `Stepwise 32x16 - 0x0 with step 8/8` (max below min: a driver answering with no sensor) and vendor fourccs `EBD8`, `SPD6`; prefixed
# Source: ayufan/camera-streamer `debug/btt-pi2.txt` lines 267-311 @ e17a86e4f9bd0fda4bd901f14a5e2eef682962f8
#   https://github.com/ayufan/camera-streamer/blob/e17a86e4f9bd0fda4bd901f14a5e2eef682962f8/debug/btt-pi2.txt#L267-L311
# Listing, verbatim: tests/engine/profiles/cameras/rkisp-rawwr0-max0-prefixed.txt
# Imported by negcam-ctl --import from tests/engine/profiles/cameras/rkisp-rawwr0-max0-prefixed.txt.
# A --list-formats-ext listing does not show the colorimetry, the field,
# the default format or how the driver adjusts sizes: they keep the
# defaults of docs/profiles.md (add colorspace, field, default, adjust).
name rkisp-rawwr0-max0-prefixed
quirks no-enum-framesizes
multiplanar

format RGGB
  size 640x480 fps 30          # placeholder

format GRBG
  size 640x480 fps 30          # placeholder

format GBRG
  size 640x480 fps 30          # placeholder

format BA81
  size 640x480 fps 30          # placeholder

format GREY
  size 640x480 fps 30          # placeholder

format RG10
  size 640x480 fps 30          # placeholder

format BA10
  size 640x480 fps 30          # placeholder

format GB10
  size 640x480 fps 30          # placeholder

format BG10
  size 640x480 fps 30          # placeholder

format "Y10 "
  size 640x480 fps 30          # placeholder

format RG12
  size 640x480 fps 30          # placeholder

format BA12
  size 640x480 fps 30          # placeholder

format GB12
  size 640x480 fps 30          # placeholder

format BG12
  size 640x480 fps 30          # placeholder

format "Y12 "
  size 640x480 fps 30          # placeholder

format YUYV
  size 640x480 fps 30          # placeholder

format YVYU
  size 640x480 fps 30          # placeholder

format UYVY
  size 640x480 fps 30          # placeholder

format VYUY
  size 640x480 fps 30          # placeholder

format EBD8 opaque
  description "Embedded data 8-bit"
  size 640x480 fps 30          # placeholder

format SPD6 opaque
  description "Shield pix data 16-bit"
  size 640x480 fps 30          # placeholder
