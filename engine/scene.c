// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The picture model of the frame generator (scene.h): colours, the
 * moving box, the stamp's geometry, and the questions the writers ask of
 * it (the colour run at a point, a 4:2:0 macroblock, whether lines are
 * plain background). It depends on no writer and no encoder.
 */
#include "scene.h"
#include "framegen.h" /* the patterns, the scene tick */

/* 75% colour bars, so the stamp's white stays distinct from the bars. */
static const __u8 nc_bar_rgb[8][3] = {
	{ 191, 191, 191 }, { 191, 191, 0 }, { 0, 191, 191 }, { 0, 191, 0 },
	{ 191, 0, 191 },   { 191, 0, 0 },   { 0, 0, 191 },   { 0, 0, 0 },
};

static __u8 nc_clamp8(int v)
{
	return v < 0 ? 0 : v > 255 ? 255 : (__u8)v;
}

/* BT.601 in 8.8 fixed point; offsets keep the shifted sums positive. */
static void nc_rgb(bool full, __u8 r, __u8 g, __u8 b, struct nc_color *c)
{
	c->r = r;
	c->g = g;
	c->b = b;
	if (full) {
		c->y = nc_clamp8((77 * r + 150 * g + 29 * b + 128) >> 8);
		c->cb = nc_clamp8((-43 * r - 85 * g + 128 * b + 32896) >> 8);
		c->cr = nc_clamp8((128 * r - 107 * g - 21 * b + 32896) >> 8);
	} else {
		c->y = nc_clamp8(16 + ((66 * r + 129 * g + 25 * b + 128) >> 8));
		c->cb = nc_clamp8((-38 * r - 74 * g + 112 * b + 32896) >> 8);
		c->cr = nc_clamp8((112 * r - 94 * g - 18 * b + 32896) >> 8);
	}
}

/*
 * The stamp's block size: the largest of 16, 8 and 4 pixels for which
 * the 35 blocks fit across and one block fits down; 0 (no stamp) below
 * 140x4.
 */
static __u32 nc_block_size(__u32 width, __u32 height)
{
	__u32 b;

	for (b = 16; b >= 4; b >>= 1)
		if (NC_STAMP_BLOCKS * b <= width && b <= height)
			return b;
	return 0;
}

/* A triangle wave: 4 pixels a tick from 0 to @range and back. */
static __u32 nc_bounce(__u64 tick, __u32 range)
{
	__u64 period, t;

	range &= ~3u;
	if (!range)
		return 0;
	period = 2ull * range;
	t = tick * 4;
	t -= nc_div_u64(t, (__u32)period) * period;
	return (__u32)(t <= range ? t : period - t);
}

void nc_scene_init(struct nc_scene *s, __u32 width, __u32 height,
		   __u32 pattern, __u32 frame, __u64 scene_ns, bool full_range)
{
	__u32 i, side, top;

	memset(s, 0, sizeof(*s));
	s->width = width;
	s->height = height;
	s->pattern = pattern;
	s->frame = frame;
	s->tick = nc_div_u64(scene_ns, (__u32)NC_SCENE_TICK_NS);
	s->full_range = full_range;
	s->block = nc_block_size(width, height);
	for (i = 0; s->block >> i > 1; i++)
		;
	s->block_shift = i;

	/* The box: a sixth of the smaller side, below the stamp. */
	side = (width < height ? width : height) / 6 & ~3u;
	if (side < 4)
		side = 4;
	top = s->block ? s->block + 4 : 0;
	if (side <= width && side + top <= height) {
		s->box_size = side;
		s->box_x = nc_bounce(s->tick, width - side);
		s->box_y = top + nc_bounce(s->tick, height - side - top);
	}

	for (i = 0; i < 8; i++)
		s->bar_x[i] = (__u32)(((__u64)i * width) >> 3) & ~3u;
	s->bar_x[8] = width;
	s->ramp_step = width > 1 ? (255u << 16) / (width - 1) : 0;

	for (i = 0; i < 8; i++)
		nc_rgb(full_range, nc_bar_rgb[i][0], nc_bar_rgb[i][1],
		       nc_bar_rgb[i][2], &s->bars[i]);
	nc_rgb(full_range, 255, 128, 0, &s->box);
	nc_rgb(full_range, 255, 255, 255, &s->white);
	nc_rgb(full_range, 0, 0, 0, &s->black);
	nc_rgb(full_range, 128, 128, 128, &s->grey);
}

void nc_scene_run(const struct nc_scene *s, __u32 layers, __u32 y, __u32 x,
		  struct nc_color *c, __u32 *end)
{
	bool box_rows;
	__u32 limit, e, i, k, bit;

	if (layers && s->block && y < s->block &&
	    x < (NC_STAMP_BLOCKS << s->block_shift)) {
		k = x >> s->block_shift;
		bit = k < 3 ? (__u32)(k != 1) : (s->frame >> (34 - k)) & 1;
		*c = bit ? s->white : s->black;
		*end = (k + 1) << s->block_shift;
		return;
	}
	box_rows = layers && s->box_size && y >= s->box_y &&
		   y < s->box_y + s->box_size;
	if (box_rows && x >= s->box_x && x < s->box_x + s->box_size) {
		*c = s->box;
		*end = s->box_x + s->box_size;
		return;
	}
	limit = box_rows && x < s->box_x ? s->box_x : s->width;

	switch (s->pattern) {
	case NC_PATTERN_BARS:
		for (i = 7; i > 0 && s->bar_x[i] > x; i--)
			;
		*c = s->bars[i];
		e = s->bar_x[i + 1];
		break;
	case NC_PATTERN_GRADIENT: {
		__u32 x4 = x & ~3u;
		__u8 v = nc_clamp8((int)((x4 * s->ramp_step) >> 16));

		nc_rgb(s->full_range, v, v, v, c);
		e = x4 + 4;
		break;
	}
	default:
		*c = s->grey;
		e = s->width;
		break;
	}
	*end = e < limit ? e : limit;
}

void nc_scene_mb420(const struct nc_scene *s, __u32 mx, __u32 my, __u8 *pix)
{
	__u8 *cb = pix + 256, *cr = pix + 320;
	struct nc_color c;
	__u32 l, i, j, n, x, y, e;

	for (l = 0; l < 16; l++) {
		y = my * 16 + l;
		if (y >= s->height)
			y = s->height - 1;
		for (i = 0; i < 16; i += n) {
			x = mx * 16 + i;
			if (x >= s->width)
				x = s->width - 1;
			nc_scene_run(s, NC_LAYER_ALL, y, x, &c, &e);
			n = x == s->width - 1 ? 16 - i : e - x;
			if (n > 16 - i)
				n = 16 - i;
			memset(&pix[l * 16 + i], c.y, n);
			if (l & 1)
				continue;
			for (j = (i + 1) & ~1u; j < i + n; j += 2) {
				cb[(l >> 1) * 8 + (j >> 1)] = c.cb;
				cr[(l >> 1) * 8 + (j >> 1)] = c.cr;
			}
		}
	}
}

bool nc_scene_plain_rows(const struct nc_scene *s, __u32 y0, __u32 y1)
{
	if (s->block && y0 < s->block)
		return false;
	if (s->box_size && y0 < s->box_y + s->box_size && y1 > s->box_y)
		return false;
	return true;
}
