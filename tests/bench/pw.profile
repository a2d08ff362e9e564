# SPDX-License-Identifier: GPL-2.0-only OR MIT
# pw.profile: the one mode tests/bench/pw.sh measures negcam-pw at, the
# size and rate of its pipewiresink mode=provide rival.
name pwbench
card "Negcam PW Bench"
adjust nearest
default YUYV 1280x720 fps 30

format YUYV
  size 1280x720 fps 30
