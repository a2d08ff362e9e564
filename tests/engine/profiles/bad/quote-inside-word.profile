# expect: 3:9: unexpected '"' inside a word: quote the whole value, as in "My Camera"
name x
card Neg"cam"
