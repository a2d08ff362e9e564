# expect: 4:8: size '641x480': width 641 is not a multiple of 2, the chroma subsampling of 'YUYV'
name x
format YUYV
  size 641x480 fps 30
