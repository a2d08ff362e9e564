# Arducam IMX519 16 MP on Raspberry Pi 4 `unicam` (entity `imx519 10-001a`, kernel 5.15.84)
# Kind: Bayer or greyscale sensor
# Interesting: 46 formats, all `Stepwise 16x16 - 16376x16376 with step 1/1`; packed Bayer `pBAA`..`pRCC`, 14-bit packed `pBEE`..`pREE`, greyscale; `/dev/video0 | ` prefix
# Source: ayufan/camera-streamer `debug/raspi4.txt` lines 81-175 @ e17a86e4f9bd0fda4bd901f14a5e2eef682962f8
#   https://github.com/ayufan/camera-streamer/blob/e17a86e4f9bd0fda4bd901f14a5e2eef682962f8/debug/raspi4.txt#L81-L175
# Listing, verbatim: tests/engine/profiles/cameras/imx519-unicam-prefixed.txt
# Default: YUYV 640x480 at 30 fps, what the real node answers G_FMT with
#   before anyone sets a format. This listing is unicam in media-controller
#   mode (every format of unicam's table, stepwise 16x16-16376x16376): the
#   video node does not follow the sensor's mode; unicam_set_default_format()
#   gives it unicam_default_image_format (640x480) in unicam_image_formats[0]
#   (YUYV), raspberrypi/linux drivers/media/platform/broadcom/bcm2835-unicam.c
#   @ 07a024913d7f77d53748cfd6124f657e6737f659; the older downstream
#   drivers/media/platform/bcm2835/bcm2835-unicam.c read (default_image_format)
#   sets the same 640x480 in its first format. The rate is the listing's
#   placeholder: unicam has no rate of its own (the sensor sets it).
default YUYV 640x480 fps 30
# Imported by negcam-ctl --import from tests/engine/profiles/cameras/imx519-unicam-prefixed.txt.
# A --list-formats-ext listing does not show the colorimetry, the field,
# the default format or how the driver adjusts sizes: they keep the
# defaults of docs/profiles.md (add colorspace, field, default, adjust).
name imx519-unicam-prefixed

format YUYV
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format UYVY
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format YVYU
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format VYUY
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format RGBP
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format RGBR
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format RGBO
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format RGBQ
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format RGB3
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format BGR3
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format RGB4
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format BA81
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format GBRG
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format GRBG
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format RGGB
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format pBAA
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format BG10
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format pGAA
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format GB10
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format pgAA
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format BA10
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format pRAA
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format RG10
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format pBCC
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format BG12
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format pGCC
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format GB12
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format pgCC
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format BA12
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format pRCC
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format RG12
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format pBEE
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format BG14
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format pGEE
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format GB14
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format pgEE
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format GR14
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format pREE
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format RG14
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format GREY
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format Y10P
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format "Y10 "
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format Y12P opaque
  description "12-bit Greyscale (MIPI Packed)"
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format "Y12 "
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format Y14P opaque
  description "14-bit Greyscale (MIPI Packed)"
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder

format "Y14 "
  size 16x16-16376x16376 step 1x1 fps 30          # placeholder
