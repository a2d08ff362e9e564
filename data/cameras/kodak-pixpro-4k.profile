# Kodak PIXPRO 4K camera in UVC mode (the PR calls it "kodak 4k pro"; the square 2880x2880 frames suggest the SP360 4K)
# Kind: USB webcam
# Interesting: MJPG only, square 2880x2880/2048x2048/1440x1440 sizes, 5 fps at 4K; old `Index/Pixel Format` layout
# Source: https://github.com/knorth55/eus_vive/pull/20 (description, knorth55, 2020-11-06)
#   https://github.com/knorth55/eus_vive/pull/20
# Listing, verbatim: tests/engine/profiles/cameras/kodak-pixpro-4k.txt
# Driver: uvcvideo
# Imported by negcam-ctl --import from tests/engine/profiles/cameras/kodak-pixpro-4k.txt.
# A --list-formats-ext listing does not show the colorimetry, the field,
# the default format or how the driver adjusts sizes: they keep the
# defaults of docs/profiles.md (add colorspace, field, default, adjust).
name kodak-pixpro-4k

format MJPG
  size 3840x2160 fps 5
  size 2880x2880 fps 5
  size 2048x2048 fps 5
  size 1440x1440 fps 15 5
  size 1920x1080 fps 15 5
  size 1280x720 fps 30 15 5
  size 640x360 fps 30 15 5
