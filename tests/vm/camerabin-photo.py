#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# GStreamer's camerabin (what Cheese builds on) takes one photo from a V4L2
# capture node, inside the test VM:
#
#   camerabin-photo.py DEVICE VIEWFINDER_CAPS IMAGE_CAPS FILE
#
# The viewfinder streams at VIEWFINDER_CAPS; the photo asks IMAGE_CAPS, so
# v4l2src restarts the stream at that size for it (camerabin's image
# capture), then the viewfinder's again. Prints one line:
#   photo WxH rgb R,G,B R,G,B R,G,B R,G,B R,G,B   (the middle and the
#                                                  middles of the quarters)
#   photo none WHY
# Exit status 0 when a photo was taken; the caller judges it.
import sys

import gi
gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402

if len(sys.argv) != 5:
    sys.exit("usage: camerabin-photo.py DEVICE VIEWFINDER_CAPS IMAGE_CAPS FILE")
dev, vf_caps, img_caps, path = sys.argv[1:]
Gst.init(None)
cb = Gst.ElementFactory.make("camerabin")
wrapper = Gst.ElementFactory.make("wrappercamerabinsrc")
src = Gst.ElementFactory.make("v4l2src")
src.set_property("device", dev)
wrapper.set_property("video-source", src)
cb.set_property("camera-source", wrapper)
cb.set_property("viewfinder-sink", Gst.ElementFactory.make("fakesink"))
cb.set_property("viewfinder-caps", Gst.Caps.from_string(vf_caps))
cb.set_property("image-capture-caps", Gst.Caps.from_string(img_caps))
cb.set_property("mode", 1)  # image
cb.set_property("location", path)
loop = GLib.MainLoop()
result = {"why": "timeout (120 s)"}


def on_message(_bus, msg):
    if msg.type == Gst.MessageType.ERROR:
        result["why"] = "error: %s" % msg.parse_error()[0].message
        loop.quit()
    elif msg.type == Gst.MessageType.ELEMENT and msg.get_structure() \
            and msg.get_structure().get_name() == "image-done":
        result["why"] = None
        loop.quit()
    elif msg.type == Gst.MessageType.STATE_CHANGED and msg.src == cb \
            and msg.parse_state_changed()[1] == Gst.State.PLAYING:
        # Let the viewfinder run a moment, as a person would.
        GLib.timeout_add(2000, lambda: cb.emit("start-capture") and False)
    return True


bus = cb.get_bus()
bus.add_signal_watch()
bus.connect("message", on_message)
cb.set_state(Gst.State.PLAYING)
GLib.timeout_add_seconds(120, loop.quit)
loop.run()
cb.set_state(Gst.State.NULL)
if result["why"]:
    print("photo none", result["why"])
    sys.exit(1)
import cv2  # noqa: E402
img = cv2.imread(path)
if img is None:
    print("photo none unreadable", path)
    sys.exit(1)
h, w = img.shape[:2]
points = [(w // 2, h // 2), (w // 4, h // 4), (3 * w // 4, h // 4),
          (w // 4, 3 * h // 4), (3 * w // 4, 3 * h // 4)]
rgb = ["%d,%d,%d" % tuple(int(c) for c in img[y, x][::-1]) for x, y in points]
print("photo %dx%d rgb %s" % (w, h, " ".join(rgb)))
