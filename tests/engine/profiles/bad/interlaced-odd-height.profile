# expect: 5:8: size '720x575': height 575 is odd, but an interlaced field list needs an even frame height
name x
field interlaced
format UYVY
  size 720x575 fps 25
