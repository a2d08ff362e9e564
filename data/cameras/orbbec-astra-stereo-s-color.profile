# Orbbec Astra Stereo S U3 colour (UVC) node (Yahboom "AI View Depth Camera"), Raspberry Pi 5
# Kind: USB webcam
# Interesting: MJPG 640x480 lists its 7 intervals twice, and 640x480 appears twice as a size; 2592x1944 at 25 fps max
# Source: Roblibs/rovi_ros_ws `docs/depth_camera_astra_stereo_s_u3.md` lines 183-302 @ 7869f11be5df50e7d7a112bc8d1aaa5c5524e403
#   https://github.com/Roblibs/rovi_ros_ws/blob/7869f11be5df50e7d7a112bc8d1aaa5c5524e403/docs/depth_camera_astra_stereo_s_u3.md#L183-L302
# Listing, verbatim: tests/engine/profiles/cameras/orbbec-astra-stereo-s-color.txt
# Driver: uvcvideo
# Imported by negcam-ctl --import from tests/engine/profiles/cameras/orbbec-astra-stereo-s-color.txt.
# A --list-formats-ext listing does not show the colorimetry, the field,
# the default format or how the driver adjusts sizes: they keep the
# defaults of docs/profiles.md (add colorspace, field, default, adjust).
name orbbec-astra-stereo-s-color

format MJPG
  size 640x480 fps 60 30 25 20 15 10 5
  size 2592x1944 fps 25 20 15 10 5
  size 2560x1440 fps 30 20 15 10 5
  size 1920x1080 fps 30 25 20 15 10 5
  size 1280x960 fps 30 25 20 15 10 5
  size 1280x720 fps 30 25 20 15 10 5
  size 320x240 fps 60 30 25 20 15 10 5

format YUYV
  size 640x480 fps 30 25 20 15 10 5
  size 2592x1944 fps 2
  size 2560x1440 fps 3
  size 1920x1080 fps 5
  size 1280x960 fps 5
  size 1280x720 fps 5
  size 320x240 fps 60 30 25 20 15 10 5
