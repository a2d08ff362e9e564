/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Internal to the frame generator: a freestanding H.264 encoder for the
 * generator's pictures (scene.h). Every frame is one IDR
 * access unit in an Annex B byte stream (AUD, SPS, PPS, one I slice)
 * whose macroblocks are all I_PCM: the 4:2:0 samples are carried as they
 * are, so decoding is lossless and gives back exactly the YU12 planes
 * the raw path draws. Constrained Baseline profile, CAVLC. Not part of
 * the engine API; docs/frames.md describes the stream.
 */
#ifndef NEGCAM_H264_H
#define NEGCAM_H264_H

#include "compat.h"

struct nc_scene;

/* NC_H264_MB_BYTES and NC_H264_HEADER_BYTES, the size bound, are in formats.h. */

/*
 * Encode the scene (limited range, even width and height) as an H.264
 * access unit into @dst. Returns its length, -EINVAL for an odd size
 * (4:2:0 cannot crop to it), or -ENOSPC; never writes past @dst_size.
 */
long nc_h264_encode(const struct nc_scene *s, __u8 *dst, __u32 dst_size);

#endif /* NEGCAM_H264_H */
