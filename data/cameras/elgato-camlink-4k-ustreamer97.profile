# Elgato Cam Link 4K (newer firmware/kernel: 30.000 fps, `Y/UV` names)
# Kind: capture card
# Interesting: same NV12-twice quirk; pasted inside a single-backtick code span, so the first and last lines carry the backtick (`...(30.000 fps)\``) — keep only if a second Cam Link is wanted
# Source: https://github.com/pikvm/ustreamer/issues/97 (comment by pl804, 2024-09-22)
#   https://github.com/pikvm/ustreamer/issues/97
# Listing, verbatim: tests/engine/profiles/cameras/elgato-camlink-4k-ustreamer97.txt
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
# Imported by negcam-ctl --import from tests/engine/profiles/cameras/elgato-camlink-4k-ustreamer97.txt.
# A --list-formats-ext listing does not show the colorimetry, the field,
# the default format or how the driver adjusts sizes: they keep the
# defaults of docs/profiles.md (add colorspace, field, default, adjust).
name elgato-camlink-4k-ustreamer97

format NV12
  size 3840x2160 fps 30

format YU12
  size 3840x2160 fps 30
