# SPDX-License-Identifier: GPL-2.0-only OR MIT
# bench.profile: the frame sizes tests/bench/ measures (1080p and 4K, YUY2 and NV12).
name bench
card "Negcam Bench"
adjust nearest
colorspace rec709
default YUYV 1920x1080 fps 30

format YUYV
  size 1920x1080 fps 60 30
  size 3840x2160 fps 60 30

format NV12
  size 1920x1080 fps 60 30
  size 3840x2160 fps 60 30
