# expect: 4:8: size '640x481': height 481 is not a multiple of 2, the chroma subsampling of 'NV12'
name x
format NV12
  size 640x481 fps 30
