# fuzz_parser finding, 2026-12-03 (6,150,500 executions): with field
# alternate, TRY_FMT answered height 76 (the frame) but a sizeimage of 38
# lines. V4L2 says height counts the lines of one field for TOP, BOTTOM
# and ALTERNATE; the engine now answers height 38 (sizes stay frames).
# Kept as a seed of the parser corpus (tests/fuzz/run.sh).
name alt-height
field alternate
format UYVY
 size 720x76 fps 3
