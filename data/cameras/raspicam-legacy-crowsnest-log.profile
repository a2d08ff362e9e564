# Raspberry Pi Camera (legacy `bcm2835-v4l2` MMAL driver, OV5647 5 MP) on a Pi 4, kernel 5.10.63
# Kind: stepwise sizes
# Interesting: 14 formats incl. JPEG, H264, MJPG, all `Stepwise 32x32 - 2592x1944 with step 2/2`; published inside a crowsnest log: every line starts `    [06/16/22 10:07:47] crowsnest: `, no `ioctl:` header
# Source: mainsail-crew/crowsnest `log-example.md` lines 42-70 @ c52cf40a962657854ce55564f506fcec5bbd7619 (file removed in 71e3eed)
#   https://github.com/mainsail-crew/crowsnest/blob/c52cf40a962657854ce55564f506fcec5bbd7619/log-example.md#L42-L70
# Listing, verbatim: tests/engine/profiles/cameras/raspicam-legacy-crowsnest-log.txt
# Default: JPEG 1024x768 at 30 fps, what the real node answers G_FMT with
#   before anyone sets a format: bcm2835_mmal_probe() ends with
#   mmal_setup_components(dev, &default_v4l2_format), a JPEG 1024x768 format,
#   and the timeperframe is tpf_default (1/30 s); raspberrypi/linux
#   drivers/staging/vc04_services/bcm2835-camera/bcm2835-camera.c
#   @ 7251ab72a16b55e964a20d2c78c4ddec681ff362.
default JPEG 1024x768 fps 30
# Imported by negcam-ctl --import from tests/engine/profiles/cameras/raspicam-legacy-crowsnest-log.txt.
# A --list-formats-ext listing does not show the colorimetry, the field,
# the default format or how the driver adjusts sizes: they keep the
# defaults of docs/profiles.md (add colorspace, field, default, adjust).
name raspicam-legacy-crowsnest-log

format YU12
  size 32x32-2592x1944 step 2x2 fps 30          # placeholder

format YUYV
  size 32x32-2592x1944 step 2x2 fps 30          # placeholder

format RGB3
  size 32x32-2592x1944 step 2x2 fps 30          # placeholder

format JPEG
  size 32x32-2592x1944 step 2x2 fps 30          # placeholder

format H264
  size 32x32-2592x1944 step 2x2 fps 30          # placeholder

format MJPG
  size 32x32-2592x1944 step 2x2 fps 30          # placeholder

format YVYU
  size 32x32-2592x1944 step 2x2 fps 30          # placeholder

format VYUY
  size 32x32-2592x1944 step 2x2 fps 30          # placeholder

format UYVY
  size 32x32-2592x1944 step 2x2 fps 30          # placeholder

format NV12
  size 32x32-2592x1944 step 2x2 fps 30          # placeholder

format BGR3
  size 32x32-2592x1944 step 2x2 fps 30          # placeholder

format YV12
  size 32x32-2592x1944 step 2x2 fps 30          # placeholder

format NV21
  size 32x32-2592x1944 step 2x2 fps 30          # placeholder

format RX24
  size 32x32-2592x1944 step 2x2 fps 30          # placeholder
