# expect: 3:48: too many fields: at most 6
name x
field none top bottom interlaced seq-tb seq-bt alternate
