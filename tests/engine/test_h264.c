// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The frame generator's H.264: every frame is an Annex B access unit
 * (AUD, SPS, PPS, one IDR I slice of I_PCM macroblocks). The stream is
 * taken apart here from ITU-T H.264 (start codes, NAL headers, emulation
 * prevention, exp-Golomb fields, macroblock layer) and every I_PCM sample
 * compared with the YU12 draw of the same frame; then ffmpeg, when it is
 * installed, decodes several sizes and the pictures must equal the YU12
 * draws and carry the frame number stamp. Also: sizeimage holds every
 * frame, odd sizes and short buffers are refused without overrun.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "formats.h"
#include "framegen.h"

#define GUARD 64
#define GUARD_BYTE 0xa5

static void make_fmt(struct v4l2_pix_format *f, __u32 fourcc, __u32 w, __u32 h,
		     __u32 field)
{
	memset(f, 0, sizeof(*f));
	f->pixelformat = fourcc;
	f->width = w;
	f->height = h;
	f->field = field;
}

static __u32 h264_sizeimage(__u32 w, __u32 h)
{
	__u32 bpl, size;

	negcam_fourcc_sizes(negcam_fourcc_lookup(V4L2_PIX_FMT_H264), w, h, 1,
			    &bpl, &size);
	return size;
}

/* An H264 frame in a malloc'ed buffer of sizeimage bytes; *len its length. */
static __u8 *draw_h264(__u32 w, __u32 h, __u32 field, __u32 pattern,
		       __u32 frame, long *len)
{
	struct v4l2_pix_format f;
	__u32 size = h264_sizeimage(w, h);
	__u8 *b = malloc(size);

	make_fmt(&f, V4L2_PIX_FMT_H264, w, h, field);
	*len = negcam_framegen_draw(&f, pattern, frame, NC_FRAME_NONE, b, size);
	return b;
}

/* The YU12 planes of the same picture, tightly packed (Y, then U, then V). */
static __u8 *draw_yu12(__u32 w, __u32 h, __u32 pattern, __u32 frame)
{
	struct v4l2_pix_format f;
	__u8 *b = malloc((size_t)w * h * 3 / 2);
	long r;

	make_fmt(&f, V4L2_PIX_FMT_YUV420, w, h, V4L2_FIELD_NONE);
	f.bytesperline = w;
	r = negcam_framegen_draw(&f, pattern, frame, NC_FRAME_NONE, b,
				 w * h * 3 / 2);
	CHECK_EQ(r, (long)w * h * 3 / 2, "YU12 %ux%u", w, h);
	return b;
}

/* ------------------------------------------------------------------ */
/* Annex B and RBSP                                                    */

struct nal {
	const __u8 *p; /* first byte after the start code (the NAL header) */
	size_t len;
	bool long_sc;  /* preceded by 00 00 00 01 */
};

/* Split a byte stream at its start codes; returns the number of NALs. */
static unsigned int split_nals(const __u8 *b, size_t n, struct nal *out,
			       unsigned int max)
{
	unsigned int count = 0;
	size_t i = 0, start = 0;

	while (i + 3 <= n) {
		if (b[i] == 0 && b[i + 1] == 0 && b[i + 2] == 1) {
			if (count) {
				out[count - 1].len = i - start;
				/* a zero before the next start code is a 4-byte code's */
				if (out[count - 1].len && b[i - 1] == 0 && i >= 1)
					out[count - 1].len--;
			}
			if (count == max)
				return count + 1;
			out[count].p = b + i + 3;
			out[count].long_sc = i >= 1 && b[i - 1] == 0;
			start = i + 3;
			count++;
			i += 3;
			continue;
		}
		i++;
	}
	if (count)
		out[count - 1].len = n - start;
	return count;
}

/*
 * Remove emulation prevention bytes from a NAL payload (after its header
 * byte) into @rbsp; counts them in *epb. Returns false when the payload
 * holds a forbidden three-byte sequence (00 00 00, 00 00 01, 00 00 02) or
 * a 00 00 03 not followed by 00..03.
 */
