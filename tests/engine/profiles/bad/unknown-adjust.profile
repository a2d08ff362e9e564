# expect: 3:8: unknown size adjustment 'upward' (expected one of: downward, nearest)
name x
adjust upward
