/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Test frames: a moving pattern and a machine-readable frame number, for
 * every fourcc in the format table that negcam can draw, raw, JPEG or
 * H.264, and for opaque ones (docs/frames.md).
 * Freestanding like the engine: the kernel module and negcamsrc draw
 * identical pixels.
 *
 * The frame number stamp (documented in docs/frames.md): 32 bits, most
 * significant first, as a row of square blocks along the top-left of the
 * picture, white for 1 and black for 0, preceded by a white-black-white
 * sync triplet so a reader can find the block size. Luma only, aligned to
 * 16-pixel MCUs where the frame allows, so it survives videoconvert,
 * chroma subsampling and JPEG.
 */
#ifndef NEGCAM_FRAMEGEN_H
#define NEGCAM_FRAMEGEN_H

#include "compat.h"

enum negcam_pattern {
	NC_PATTERN_BARS = 0,   /* colour bars with a moving box */
	NC_PATTERN_GRADIENT = 1,
	NC_PATTERN_SOLID = 2,  /* mid grey, only the stamp and box change */
	NC_PATTERN_COUNT
};

/* Sentinel for "this buffer holds no frame yet". */
#define NC_FRAME_NONE 0xffffffffu

/*
 * Scene time: what moves in the picture (the box) follows it, 4 pixels a
 * tick, while the stamp carries the frame number. A device passes its
 * clock (negcam.ko and negcamsrc pass the buffer's CLOCK_MONOTONIC
 * timestamp), so the scene moves on across streams as a real camera's
 * does, although the frame numbers restart at 0.
 */
#define NC_SCENE_TICK_NS 33333333ull /* 1/30 s */

/*
 * Draw frame @frame of @fmt (a complete format as G_FMT returns it),
 * showing the scene at @scene_ns, into @dst of @dst_size bytes. @prev and
 * @prev_scene_ns are what this same buffer held when last drawn with the
 * same format and pattern, or @prev is NC_FRAME_NONE: with them, only
 * what changed since is rewritten. Returns the bytes used (sizeimage for
 * raw, the JPEG length for MJPG/JPEG), or a negative errno: -EINVAL for a
 * fourcc it cannot draw, -ENOSPC when @dst_size is too small.
 */
long negcam_framegen_draw_at(const struct v4l2_pix_format *fmt, __u32 pattern,
			     __u32 frame, __u64 scene_ns, __u32 prev,
			     __u64 prev_scene_ns, void *dst, __u32 dst_size);

/*
 * negcam_framegen_draw_at() into the @nbufs buffers of a multiplanar
 * queue's frame: @dst[i] of @dst_size[i] bytes, as many as
 * negcam_pix_planes() counts for @fmt (engine.h): one, which holds the
 * whole frame, or an 'M' format's two or three, one plane each (NV12M:
 * luma, then CbCr). @used[i] gets the bytes written to buffer i. Returns
 * the bytes of all, or a negative errno (-EINVAL for a count the format
 * does not have, -ENOSPC when a buffer is too small).
 */
long negcam_framegen_draw_planes(const struct v4l2_pix_format *fmt, __u32 pattern,
				 __u32 frame, __u64 scene_ns, __u32 prev,
				 __u64 prev_scene_ns, void *const dst[],
				 const __u32 dst_size[], unsigned int nbufs, __u32 used[]);

/*
 * negcam_framegen_draw_at() with the scene at @frame ticks: the picture
 * depends on the frame number alone (tests, benchmarks).
 */
long negcam_framegen_draw(const struct v4l2_pix_format *fmt, __u32 pattern,
			  __u32 frame, __u32 prev, void *dst, __u32 dst_size);

/*
 * True when negcam_framegen_draw() can draw @fourcc: every raw fourcc of
 * the table but a few on no shelf camera (docs/frames.md), the layouts
 * formats.h documents outside it, any opaque fourcc (an 8-bit picture,
 * then zeros to sizeimage), MJPG, JPEG and H264.
 */
bool negcam_framegen_supports(__u32 fourcc);

/*
 * Read the frame number stamp back from a luma-like sample plane: @pix
 * points at the first sample of the top-left pixel, @pixstep is the
 * distance between horizontally adjacent samples (1 for GRAY8/I420 luma,
 * 2 for YUY2, 3 or 4 for a channel of RGB/RGBx), @stride the distance
 * between lines. Returns the frame number, or -1 when no valid stamp is
 * found. Tolerant to conversion and JPEG noise (thresholds at mid-grey,
 * samples block centres).
 */
long negcam_stamp_read(const __u8 *pix, __u32 pixstep, __u32 stride,
		       __u32 width, __u32 height);

#endif /* NEGCAM_FRAMEGEN_H */
