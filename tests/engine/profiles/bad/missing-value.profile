# expect: 3:14: expected a colorspace after 'colorspace', as in 'colorspace srgb'
name x
colorspace   # forgot it
