# Elgato Cam Link 4K fed 1080p25 by a Fuji X-T3
# Kind: capture card
# Interesting: same card, different source: YUYV first, 1920x1080 at 25 fps only; old layout; shows the format list depends on the HDMI input
# Source: https://github.com/xkahn/camlink/issues/2 (comment by bjornedstrom, 2021-04-06)
#   https://github.com/xkahn/camlink/issues/2
# Listing, verbatim: tests/engine/profiles/cameras/elgato-camlink-1080p25.txt
# Driver: uvcvideo
# USB id: the kernel commit cited for elgato-camlink-4k: uvcvideo matches the Cam Link 4K as USB_DEVICE(0x0fd9, 0x0066)
usb-id 0fd9:0066
# Firmware bug: its PROBE answers carry bFormatIndex in bmHint's second byte
# and 1 in its place (Linux 6.1 drivers/media/usb/uvc/uvc_video.c,
# uvc_fixup_video_ctrl(): "The response of the Elgato Cam Link 4K is
# incorrect ... Latest Elgato Cam Link 4K firmware as of 2021-03-23 needs
# this fix"; commit 4c6e0976295a). negcam-uvc reproduces it; uvcvideo fixes
# it under this id (docs/uvc.md, "Firmware bugs").
uvc-bugs probe-format-in-hint
# Imported by negcam-ctl --import from tests/engine/profiles/cameras/elgato-camlink-1080p25.txt.
# A --list-formats-ext listing does not show the colorimetry, the field,
# the default format or how the driver adjusts sizes: they keep the
# defaults of docs/profiles.md (add colorspace, field, default, adjust).
name elgato-camlink-1080p25

format YUYV
  size 1920x1080 fps 25

format NV12
  size 1920x1080 fps 25

format YU12
  size 1920x1080 fps 25
