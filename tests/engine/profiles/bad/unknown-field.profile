# expect: 3:7: unknown field 'progressive' (expected one of: none, top, bottom, interlaced, seq-tb, seq-bt, alternate, interlaced-tb, interlaced-bt)
name x
field progressive