static bool unescape(const struct nal *nl, __u8 *rbsp, size_t *rlen,
		     unsigned int *epb)
{
	size_t i, o = 0;
	unsigned int zeros = 0;

	*epb = 0;
	for (i = 1; i < nl->len; i++) {
		__u8 v = nl->p[i];

		if (zeros >= 2 && v <= 2)
			return false;
		if (zeros >= 2 && v == 3) {
			if (i + 1 < nl->len && nl->p[i + 1] > 3)
				return false;
			(*epb)++;
			zeros = 0;
			continue;
		}
		rbsp[o++] = v;
		zeros = v ? 0 : zeros + 1;
	}
	*rlen = o;
	return true;
}

struct br {
	const __u8 *d;
	size_t bits, pos;
	bool over;
};

static void br_init(struct br *r, const __u8 *d, size_t len)
{
	r->d = d;
	r->bits = len * 8;
	r->pos = 0;
	r->over = false;
}

static __u32 br_u(struct br *r, unsigned int n)
{
	__u32 v = 0;

	while (n--) {
		if (r->pos >= r->bits) {
			r->over = true;
			return 0;
		}
		v = v << 1 | ((r->d[r->pos >> 3] >> (7 - (r->pos & 7))) & 1);
		r->pos++;
	}
	return v;
}

static __u32 br_ue(struct br *r)
{
	unsigned int zeros = 0;

	while (!br_u(r, 1) && !r->over)
		if (++zeros > 31) {
			r->over = true;
			return 0;
		}
	return (__u32)((1ull << zeros) - 1 + br_u(r, zeros));
}

static __s32 br_se(struct br *r)
{
	__u32 k = br_ue(r);

	return k & 1 ? (__s32)((k + 1) / 2) : -(__s32)(k / 2);
}

/* rbsp_trailing_bits() and nothing after them. */
static bool br_trailing(struct br *r)
{
	if (br_u(r, 1) != 1)
		return false;
	while (r->pos & 7)
		if (br_u(r, 1))
			return false;
	return !r->over && r->pos == r->bits;
}

/* ------------------------------------------------------------------ */
/* The whole access unit, field by field                               */

struct au_info {
	__u32 level, width, height, wmb, hmb, idr_pic_id;
	unsigned int epb_headers, epb_slice;
	bool ok;
};

/* The sample I_PCM must carry at (x, y) of a plane, edges repeated. */
static __u8 plane_at(const __u8 *pl, __u32 w, __u32 h, __u32 x, __u32 y)
{
	return pl[(size_t)(y < h ? y : h - 1) * w + (x < w ? x : w - 1)];
}

#define MAX_NALS 16

/* A NAL unit's RBSP, ready to read from its first bit. */
static void au_read(const struct nal *nl, __u8 *rbsp, struct br *r)
{
	unsigned int epb;
	size_t rlen;

	unescape(nl, rbsp, &rlen, &epb);
	br_init(r, rbsp, rlen);
}

/* The NAL units: four (AUD, SPS, PPS, IDR slice), well framed and escaped. */
static bool au_nals(const __u8 *b, size_t n, struct nal *nals, __u8 *rbsp, const char *what,
		    struct au_info *ai)
{
	unsigned int count, i, epb;
	size_t rlen;

	CHECK(n >= 4 && !memcmp(b, "\0\0\0\1", 4), "%s: starts with 00 00 00 01", what);
	count = split_nals(b, n, nals, MAX_NALS);
	CHECK_EQ(count, 4, "%s: AUD, SPS, PPS and one slice", what);
	if (count != 4)
		return false;
	for (i = 0; i < count; i++) {
		CHECK(nals[i].long_sc, "%s: NAL %u has a 4-byte start code", what, i);
		CHECK(!(nals[i].p[0] & 0x80), "%s: forbidden_zero_bit", what);
		CHECK(unescape(&nals[i], rbsp, &rlen, &epb),
		      "%s: NAL %u holds 00 00 00/01/02 or a stray 00 00 03", what, i);
		CHECK(nals[i].p[nals[i].len - 1] != 0, "%s: NAL %u ends in a zero byte",
		      what, i);
		if (i < 3)
			ai->epb_headers += epb;
		else
			ai->epb_slice = epb;
	}
	CHECK_EQ(nals[0].p[0] & 0x1f, 9, "%s: AUD first", what);
	CHECK_EQ(nals[1].p[0], 0x67, "%s: SPS, nal_ref_idc 3", what);
	CHECK_EQ(nals[2].p[0], 0x68, "%s: PPS, nal_ref_idc 3", what);
	CHECK_EQ(nals[3].p[0], 0x65, "%s: IDR slice, nal_ref_idc 3", what);
	return true;
}

