# Fushicai USBTV007 "EasyCAP" analogue video grabber (`usbtv`, Raspberry Pi 3, kernel 4.19.97), PAL
# Kind: analogue capture card
# Interesting: interlaced (`V4L2_FIELD_INTERLACED`, the only field usbtv delivers), YUYV only, the TV standard sets the size (720x576 PAL, 720x480 NTSC) and the rate (25, 30000/1001); no ENUM_FRAMESIZES, ENUM_FRAMEINTERVALS or S_PARM
# Source: hyperion-project/hyperion.ng issue #754 "USB Capture only in Black and white", comment of 2020-04-01 (`v4l2-ctl -d /dev/video0 --all --verbose`)
#   https://github.com/hyperion-project/hyperion.ng/issues/754
# Listing, verbatim: tests/engine/profiles/cameras/usbtv007-easycap-pal.txt (the `--all` output up to `Read buffers`, the controls left out)
# Listing kind: v4l2-ctl --all (G_FMT and G_PARM only: no ENUM_FMT listing of this card was found)
# Not in the listing, from the driver: drivers/media/usb/usbtv/usbtv-video.c
#   (torvalds/linux @ dbbc21bbf2c640dd148903e82f752c2f269fc58a) enumerates YUYV
#   alone; its TRY_FMT and S_FMT answer the current standard's size whatever is
#   asked (720x576 for PAL, 720x480 for the 525-line standards, its own default at
#   probe), field interlaced, bytesperline width*2, SMPTE 170M; it has no
#   ENUM_FRAMESIZES, ENUM_FRAMEINTERVALS or G/S_PARM (the V4L2 core answers G_PARM
#   from the standard). negcam has no TV standard: the two sizes are listed, the
#   default is the listing's PAL.
# Default: YUYV 720x576 at 25 fps, the listing's G_FMT and G_PARM.
name usbtv007-easycap-pal
card usbtv
quirks no-enum-framesizes no-enum-frameintervals fixed-rate
colorspace smpte170m
field interlaced
default YUYV 720x576 fps 25

format YUYV
  size 720x576 fps 25
  size 720x480 interval 1001/30000
