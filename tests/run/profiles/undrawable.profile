# SPDX-License-Identifier: GPL-2.0-only OR MIT
# A format the engine offers and the frame generator cannot draw (Y41P):
# every frame comes back with V4L2_BUF_FLAG_ERROR and no bytes, as
# negcam.ko returns it (VB2_BUF_STATE_ERROR). tests/run/test_run_tools.sh.
name undrawable
card "Undrawable"
format Y41P
  size 64x48 fps 30
