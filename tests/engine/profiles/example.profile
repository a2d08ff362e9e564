# example.profile: a made-up USB video grabber that uses every keyword.
# The header: who the device is and how it behaves.
name example
card "Negcam Example Grabber"
adjust nearest                  # TRY_FMT picks the nearest size
quirks legacy-einval           # EINVAL for an unknown fourcc, as in 2007
field none                      # progressive, unless a format says otherwise
colorspace srgb
stride-align 4                  # lines padded to 4 bytes
default YUYV 1280x720 fps 30000/1001

# Discrete sizes with discrete frame rates (fps) or intervals.
format YUYV
  description "YUYV 4:2:2 (grabber)"
  size 640x480   fps 60 30 30000/1001 15
  size 1280x720  fps 30 30000/1001
  size 1920x1080 interval 1/15 2/15

format MJPG                     # compressed: flag and full range set for it
  size 1280x720  fps 30 30000/1001
  size 1920x1080 fps 60 30 15

# One stepwise size range with stepwise frame intervals.
format NV12
  colorspace rec709
  quantization full
  stride-align 64
  size 64x32-3840x2160 step 16x8 interval 1/60-1/1 step 1/60

# Interlaced standard-definition video.
format UYVY
  field interlaced seq-tb
  colorspace smpte170m
  size 720x576 fps 25
  size 720x480 fps 30000/1001

# An output queue: what an application may write to the device.
format RGB3 output
  size 640x480  fps 1-60
  size 1280x720 fps 1-30
