# expect: 3:21: unexpected 'please' after the pixel format: expected 'capture', 'output' or the end of the line
name x
format YUYV capture please
