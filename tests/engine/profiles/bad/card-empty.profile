# expect: 3:6: card name '' is empty
name x
card ""
