# expect: 3:14: expected a space after the closing '"'
name x
card "Negcam"Webcam
