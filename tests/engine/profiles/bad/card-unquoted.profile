# expect: 3:13: unexpected 'Webcam' after the card name: put a value with spaces in double quotes
name x
card Negcam Webcam
