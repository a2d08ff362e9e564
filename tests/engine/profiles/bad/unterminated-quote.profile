# expect: 3:6: unterminated quoted string: add the closing '"' on the same line
name x
card "Negcam Webcam