/* vui_parameters(): limited range, BT.601, no HRD, no reordering. */
static void au_vui(struct br *r, const char *what)
{
	unsigned int i;

	if (br_u(r, 1) && br_u(r, 8) == 255)
		br_u(r, 32);
	if (br_u(r, 1))
		br_u(r, 1);
	if (br_u(r, 1)) {
		br_u(r, 3);
		CHECK_EQ(br_u(r, 1), 0, "%s: limited range in the VUI", what);
		if (br_u(r, 1)) {
			br_u(r, 16);
			CHECK_EQ(br_u(r, 8), 6, "%s: BT.601 matrix", what);
		}
	}
	if (br_u(r, 1)) {
		br_ue(r);
		br_ue(r);
	}
	if (br_u(r, 1))
		br_u(r, 32 + 32 + 1);
	CHECK(!br_u(r, 1) && !br_u(r, 1), "%s: no HRD expected", what);
	br_u(r, 1);
	if (br_u(r, 1)) {
		br_u(r, 1);
		for (i = 0; i < 4; i++)
			br_ue(r);
		CHECK_EQ(br_ue(r), 0, "%s: max_num_reorder_frames", what);
		br_ue(r);
	}
}

/* seq_parameter_set_rbsp(): Constrained Baseline, cropped to @w x @h; log2_max_frame_num. */
static __u32 au_sps(struct br *r, __u32 w, __u32 h, const char *what, struct au_info *ai)
{
	__u32 cl = 0, cr = 0, ct = 0, cbm = 0, log2_fn;

	CHECK_EQ(br_u(r, 8), 66, "%s: profile_idc Baseline", what);
	CHECK_EQ(br_u(r, 8), 0xc0, "%s: constraint_set0+1 (Constrained Baseline)", what);
	ai->level = br_u(r, 8);
	CHECK_EQ(br_ue(r), 0, "%s: sps id", what);
	log2_fn = br_ue(r) + 4;
	CHECK_EQ(br_ue(r), 2, "%s: pic_order_cnt_type", what);
	CHECK(br_ue(r) <= 1, "%s: max_num_ref_frames", what);
	CHECK_EQ(br_u(r, 1), 0, "%s: gaps_in_frame_num", what);
	ai->wmb = br_ue(r) + 1;
	ai->hmb = br_ue(r) + 1;
	CHECK_EQ(br_u(r, 1), 1, "%s: frame_mbs_only_flag", what);
	br_u(r, 1);
	if (br_u(r, 1)) {
		cl = br_ue(r);
		cr = br_ue(r);
		ct = br_ue(r);
		cbm = br_ue(r);
	}
	ai->width = ai->wmb * 16 - 2 * (cl + cr);
	ai->height = ai->hmb * 16 - 2 * (ct + cbm);
	CHECK(ai->width == w && ai->height == h, "%s: SPS crops to %ux%u", what,
	      ai->width, ai->height);
	CHECK(ai->wmb == (w + 15) / 16 && ai->hmb == (h + 15) / 16, "%s: coded %ux%u MBs", what,
	      ai->wmb, ai->hmb);
	if (br_u(r, 1))
		au_vui(r, what);
	CHECK(br_trailing(r), "%s: SPS trailing bits", what);
	return log2_fn;
}

/* pic_parameter_set_rbsp(): CAVLC, one slice group; deblocking_filter_control_present_flag. */
static __u32 au_pps(struct br *r, const char *what)
{
	__u32 deblock;

	CHECK(br_ue(r) == 0 && br_ue(r) == 0, "%s: PPS and SPS ids", what);
	CHECK_EQ(br_u(r, 1), 0, "%s: CAVLC", what);
	br_u(r, 1);
	CHECK_EQ(br_ue(r), 0, "%s: one slice group", what);
	br_ue(r);
	br_ue(r);
	CHECK_EQ(br_u(r, 3), 0, "%s: no weighted prediction", what);
	br_se(r);
	br_se(r);
	br_se(r);
	deblock = br_u(r, 1);
	br_u(r, 2);
	CHECK(br_trailing(r), "%s: PPS trailing bits", what);
	return deblock;
}

