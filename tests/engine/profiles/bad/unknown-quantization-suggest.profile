# expect: 3:14: unknown quantization 'limted'; did you mean 'limited'?
name x
quantization limted
