# expect: 4:1: the profile has no formats: add a 'format FOURCC' line and its 'size' lines
name lonely
card "Lonely"
