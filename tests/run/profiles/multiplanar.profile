# A SoC camera's multiplanar capture node (docs/profiles.md, multiplanar):
# YM12 (three planes) first, NM12 (two), YUYV (one).
name multiplanar
multiplanar
default YM12
format YM12
  size 320x240 fps 30
  size 160x120 fps 30
format NM12
  size 320x240 fps 30
format YUYV
  size 320x240 fps 30
