// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * A freestanding H.264 encoder for the generator's pictures: Annex B byte
 * stream, Constrained Baseline profile, one IDR access unit per frame
 * (access unit delimiter, SPS, PPS, one I slice) whose macroblocks are
 * all I_PCM (ITU-T H.264 7.3.5: mb_type 25 in an I slice, then the raw
 * 4:2:0 samples after pcm_alignment_zero_bits). No transform, no entropy
 * coding beyond the exp-Golomb header fields, CAVLC entropy mode. No
 * floats, no allocation, under 1 KiB of stack.
 *
 * I_PCM is lossless: a decoder gives back exactly the Y'CbCr 4:2:0
 * samples the raw YU12 path draws. Sizes that are not multiples of 16
 * are coded to the next multiple, padded by replicating the last column
 * and line, and cropped back in the SPS (frame_cropping).
 *
 * Every macroblock after the first starts on a byte boundary, so its
 * bytes depend on its samples alone: a macroblock row holding only
 * background is encoded once and its bytes are reused for the other
 * plain rows, as jpeg.c does with MCU rows.
 */
#include "h264.h"
#include "formats.h"
#include "scene.h"

/* Bit writer into a NAL unit payload with emulation prevention. */
struct nc_hw {
	__u8 *d;
	__u32 pos, size;
	__u32 acc;    /* pending bits, right-aligned */
	__u32 nbits;
	__u32 zeros;  /* zero bytes just written inside the payload */
	__u32 epb;    /* emulation prevention bytes inserted so far */
	bool full;
};

static void nc_hw_raw(struct nc_hw *w, __u8 v)
{
	if (w->pos < w->size)
		w->d[w->pos++] = v;
	else
		w->full = true;
}

/* A payload byte: 00 00 followed by 00..03 gets a 03 in between (7.4.1). */
static void nc_hw_byte(struct nc_hw *w, __u8 v)
{
	if (w->zeros >= 2 && v <= 3) {
		nc_hw_raw(w, 3);
		w->epb++;
		w->zeros = 0;
	}
	nc_hw_raw(w, v);
	w->zeros = v ? 0 : w->zeros + 1;
}

/*
 * Byte-aligned payload bytes, the bulk of a frame: the same rule. Only a
 * byte that follows two zeros can need an escape, so the bytes up to and
 * including the next zero are copied at once when fewer than two zeros
 * precede them.
 */
static void nc_hw_put(struct nc_hw *w, const __u8 *src, __u32 n)
{
	__u32 i = 0, end;
	const __u8 *z;
	__u8 v;

	while (i < n) {
		if (w->zeros < 2) {
			z = memchr(src + i, 0, n - i);
			end = z ? (__u32)(z - src) + 1 : n;
			if (w->size - w->pos < end - i) {
				w->pos = w->size;
				w->full = true;
				return;
			}
			memcpy(w->d + w->pos, src + i, end - i);
			w->pos += end - i;
			w->zeros = !z ? 0 : end - i == 1 ? w->zeros + 1 : 1;
			i = end;
			continue;
		}
		v = src[i++];
		if (v <= 3) {
			nc_hw_raw(w, 3);
			w->epb++;
			w->zeros = 0;
		}
		nc_hw_raw(w, v);
		w->zeros = v ? 0 : w->zeros + 1;
		if (w->full)
			return;
	}
}

/* Up to 24 bits, most significant first. */
static void nc_hw_bits(struct nc_hw *w, __u32 v, __u32 n)
{
	w->acc = (w->acc << n) | (v & ((1u << n) - 1));
	w->nbits += n;
	while (w->nbits >= 8) {
		w->nbits -= 8;
		nc_hw_byte(w, (__u8)(w->acc >> w->nbits));
	}
	w->acc &= (1u << w->nbits) - 1;
}

/* ue(v), 9.1: len - 1 zeros, then v + 1 in len bits. */
static void nc_hw_ue(struct nc_hw *w, __u32 v)
{
	__u32 len = 0, t = v + 1;

	while (t >> len)
		len++;
	for (t = len - 1; t > 16; t -= 16)
		nc_hw_bits(w, 0, 16);
	nc_hw_bits(w, 0, t);
	nc_hw_bits(w, v + 1, len);
}

