# Creative Labs 041e:401f USB webcam (gspca driver: card "USB Camera (041e:401f)")
# Kind: USB webcam
# Interesting: fourcc `JPEG` (not MJPG), two sizes and no intervals at all (no ENUM_FRAMEINTERVALS); old layout; pasted in a backtick span, so the last line ends with `` ` ``
# Source: https://github.com/kerberos-io/web/issues/55 (comment by vgoncearencu, 2017-07-19)
#   https://github.com/kerberos-io/web/issues/55
# Listing, verbatim: tests/engine/profiles/cameras/creative-041e-401f-jpeg.txt
# USB id: the source (gspca's card "USB Camera (041e:401f)")
usb-id 041e:401f
# Imported by negcam-ctl --import from tests/engine/profiles/cameras/creative-041e-401f-jpeg.txt.
# A --list-formats-ext listing does not show the colorimetry, the field,
# the default format or how the driver adjusts sizes: they keep the
# defaults of docs/profiles.md (add colorspace, field, default, adjust).
name creative-041e-401f-jpeg
quirks no-enum-frameintervals

format JPEG
  size 320x240 fps 30          # placeholder
  size 640x480 fps 30          # placeholder
