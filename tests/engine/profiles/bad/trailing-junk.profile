# expect: 3:16: unexpected 'please' after the size adjustment
name x
adjust nearest please
