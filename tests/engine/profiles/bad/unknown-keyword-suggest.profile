# expect: 3:1: unknown keyword 'formt'; did you mean 'format'?
name x
formt YUYV
