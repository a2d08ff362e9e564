# A webcam with only YUYV, at the three sizes the portal suite asks for
# (tests/pw/portal-suite.sh), all at 30 fps: a browser gets each size in
# the one format both Chromium and Firefox take raw.
name yuyv-720p
format YUYV
  size 1280x720 fps 30
  size 640x480 fps 30
  size 320x240 fps 30