/* Every macroblock I_PCM, its samples those of @yu12 (@w x @h), edges repeated. */
static void au_pcm(struct br *r, __u32 w, __u32 h, const __u8 *yu12, const char *what,
		   const struct au_info *ai)
{
	unsigned int mb, bad = 0, badbits = 0;

	for (mb = 0; mb < ai->wmb * ai->hmb && !r->over; mb++) {
		__u32 mx = mb % ai->wmb, my = mb / ai->wmb, x, y, c;
		const __u8 *pl;

		if (br_ue(r) != 25) {
			CHECK(0, "%s: MB %u is not I_PCM", what, mb);
			break;
		}
		while (r->pos & 7)
			badbits += br_u(r, 1);
		for (y = 0; y < 16; y++)
			for (x = 0; x < 16; x++)
				bad += br_u(r, 8) != plane_at(yu12, w, h, mx * 16 + x,
							      my * 16 + y);
		for (c = 0; c < 2; c++) {
			pl = yu12 + (size_t)w * h + (size_t)c * (w / 2) * (h / 2);
			for (y = 0; y < 8; y++)
				for (x = 0; x < 8; x++)
					bad += br_u(r, 8) !=
					       plane_at(pl, w / 2, h / 2, mx * 8 + x,
							my * 8 + y);
		}
	}
	CHECK_EQ(mb, ai->wmb * ai->hmb, "%s: every macroblock present", what);
	CHECK_EQ(badbits, 0, "%s: pcm_alignment_zero_bits are zero", what);
	CHECK_EQ(bad, 0, "%s: I_PCM samples differ from the YU12 draw", what);
}

/* slice_layer_without_partitioning_rbsp(): an IDR I slice of I_PCM macroblocks. */
static void au_slice(struct br *r, __u32 log2_fn, __u32 deblock, __u32 w, __u32 h,
		     const __u8 *yu12, const char *what, struct au_info *ai)
{
	__u32 type;

	CHECK_EQ(br_ue(r), 0, "%s: first_mb_in_slice", what);
	type = br_ue(r);
	CHECK(type == 2 || type == 7, "%s: I slice (%u)", what, type);
	CHECK_EQ(br_ue(r), 0, "%s: slice pps id", what);
	CHECK_EQ(br_u(r, log2_fn), 0, "%s: frame_num of an IDR", what);
	ai->idr_pic_id = br_ue(r);
	br_u(r, 2);       /* dec_ref_pic_marking() of an IDR */
	br_se(r);         /* slice_qp_delta */
	if (deblock && br_ue(r) != 1) {
		br_se(r);
		br_se(r);
	}
	au_pcm(r, w, h, yu12, what, ai);
	CHECK(br_trailing(r), "%s: slice ends with its trailing bits", what);
}

/*
 * Parse the access unit in @b and compare its macroblocks with @yu12 (the
 * YU12 draw of a @w x @h picture). Every failure is a CHECK with @what.
 */
static void parse_au(const __u8 *b, size_t n, __u32 w, __u32 h,
		     const __u8 *yu12, const char *what, struct au_info *ai)
{
	struct nal nals[MAX_NALS + 1];
	__u8 *rbsp = malloc(n);
	__u32 log2_fn, deblock;
	struct br r;

	memset(ai, 0, sizeof(*ai));
	if (!au_nals(b, n, nals, rbsp, what, ai))
		goto out;

	/* access_unit_delimiter_rbsp() */
	au_read(&nals[0], rbsp, &r);
	CHECK_EQ(br_u(&r, 3), 0, "%s: primary_pic_type I", what);
	CHECK(br_trailing(&r), "%s: AUD trailing bits", what);

	au_read(&nals[1], rbsp, &r);
	log2_fn = au_sps(&r, w, h, what, ai);
	au_read(&nals[2], rbsp, &r);
	deblock = au_pps(&r, what);
	au_read(&nals[3], rbsp, &r);
	au_slice(&r, log2_fn, deblock, w, h, yu12, what, ai);
	ai->ok = !check_failed;
out:
	free(rbsp);
}

