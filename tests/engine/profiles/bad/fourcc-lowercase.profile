# expect: 3:8: unknown pixel format 'yuyv'; did you mean 'YUYV'?
name x
format yuyv
