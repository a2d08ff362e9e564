// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Reading the frame number stamp back (the layout is in framegen.h and
 * docs/frames.md). The block size is measured from the sync triplet,
 * snapped to the sizes the generator uses (16, 8, 4), and each block is
 * judged by the mean of the four samples around its centre against
 * mid-grey, which colour conversion and JPEG leave well on their side.
 */
#include "framegen.h"
#include "scene.h"

static unsigned int nc_sample(const __u8 *pix, __u32 pixstep, __u32 stride,
			      __u32 x, __u32 y)
{
	const __u8 *p = pix + (size_t)y * stride + (size_t)x * pixstep;

	return p[0];
}

/* Mean of the 2x2 samples at the centre of block @k of the stamp. */
static bool nc_block_white(const __u8 *pix, __u32 pixstep, __u32 stride,
			   __u32 block, __u32 k)
{
	__u32 cx = k * block + block / 2, cy = block / 2;
	unsigned int sum;

	sum = nc_sample(pix, pixstep, stride, cx - 1, cy - 1) +
	      nc_sample(pix, pixstep, stride, cx, cy - 1) +
	      nc_sample(pix, pixstep, stride, cx - 1, cy) +
	      nc_sample(pix, pixstep, stride, cx, cy);
	return sum >= 4 * 128;
}

static long nc_stamp_decode(const __u8 *pix, __u32 pixstep, __u32 stride,
			    __u32 block)
{
	__u32 k, v = 0;

	if (!nc_block_white(pix, pixstep, stride, block, 0) ||
	    nc_block_white(pix, pixstep, stride, block, 1) ||
	    !nc_block_white(pix, pixstep, stride, block, 2))
		return -1;
	for (k = 3; k < NC_STAMP_BLOCKS; k++)
		v = (v << 1) | nc_block_white(pix, pixstep, stride, block, k);
	return (long)v;
}

long negcam_stamp_read(const __u8 *pix, __u32 pixstep, __u32 stride,
		       __u32 width, __u32 height)
{
	static const __u32 sizes[] = { 16, 8, 4 };
	__u32 y, x, white, black, twice, i, best = 0, dist, best_dist = ~0u;

	if (!pix || !pixstep || width < NC_STAMP_BLOCKS * 4 || height < 4)
		return -1;

	/* Sync triplet: the first white run and black run on line 1. */
	y = 1;
	for (x = 0; x < width && nc_sample(pix, pixstep, stride, x, y) >= 128; x++)
		;
	white = x;
	for (; x < width && nc_sample(pix, pixstep, stride, x, y) < 128; x++)
		;
	black = x - white;
	if (!white || !black)
		return -1;

	twice = white + black;
	for (i = 0; i < NC_ARRAY_SIZE(sizes); i++) {
		dist = twice > 2 * sizes[i] ? twice - 2 * sizes[i] : 2 * sizes[i] - twice;
		if (dist < best_dist &&
		    NC_STAMP_BLOCKS * sizes[i] <= width && sizes[i] <= height) {
			best = sizes[i];
			best_dist = dist;
		}
	}
	/* Blurred edges move a run by a pixel or two, not by a block. */
	if (!best || best_dist > best)
		return -1;
	return nc_stamp_decode(pix, pixstep, stride, best);
}
