# A camera whose only format is HSV 8-8-8, which ffmpeg's v4l2 demuxer
# has no pixel format for: ffmpeg fails on it (tests/run/test_run_matrix.sh).
name hsv-only
format HSV3
  size 640x480 fps 30