/* se(v): 0, 1, -1, 2, -2... */
static void nc_hw_se(struct nc_hw *w, __s32 v)
{
	nc_hw_ue(w, v > 0 ? 2 * (__u32)v - 1 : 2 * (__u32)(-v));
}

/* rbsp_trailing_bits(): a stop bit, then zeros to the byte boundary. */
static void nc_hw_trailing(struct nc_hw *w)
{
	nc_hw_bits(w, 1, 1);
	if (w->nbits)
		nc_hw_bits(w, 0, 8 - w->nbits);
}

/* A four-byte start code and the NAL unit header (7.3.1). */
static void nc_hw_nal(struct nc_hw *w, __u32 ref_idc, __u32 type)
{
	nc_hw_raw(w, 0);
	nc_hw_raw(w, 0);
	nc_hw_raw(w, 0);
	nc_hw_raw(w, 1);
	nc_hw_raw(w, (__u8)(ref_idc << 5 | type));
	w->zeros = 0;
}

#define NC_NAL_SLICE_IDR 5
#define NC_NAL_SPS 7
#define NC_NAL_PPS 8
#define NC_NAL_AUD 9

/* mb_type of I_PCM in an I slice (Table 7-11). */
#define NC_MB_I_PCM 25

/*
 * Levels (Table A-1): level_idc, MaxFS (macroblocks a frame), MaxMBPS
 * (macroblocks a second). Level 1b is never chosen.
 */
static const struct {
	__u8 idc;
	__u32 max_fs, max_mbps;
} nc_h264_levels[] = {
	{ 10, 99, 1485 },      { 11, 396, 3000 },     { 12, 396, 6000 },
	{ 13, 396, 11880 },    { 20, 396, 11880 },    { 21, 792, 19800 },
	{ 22, 1620, 20250 },   { 30, 1620, 40500 },   { 31, 3600, 108000 },
	{ 32, 5120, 216000 },  { 40, 8192, 245760 },  { 41, 8192, 245760 },
	{ 42, 8704, 522240 },  { 50, 22080, 589824 }, { 51, 36864, 983040 },
	{ 52, 36864, 2073600 }, { 60, 139264, 4177920 },
	{ 61, 139264, 8355840 }, { 62, 139264, 16711680 },
};

/*
 * The smallest level whose frame size limits (MaxFS, and no side longer
 * than sqrt(8 * MaxFS) macroblocks, A.3.1) hold the picture at 30 frames
 * a second. The generator is not told the rate; the bit rate and
 * compression ratio limits cannot be met by uncompressed macroblocks at
 * any level and are not considered.
 */
static __u8 nc_h264_level(__u32 wmb, __u32 hmb)
{
	__u64 fs = (__u64)wmb * hmb;
	unsigned int i;

	for (i = 0; i < NC_ARRAY_SIZE(nc_h264_levels); i++) {
		__u64 max = nc_h264_levels[i].max_fs;

		if (fs <= max && (__u64)wmb * wmb <= 8 * max &&
		    (__u64)hmb * hmb <= 8 * max &&
		    fs * 30 <= nc_h264_levels[i].max_mbps)
			return nc_h264_levels[i].idc;
	}
	return 62;
}

