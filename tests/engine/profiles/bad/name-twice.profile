# expect: 3:1: 'name' is given twice
name x
name y
