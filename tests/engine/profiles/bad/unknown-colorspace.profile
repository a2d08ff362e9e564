# expect: 3:12: unknown colorspace 'bt709' (expected one of: smpte170m, smpte240m, rec709, 470m, 470bg, jpeg, srgb, oprgb, bt2020, raw, dcip3)
name x
colorspace bt709