/* seq_parameter_set_rbsp() (7.3.2.1.1) with VUI (E.1.1). */
static void nc_h264_sps(struct nc_hw *w, __u32 width, __u32 height)
{
	__u32 wmb = (width + 15) / 16, hmb = (height + 15) / 16;
	__u32 crop_r = (wmb * 16 - width) / 2, crop_b = (hmb * 16 - height) / 2;

	nc_hw_nal(w, 3, NC_NAL_SPS);
	nc_hw_bits(w, 66, 8);       /* profile_idc: Baseline */
	nc_hw_bits(w, 0xc0, 8);     /* constraint_set0 and 1: Constrained Baseline */
	nc_hw_bits(w, nc_h264_level(wmb, hmb), 8);
	nc_hw_ue(w, 0);             /* seq_parameter_set_id */
	nc_hw_ue(w, 0);             /* log2_max_frame_num_minus4 */
	nc_hw_ue(w, 2);             /* pic_order_cnt_type: from frame_num */
	nc_hw_ue(w, 0);             /* max_num_ref_frames: intra only */
	nc_hw_bits(w, 0, 1);        /* gaps_in_frame_num_value_allowed_flag */
	nc_hw_ue(w, wmb - 1);       /* pic_width_in_mbs_minus1 */
	nc_hw_ue(w, hmb - 1);       /* pic_height_in_map_units_minus1 */
	nc_hw_bits(w, 1, 1);        /* frame_mbs_only_flag */
	nc_hw_bits(w, 1, 1);        /* direct_8x8_inference_flag */
	nc_hw_bits(w, crop_r || crop_b, 1); /* frame_cropping_flag */
	if (crop_r || crop_b) {
		/* in units of 2 samples for 4:2:0 frames (7.4.2.1.1) */
		nc_hw_ue(w, 0);
		nc_hw_ue(w, crop_r);
		nc_hw_ue(w, 0);
		nc_hw_ue(w, crop_b);
	}
	nc_hw_bits(w, 1, 1);        /* vui_parameters_present_flag */
	nc_hw_bits(w, 1, 1);        /* aspect_ratio_info_present_flag */
	nc_hw_bits(w, 1, 8);        /* aspect_ratio_idc: 1:1 */
	nc_hw_bits(w, 0, 1);        /* overscan_info_present_flag */
	nc_hw_bits(w, 1, 1);        /* video_signal_type_present_flag */
	nc_hw_bits(w, 5, 3);        /* video_format: unspecified */
	nc_hw_bits(w, 0, 1);        /* video_full_range_flag: limited range */
	nc_hw_bits(w, 1, 1);        /* colour_description_present_flag */
	nc_hw_bits(w, 1, 8);        /* colour_primaries: BT.709 (= sRGB) */
	nc_hw_bits(w, 13, 8);       /* transfer_characteristics: sRGB */
	nc_hw_bits(w, 6, 8);        /* matrix_coefficients: BT.601 */
	nc_hw_bits(w, 0, 1);        /* chroma_loc_info_present_flag */
	nc_hw_bits(w, 0, 1);        /* timing_info_present_flag */
	nc_hw_bits(w, 0, 1);        /* nal_hrd_parameters_present_flag */
	nc_hw_bits(w, 0, 1);        /* vcl_hrd_parameters_present_flag */
	nc_hw_bits(w, 0, 1);        /* pic_struct_present_flag */
	nc_hw_bits(w, 1, 1);        /* bitstream_restriction_flag */
	nc_hw_bits(w, 1, 1);        /* motion_vectors_over_pic_boundaries_flag */
	nc_hw_ue(w, 0);             /* max_bytes_per_pic_denom: no limit */
	nc_hw_ue(w, 0);             /* max_bits_per_mb_denom: no limit */
	nc_hw_ue(w, 16);            /* log2_max_mv_length_horizontal */
	nc_hw_ue(w, 16);            /* log2_max_mv_length_vertical */
	nc_hw_ue(w, 0);             /* max_num_reorder_frames */
	nc_hw_ue(w, 0);             /* max_dec_frame_buffering: output at once */
	nc_hw_trailing(w);
}