/* ------------------------------------------------------------------ */

static void test_structure(void)
{
	static const struct { __u32 w, h, level; } sizes[] = {
		/* levels from Table A-1 at 30 frames a second */
		{ 176, 144, 11 }, { 640, 480, 30 }, { 1920, 1080, 40 },
		{ 350, 202, 13 }, { 140, 4, 10 }, { 2, 2, 10 }, { 160, 90, 11 },
		{ 1280, 720, 31 }, { 3840, 2160, 51 }, { 18, 1000, 21 },
	};
	static const __u32 frames[] = { 0, 1, 77, 0x7fff, 0x8000, 0xffff, 0x12345678 };
	unsigned int si, fi, pattern, epb_seen = 0;
	char what[96];
	struct au_info ai;
	long len;

	for (si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
		__u32 w = sizes[si].w, h = sizes[si].h;

		for (pattern = 0; pattern < NC_PATTERN_COUNT; pattern++) {
			for (fi = 0; fi < sizeof(frames) / sizeof(frames[0]); fi++) {
				__u32 frame = frames[fi];
				__u8 *b, *yu;

				/* the big ones once: they cost time, not coverage */
				if (w * h > 1000000 && (pattern || fi > 1))
					continue;
				b = draw_h264(w, h, V4L2_FIELD_NONE, pattern, frame, &len);
				yu = draw_yu12(w, h, pattern, frame);
				snprintf(what, sizeof(what), "%ux%u pattern %u frame %u", w, h,
					 pattern, frame);
				CHECK(len > 0, "%s: draw %ld", what, len);
				if (len > 0) {
					parse_au(b, (size_t)len, w, h, yu, what, &ai);
					CHECK_EQ(ai.level, sizes[si].level, "%s: level_idc", what);
					CHECK_EQ(ai.idr_pic_id, frame & 0xffff, "%s: idr_pic_id", what);
					CHECK_EQ(ai.epb_slice, 0,
						 "%s: limited-range samples need no escapes", what);
					epb_seen += ai.epb_headers;
				}
				free(b);
				free(yu);
			}
		}
	}
	printf("%u emulation prevention bytes in the headers of the frames parsed\n",
	       epb_seen);

	/* a field per buffer: the picture is fmt.height (one field's lines) high */
	{
		__u8 *b = draw_h264(640, 240, V4L2_FIELD_ALTERNATE, 0, 5, &len);
		__u8 *yu = draw_yu12(640, 240, 0, 5);

		parse_au(b, (size_t)len, 640, 240, yu, "640x240 alternate", &ai);
		free(b);
		free(yu);
	}
}

/*
 * The escaping writer itself, from h264.c (included, its one external
 * symbol renamed): the generator's limited-range samples never hold two
 * zero bytes in a row, so real frames rarely exercise it.
 */
#define nc_h264_encode test_copy_of_nc_h264_encode
#include "../../engine/h264.c"
#undef nc_h264_encode

