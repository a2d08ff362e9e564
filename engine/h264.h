/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Internal to the frame generator: a freestanding H.264 encoder for the
 * generator's pictures (jpeg.h's scene model). Every frame is one IDR
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

/*
 * Bytes of one I_PCM macroblock that starts on a byte boundary: mb_type
 * (9 bits) and pcm_alignment_zero_bits (2 bytes), 256 luma and 128
 * chroma samples. Limited-range samples are never zero, so no emulation
 * prevention byte is ever inserted inside macroblock data.
 */
#define NC_H264_MB_BYTES 386u

/*
 * Upper bound of the rest of an access unit: start codes, AUD, SPS with
 * VUI, PPS, the slice header, the first macroblock's unaligned mb_type
 * and the emulation prevention bytes the headers may need.
 */
#define NC_H264_HEADER_BYTES 160u

/*
 * Encode the scene (limited range, even width and height) as an H.264
 * access unit into @dst. Returns its length, -EINVAL for an odd size
 * (4:2:0 cannot crop to it), or -ENOSPC; never writes past @dst_size.
 */
long nc_h264_encode(const struct nc_scene *s, __u8 *dst, __u32 dst_size);

#endif /* NEGCAM_H264_H */
