# SPDX-License-Identifier: GPL-2.0-only OR MIT
# A small USB webcam for tests/vm/uvc-suite.sh case_browser: Chromium asks
# 640x480 (YUYV here) and 1280x720 (MJPG here). The low rates keep the
# producer's conversion and jpegenc within what the VM (TCG) can do while
# Chromium runs: negcamuvcconvertsink drops the source's frames above the
# committed rate before converting them.
name browser-cam
card "Negcam Browser Cam"
adjust nearest
colorspace srgb
default YUYV 640x480 fps 10

format YUYV
  size 640x480   fps 10

format MJPG
  size 1280x720  fps 5