static void test_escapes(void)
{
	static const __u8 in[] = { 0, 0, 0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0, 4, 0, 0 };
	static const __u8 want[] = {
		0, 0, 3, 0, 0, 3, 0, 1, 0, 0, 3, 2, 0, 0, 3, 3, 0, 0, 4, 0, 0,
	};
	__u8 out[64], out2[64];
	struct nc_hw w = { .d = out, .size = sizeof(out) };
	struct nc_hw w2 = { .d = out2, .size = sizeof(out2) };
	struct nc_hw full = { .d = out, .size = 4 };
	unsigned int i;

	nc_hw_put(&w, in, sizeof(in));
	CHECK(w.pos == sizeof(want) && !memcmp(out, want, sizeof(want)) && w.epb == 4,
	      "nc_hw_put escapes 00 00 0x: %u bytes, %u escapes", w.pos, w.epb);
	/* the same through the bit writer, and a run of zeros across calls */
	for (i = 0; i < sizeof(in); i++)
		nc_hw_bits(&w2, in[i], 8);
	CHECK(w2.pos == sizeof(want) && !memcmp(out2, want, sizeof(want)),
	      "nc_hw_bits escapes as nc_hw_put does");
	w2.pos = 0;
	w2.zeros = 0;
	nc_hw_bits(&w2, 0, 16);
	nc_hw_put(&w2, in + 5, 1); /* 01 after two zero bytes written bitwise */
	CHECK(w2.pos == 4 && out2[2] == 3 && out2[3] == 1, "escape across writers");
	/* a start code resets the count: its own zeros are not payload */
	w2.pos = 0;
	nc_hw_nal(&w2, 3, 5);
	nc_hw_put(&w2, in, 1);
	CHECK(w2.pos == 6 && out2[5] == 0, "no escape right after a NAL header");
	nc_hw_put(&full, in + 5, 10);
	CHECK(full.full && full.pos == 4, "the writer stops at its size");
	/* ue(v)/se(v) as Table 9-2 and 9-3 write them */
	w2.pos = 0;
	w2.zeros = 0;
	nc_hw_ue(&w2, 0);  /* 1 */
	nc_hw_ue(&w2, 3);  /* 00100 */
	nc_hw_se(&w2, -2); /* 00101 */
	nc_hw_ue(&w2, 25); /* 000011010 */
	nc_hw_bits(&w2, 0, 4);    /* 1001 0000 1010 0001 1010 0000 */
	CHECK(w2.pos == 3 && out2[0] == 0x90 && out2[1] == 0xa1 && out2[2] == 0xa0,
	      "exp-Golomb: %02x %02x %02x", out2[0], out2[1], out2[2]);
}

static void test_errors(void)
{
	struct v4l2_pix_format f;
	__u8 *buf;
	long len, r;
	__u32 sizes[] = { 10, 100, 1000 }, i, k;

	CHECK(negcam_framegen_supports(V4L2_PIX_FMT_H264), "H264 drawn");
	make_fmt(&f, V4L2_PIX_FMT_H264, 641, 480, V4L2_FIELD_NONE);
	buf = malloc(h264_sizeimage(641, 480));
	CHECK_EQ(negcam_framegen_draw(&f, 0, 0, NC_FRAME_NONE, buf, h264_sizeimage(641, 480)),
		 -EINVAL, "odd width: 4:2:0 cannot crop to it");
	f.width = 640;
	f.height = 481;
	CHECK_EQ(negcam_framegen_draw(&f, 0, 0, NC_FRAME_NONE, buf, h264_sizeimage(640, 481)),
		 -EINVAL, "odd height");
	free(buf);

	/* short buffers: -ENOSPC and not a byte past the end */
	free(draw_h264(320, 240, V4L2_FIELD_NONE, 0, 9, &len));
	make_fmt(&f, V4L2_PIX_FMT_H264, 320, 240, V4L2_FIELD_NONE);
	sizes[2] = (__u32)len - 1;
	for (i = 0; i < 3; i++) {
		buf = malloc(sizes[i] + GUARD);
		memset(buf, GUARD_BYTE, sizes[i] + GUARD);
		r = negcam_framegen_draw(&f, 0, 9, NC_FRAME_NONE, buf, sizes[i]);
		CHECK_EQ(r, -ENOSPC, "320x240 in %u bytes", sizes[i]);
		for (k = 0; k < GUARD; k++)
			if (buf[sizes[i] + k] != GUARD_BYTE)
				break;
		CHECK_EQ(k, GUARD, "written past %u bytes", sizes[i]);
		free(buf);
	}
	buf = malloc((size_t)len);
	CHECK_EQ(negcam_framegen_draw(&f, 0, 9, NC_FRAME_NONE, buf, (__u32)len), len,
		 "fits in exactly its length");
	free(buf);
}

/* sizeimage (formats.c) must hold the frame, whatever the size. */
static void test_sizeimage(void)
{
	static const __u32 sizes[][2] = {
		{ 2, 2 }, { 18, 1000 }, { 1000, 18 }, { 18, 18 }, { 34, 2000 },
		{ 176, 144 }, { 640, 480 }, { 1920, 1080 }, { 2304, 1536 },
	};
	unsigned int i;
	long len;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		__u32 w = sizes[i][0], h = sizes[i][1];
		__u8 *b = draw_h264(w, h, V4L2_FIELD_NONE, 0, 3, &len);

		CHECK(len > 0 && (__u32)len <= h264_sizeimage(w, h),
		      "%ux%u: frame %ld bytes, sizeimage %u", w, h, len, h264_sizeimage(w, h));
		CHECK(h264_sizeimage(w, h) >= (__u64)w * h * 2,
		      "%ux%u: below the generic compressed bound", w, h);
		free(b);
	}
}

