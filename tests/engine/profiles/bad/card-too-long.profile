# expect: 3:6: card name 'Negcam Webcam with a lon...' is 32 bytes long; at most 31 fit
name x
card "Negcam Webcam with a longer name"
