# expect: 3:25: field 'interlaced' is listed twice
name x
field interlaced seq-tb interlaced
