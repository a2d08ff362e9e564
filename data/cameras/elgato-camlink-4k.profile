# Elgato Cam Link 4K (HDMI-to-USB, uvcvideo) at 3840x2160p29.97
# Kind: capture card
# Interesting: `NV12` listed twice (index 0 and 1) then `YU12`; one size, one rate, dictated by the HDMI source; the kernel fix itself is about this device
# Source: torvalds/linux commit 4c6e0976295add7f0ed94d276c04a3d6f1ea8f83 ("media: uvcvideo: Fix pixel format change for Elgato Cam Link 4K"), commit message; text read from the stable-list copies in the search index
#   https://github.com/torvalds/linux/commit/4c6e0976295add7f0ed94d276c04a3d6f1ea8f83
# Listing, verbatim: tests/engine/profiles/cameras/elgato-camlink-4k.txt
# Driver: uvcvideo
# USB id: the source: uvcvideo matches the Cam Link 4K as USB_DEVICE(0x0fd9, 0x0066)
usb-id 0fd9:0066
# Firmware bug: its PROBE answers carry bFormatIndex in bmHint's second byte
# and 1 in its place (Linux 6.1 drivers/media/usb/uvc/uvc_video.c,
# uvc_fixup_video_ctrl(): "The response of the Elgato Cam Link 4K is
# incorrect ... Latest Elgato Cam Link 4K firmware as of 2021-03-23 needs
# this fix"; commit 4c6e0976295a). negcam-uvc reproduces it; uvcvideo fixes
# it under this id (docs/uvc.md, "Firmware bugs").
uvc-bugs probe-format-in-hint
# Imported by negcam-ctl --import from tests/engine/profiles/cameras/elgato-camlink-4k.txt.
# A --list-formats-ext listing does not show the colorimetry, the field,
# the default format or how the driver adjusts sizes: they keep the
# defaults of docs/profiles.md (add colorspace, field, default, adjust).
name elgato-camlink-4k

format NV12
  size 3840x2160 fps 30000/1001

format YU12
  size 3840x2160 fps 30000/1001
