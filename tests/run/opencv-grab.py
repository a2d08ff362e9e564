# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""OpenCV as an application opens a camera: cv2.VideoCapture(CAP_V4L2) on
/dev/video0 with OpenCV's own defaults (no size or format asked), or with
the FOURCC given as a second argument (CAP_PROP_FOURCC, the per-format
matrix), then reads N frames (default 5). Exits 1, saying which frame,
when one fails; exits 3 when OpenCV does not take the FOURCC.
The matrix over the shelf runs it (tests/run/matrix-shelf.sh, docs/matrix.md).
"""
import sys

import cv2

n = int(sys.argv[1]) if len(sys.argv) > 1 else 5
cap = cv2.VideoCapture('/dev/video0', cv2.CAP_V4L2)
if not cap.isOpened():
    sys.exit('opencv: VideoCapture(/dev/video0, CAP_V4L2) did not open')
if len(sys.argv) > 2:
    want = cv2.VideoWriter_fourcc(*sys.argv[2][:4])
    cap.set(cv2.CAP_PROP_FOURCC, want)
    if int(cap.get(cv2.CAP_PROP_FOURCC)) != want:
        sys.stderr.write("opencv: its V4L2 backend does not take '%s' (CAP_PROP_FOURCC "
                         "stays %08x)\n" % (sys.argv[2], int(cap.get(cv2.CAP_PROP_FOURCC))))
        sys.exit(3)
for i in range(n):
    ok, frame = cap.read()
    if not ok or frame is None:
        sys.exit('opencv: read() of frame %d failed' % i)
print('opencv: %d frames of %s, FOURCC %08x' % (n, 'x'.join(map(str, frame.shape)),
                                                int(cap.get(cv2.CAP_PROP_FOURCC))))
