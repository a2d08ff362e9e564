# Raspberry Pi Camera v2 (Sony IMX219) on Jetson Nano `tegra-video`
# Kind: Bayer or greyscale sensor
# Interesting: single raw Bayer format `RG10`, old `Index/Pixel Format` layout, 1280x720 listed twice; one rate per mode (21/28/30/60 fps)
# Source: JetsonHacksNano/CSI-Camera `README.md` lines 88-102 @ e11a0fa1f68519166e1627c5277c6dfda29f9d2f
#   https://github.com/JetsonHacksNano/CSI-Camera/blob/e11a0fa1f68519166e1627c5277c6dfda29f9d2f/README.md#L88-L102
# Listing, verbatim: tests/engine/profiles/cameras/jetson-nano-imx219.txt
# Imported by negcam-ctl --import from tests/engine/profiles/cameras/jetson-nano-imx219.txt.
# A --list-formats-ext listing does not show the colorimetry, the field,
# the default format or how the driver adjusts sizes: they keep the
# defaults of docs/profiles.md (add colorspace, field, default, adjust).
name jetson-nano-imx219

format RG10
  size 3280x2464 fps 21
  size 3280x1848 fps 28
  size 1920x1080 fps 30
  size 1280x720 fps 60
