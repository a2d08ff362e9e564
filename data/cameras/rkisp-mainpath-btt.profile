# Rockchip RK3566 ISP `rkisp_mainpath` (rkisp_v5, BTT CB2, kernel 4.19.232)
# Kind: multiplanar SoC
# Interesting: `Video Capture Multiplanar`, 23 formats incl. `NM12`/`NM21`/`YM16`/`YM24` (M variants) and 8/10/12-bit Bayer, all `Stepwise 32x16 - 800x600 with step 8/8`; prefixed
# Source: ayufan/camera-streamer `debug/btt-pi2.txt` lines 64-112 @ e17a86e4f9bd0fda4bd901f14a5e2eef682962f8
#   https://github.com/ayufan/camera-streamer/blob/e17a86e4f9bd0fda4bd901f14a5e2eef682962f8/debug/btt-pi2.txt#L64-L112
# Listing, verbatim: tests/engine/profiles/cameras/rkisp-mainpath-btt.txt
# Default: UYVY 800x600 at 30 fps, chosen, not read from the listing (which
#   cannot show it) nor pinned to a source: Rockchip's vendor rkisp driver
#   sets a stream's default size from the ISP's input (rkisp_set_stream_def_fmt()),
#   and with no sensor format applied that is RKISP_DEFAULT_WIDTH x
#   RKISP_DEFAULT_HEIGHT, 800x600, the largest size this listing allows; the
#   pixel format it would pick (its out_isp_fmt) was not traced, so the
#   listing's first, UYVY, is kept. Not 32x16, a size no application asks for.
default UYVY 800x600 fps 30
# Imported by negcam-ctl --import from tests/engine/profiles/cameras/rkisp-mainpath-btt.txt.
# A --list-formats-ext listing does not show the colorimetry, the field,
# the default format or how the driver adjusts sizes: they keep the
# defaults of docs/profiles.md (add colorspace, field, default, adjust).
name rkisp-mainpath-btt
multiplanar

format UYVY
  size 32x16-800x600 step 8x8 fps 30          # placeholder

format 422P
  size 32x16-800x600 step 8x8 fps 30          # placeholder

format NV16
  size 32x16-800x600 step 8x8 fps 30          # placeholder

format NV61
  size 32x16-800x600 step 8x8 fps 30          # placeholder

format YM16
  size 32x16-800x600 step 8x8 fps 30          # placeholder

format NV21
  size 32x16-800x600 step 8x8 fps 30          # placeholder

format NV12
  size 32x16-800x600 step 8x8 fps 30          # placeholder

format NM21
  size 32x16-800x600 step 8x8 fps 30          # placeholder

format NM12
  size 32x16-800x600 step 8x8 fps 30          # placeholder

format YU12
  size 32x16-800x600 step 8x8 fps 30          # placeholder

format YM24
  size 32x16-800x600 step 8x8 fps 30          # placeholder

format RGGB
  size 32x16-800x600 step 8x8 fps 30          # placeholder

format GRBG
  size 32x16-800x600 step 8x8 fps 30          # placeholder

format GBRG
  size 32x16-800x600 step 8x8 fps 30          # placeholder

format BA81
  size 32x16-800x600 step 8x8 fps 30          # placeholder

format RG10
  size 32x16-800x600 step 8x8 fps 30          # placeholder

format BA10
  size 32x16-800x600 step 8x8 fps 30          # placeholder

format GB10
  size 32x16-800x600 step 8x8 fps 30          # placeholder

format BG10
  size 32x16-800x600 step 8x8 fps 30          # placeholder

format RG12
  size 32x16-800x600 step 8x8 fps 30          # placeholder

format BA12
  size 32x16-800x600 step 8x8 fps 30          # placeholder

format GB12
  size 32x16-800x600 step 8x8 fps 30          # placeholder

format BG12
  size 32x16-800x600 step 8x8 fps 30          # placeholder
