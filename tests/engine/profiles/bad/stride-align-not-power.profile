# expect: 3:14: bad stride alignment '48': expected a power of two from 1 to 4096
name x
stride-align 48
