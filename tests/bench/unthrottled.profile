# SPDX-License-Identifier: GPL-2.0-only OR MIT
# unthrottled.profile: 1080p at 100,000 fps, so the library's pacing never
# waits and tests/bench/bench-run measures how fast frames can go.
name unthrottled
card "Negcam Unthrottled"
adjust nearest
colorspace rec709
default YUYV 1920x1080 fps 100000

format YUYV
  size 1920x1080 fps 100000

format NV12
  size 1920x1080 fps 100000