static void test_deterministic(void)
{
	long l1, l2, l3;
	__u8 *a = draw_h264(640, 480, V4L2_FIELD_NONE, 0, 42, &l1);
	__u8 *b = draw_h264(640, 480, V4L2_FIELD_NONE, 0, 42, &l2);
	__u8 *c = draw_h264(640, 480, V4L2_FIELD_NONE, 0, 43, &l3);

	CHECK(l1 == l2 && !memcmp(a, b, (size_t)l1), "the same frame twice differs");
	CHECK(l1 != l3 || memcmp(a, c, (size_t)l1), "frames 42 and 43 are identical");
	free(a);
	free(b);
	free(c);
}

/* ------------------------------------------------------------------ */
/* ffmpeg                                                               */

static void test_ffmpeg(void)
{
	static const __u32 sizes[][2] = {
		{ 176, 144 }, { 640, 480 }, { 1920, 1080 }, { 350, 202 }, { 160, 90 },
	};
	static const __u32 frames[] = { 7, 8, 123456 };
	const unsigned int nf = sizeof(frames) / sizeof(frames[0]);
	char in[] = "/tmp/negcam-h264-XXXXXX", out[64], cmd[256];
	unsigned int si, k, pattern;
	int fd;

	if (system("command -v ffmpeg > /dev/null 2>&1")) {
		printf("SKIP ffmpeg decode: ffmpeg not installed\n");
		return;
	}
	fd = mkstemp(in);
	CHECK(fd >= 0, "mkstemp");
	if (fd < 0)
		return;
	close(fd);
	snprintf(out, sizeof(out), "%s.yuv", in);
	for (si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
		__u32 w = sizes[si][0], h = sizes[si][1];
		size_t fsize = (size_t)w * h * 3 / 2;
		__u8 *dec = malloc(fsize * nf);
		FILE *f = fopen(in, "wb");
		size_t got;

		pattern = si % NC_PATTERN_COUNT;
		for (k = 0; k < nf; k++) {
			long len;
			__u8 *b = draw_h264(w, h, V4L2_FIELD_NONE, pattern, frames[k], &len);

			if (len > 0)
				fwrite(b, 1, (size_t)len, f);
			free(b);
		}
		fclose(f);
		snprintf(cmd, sizeof(cmd),
			 "ffmpeg -nostdin -v error -y -f h264 -i %s -f rawvideo -pix_fmt yuv420p %s",
			 in, out);
		CHECK_EQ(system(cmd), 0, "%ux%u: ffmpeg decodes", w, h);
		f = fopen(out, "rb");
		got = f ? fread(dec, 1, fsize * nf, f) : 0;
		if (f)
			fclose(f);
		CHECK_EQ(got, fsize * nf, "%ux%u: %u decoded frames", w, h, nf);
		for (k = 0; k < nf && got == fsize * nf; k++) {
			__u8 *yu = draw_yu12(w, h, pattern, frames[k]);
			const __u8 *d = dec + k * fsize;

			CHECK(!memcmp(d, yu, (size_t)w * h),
			      "%ux%u frame %u: decoded luma differs from YU12", w, h, frames[k]);
			CHECK(!memcmp(d + (size_t)w * h, yu + (size_t)w * h, fsize - (size_t)w * h),
			      "%ux%u frame %u: decoded chroma differs from YU12", w, h, frames[k]);
			CHECK_EQ(negcam_stamp_read(d, 1, w, w, h), (long)frames[k],
				 "%ux%u: stamp read from the decoded picture", w, h);
			free(yu);
		}
		free(dec);
	}
	unlink(in);
	unlink(out);
	printf("ffmpeg decoded %zu sizes losslessly\n", sizeof(sizes) / sizeof(sizes[0]));
}

int main(void)
{
	test_structure();
	test_escapes();
	test_errors();
	test_sizeimage();
	test_deterministic();
	test_ffmpeg();
	return check_done("test_h264");
}
