# faults.profile: every fault line (docs/faults.md), for the round trip
# (tests/engine/test_profile_write.c) and the fuzzers' seeds.
name faults
card "Faulty Camera"
fault seed 42
fault drop 5%
fault stall 2s every 10s
format MJPG
fault corrupt 10%
fault truncate 0.5%
size 640x480 fps 30 15
size 320x240 fps 30
format YUYV
size 640x480 fps 30
fault rate 30000/1001
fault timestamp-jump -250ms every 3s
fault error 1.5%
fault source-change 5s 320x240
fault unplug 90s
