/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Internal to the frame generator: the picture model that the raw writers
 * (framegen.c), the JPEG encoder (jpeg.c), the H.264 encoder (h264.c) and
 * the stamp reader (stamp.c) share. It includes no writer or encoder, so
 * every dependency points towards it. Not part of the engine API.
 *
 * A picture is a background that does not vary down the frame (colour
 * bars, a grey ramp or flat grey), a box that moves with scene time and
 * the frame number stamp in the top-left corner. Every colour
 * edge lies on a multiple of 4 pixels, across and down, so chroma
 * subsampled by up to 4 never straddles two colours.
 */
#ifndef NEGCAM_SCENE_H
#define NEGCAM_SCENE_H

#include "compat.h"

/* The number of stamp blocks: a white-black-white sync triplet and 32 bits. */
#define NC_STAMP_BLOCKS 35u

struct nc_color {
	__u8 y, cb, cr; /* BT.601, limited or full range as the scene says */
	__u8 r, g, b;
};

/* What nc_scene_run() may return: everything, or the background alone. */
#define NC_LAYER_BG 0
#define NC_LAYER_ALL 1

struct nc_scene {
	__u32 width, height; /* lines of one buffer (half the frame for one field) */
	__u32 pattern;
	__u32 frame;         /* the stamp */
	__u64 tick;          /* scene time in NC_SCENE_TICK_NS: moves the box */
	__u32 block;         /* stamp block size in pixels, 0: frame too small */
	__u32 block_shift;   /* log2(block) */
	__u32 box_x, box_y, box_size; /* box_size 0: no box */
	__u32 bar_x[9];      /* colour bar boundaries, multiples of 4 */
	__u32 ramp_step;     /* grey ramp: 16.16 grey levels per pixel */
	bool full_range;
	struct nc_color bars[8], box, white, black, grey;
};

void nc_scene_init(struct nc_scene *s, __u32 width, __u32 height,
		   __u32 pattern, __u32 frame, __u64 scene_ns, bool full_range);

/*
 * The colour at (@x, @y) and the end (exclusive, at most the width) of
 * the run of pixels on that line sharing it.
 */
void nc_scene_run(const struct nc_scene *s, __u32 layers, __u32 y, __u32 x,
		  struct nc_color *c, __u32 *end);

/*
 * The 4:2:0 samples of the 16x16 macroblock (@mx, @my) into @pix (384
 * bytes): 256 luma in raster order, then 64 Cb and 64 Cr, as H.264 I_PCM
 * carries them and as a JPEG MCU is cut. Outside the picture the last
 * column and line are repeated; chroma is sampled at the even luma
 * positions, as the raw 4:2:0 path samples it.
 */
void nc_scene_mb420(const struct nc_scene *s, __u32 mx, __u32 my, __u8 *pix);

/* True when lines [@y0, @y1) hold only background. */
bool nc_scene_plain_rows(const struct nc_scene *s, __u32 y0, __u32 y1);

#endif /* NEGCAM_SCENE_H */
