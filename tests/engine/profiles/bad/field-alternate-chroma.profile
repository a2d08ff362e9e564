# expect: 5:8: size '720x482': height 482 is not a multiple of 4: one field a buffer (top, bottom, alternate) needs whole chroma lines of 'NV12'
name x
field alternate
format NV12
  size 720x482 fps 25
