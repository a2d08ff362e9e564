# SPDX-License-Identifier: GPL-2.0-only OR MIT
# tests/gst/test_negcamsrc_faults.c: a camera with MJPEG and YUYV at two sizes; the test adds its faults.
name faulty
card "Faulty Camera"
format MJPG
size 320x240 fps 30
size 640x480 fps 30
format YUYV
size 320x240 fps 30
size 640x480 fps 30
