# expect: 3:8: unknown pixel format 'ABCD' (not in negcam's format table; docs/profiles.md lists the known ones)
name x
format ABCD
  size 640x480 fps 30