/* pic_parameter_set_rbsp() (7.3.2.2). */
static void nc_h264_pps(struct nc_hw *w)
{
	nc_hw_nal(w, 3, NC_NAL_PPS);
	nc_hw_ue(w, 0);             /* pic_parameter_set_id */
	nc_hw_ue(w, 0);             /* seq_parameter_set_id */
	nc_hw_bits(w, 0, 1);        /* entropy_coding_mode_flag: CAVLC */
	nc_hw_bits(w, 0, 1);        /* bottom_field_pic_order_in_frame_present_flag */
	nc_hw_ue(w, 0);             /* num_slice_groups_minus1 */
	nc_hw_ue(w, 0);             /* num_ref_idx_l0_default_active_minus1 */
	nc_hw_ue(w, 0);             /* num_ref_idx_l1_default_active_minus1 */
	nc_hw_bits(w, 0, 1);        /* weighted_pred_flag */
	nc_hw_bits(w, 0, 2);        /* weighted_bipred_idc */
	nc_hw_se(w, 0);             /* pic_init_qp_minus26 */
	nc_hw_se(w, 0);             /* pic_init_qs_minus26 */
	nc_hw_se(w, 0);             /* chroma_qp_index_offset */
	nc_hw_bits(w, 1, 1);        /* deblocking_filter_control_present_flag */
	nc_hw_bits(w, 0, 1);        /* constrained_intra_pred_flag */
	nc_hw_bits(w, 0, 1);        /* redundant_pic_cnt_present_flag */
	nc_hw_trailing(w);
}

/* slice_header() (7.3.3) of the one IDR I slice of a picture. */
static void nc_h264_slice_header(struct nc_hw *w, __u32 frame)
{
	nc_hw_nal(w, 3, NC_NAL_SLICE_IDR);
	nc_hw_ue(w, 0);             /* first_mb_in_slice */
	nc_hw_ue(w, 7);             /* slice_type: I, and every slice of the picture */
	nc_hw_ue(w, 0);             /* pic_parameter_set_id */
	nc_hw_bits(w, 0, 4);        /* frame_num: 0 in an IDR picture */
	/* consecutive IDR pictures need different idr_pic_id (7.4.3) */
	nc_hw_ue(w, frame & 0xffff);
	nc_hw_bits(w, 0, 1);        /* no_output_of_prior_pics_flag */
	nc_hw_bits(w, 0, 1);        /* long_term_reference_flag */
	nc_hw_se(w, 0);             /* slice_qp_delta */
	nc_hw_ue(w, 1);             /* disable_deblocking_filter_idc: off */
}


/* macroblock_layer() of an I_PCM macroblock (7.3.5). */
static void nc_h264_mb(struct nc_hw *w, const struct nc_scene *s, __u32 mx,
		       __u32 my)
{
	__u8 pcm[384];

	nc_hw_ue(w, NC_MB_I_PCM);
	if (w->nbits)               /* pcm_alignment_zero_bit */
		nc_hw_bits(w, 0, 8 - w->nbits);
	nc_scene_mb420(s, mx, my, pcm);
	nc_hw_put(w, pcm, sizeof(pcm));
}

long nc_h264_encode(const struct nc_scene *s, __u8 *dst, __u32 dst_size)
{
	struct nc_hw w = { .d = dst, .size = dst_size };
	__u32 wmb = (s->width + 15) / 16, hmb = (s->height + 15) / 16;
	__u32 mx, my, y1, start, epb, plain_pos = 0, plain_len = 0;
	bool plain;

	if (!s->width || !s->height || (s->width | s->height) & 1)
		return -EINVAL;

	nc_hw_nal(&w, 0, NC_NAL_AUD);
	nc_hw_bits(&w, 0, 3);       /* primary_pic_type: I slices only */
	nc_hw_trailing(&w);
	nc_h264_sps(&w, s->width, s->height);
	nc_h264_pps(&w);
	nc_h264_slice_header(&w, s->frame);

	for (my = 0; my < hmb && !w.full; my++) {
		y1 = my * 16 + 16 < s->height ? my * 16 + 16 : s->height;
		/* rows after the first start on a byte boundary */
		plain = my > 0 && nc_scene_plain_rows(s, my * 16, y1);
		if (plain && plain_len) {
			nc_hw_put(&w, dst + plain_pos, plain_len);
			continue;
		}
		start = w.pos;
		epb = w.epb;
		for (mx = 0; mx < wmb; mx++)
			nc_h264_mb(&w, s, mx, my);
		/* reusable when its bytes are its RBSP bytes, unescaped */
		if (plain && !w.full && w.epb == epb) {
			plain_pos = start;
			plain_len = w.pos - start;
		}
	}
	nc_hw_trailing(&w);         /* rbsp_slice_trailing_bits() */
	return w.full ? -ENOSPC : (long)w.pos;
}
