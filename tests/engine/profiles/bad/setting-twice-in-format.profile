# expect: 5:3: 'colorspace' is given twice for this format
name x
format YUYV
  colorspace srgb
  colorspace rec709
