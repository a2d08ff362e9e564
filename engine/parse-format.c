// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * A format block: its 'format' line, the 'description' and 'flags' lines
 * of the format being built, and its closing (nc_finish_format(): it must
 * have sizes; the settings it inherits are resolved into the profile).
 */
#include "parse-private.h"

/*
 * A declared 'sizeimage' must hold the image at every size of the format:
 * the layout's bytes (an opaque fourcc's 8-bit picture); a compressed
 * format's frames are as long as they are.
 */
static int nc_check_sizeimage(struct nc_parser *p, const struct negcam_format *f)
{
	const struct negcam_fourcc_info *fi = p->cur_fi;
	const struct negcam_size *sz;
	__u32 i, w, h, bpl, need;
	struct nc_strbuf m;

	if (!f->sizeimage || fi->layout == NC_LAYOUT_COMPRESSED)
		return 0;
	for (i = 0; i < f->size_count; i++) {
		sz = &p->out->sizes[f->size_first + i];
		w = sz->max_w > sz->min_w ? sz->max_w : sz->min_w;
		h = sz->max_h > sz->min_h ? sz->max_h : sz->min_h;
		negcam_fourcc_sizes(fi, w, h, f->stride_align, &bpl, &need);
		if (fi->layout == NC_LAYOUT_OPAQUE)
			need = w * h;
		if (f->sizeimage >= need)
			continue;
		m = nc_error_at(p, p->cur_sizeimage_line, p->cur_sizeimage_col);
		nc_sb_str(&m, "sizeimage ");
		nc_sb_uint(&m, f->sizeimage);
		nc_sb_str(&m, " is smaller than ");
		nc_msg_fourcc(&m, f->fourcc);
		nc_sb_str(&m, " needs at ");
		nc_sb_uint(&m, w);
		nc_sb_char(&m, 'x');
		nc_sb_uint(&m, h);
		nc_sb_str(&m, " (");
		nc_sb_uint(&m, need);
		nc_sb_str(&m, " bytes)");
		return -EINVAL;
	}
	return 0;
}

/* Close the current format: require sizes, resolve inherited settings. */
int nc_finish_format(struct nc_parser *p)
{
	const struct negcam_fourcc_info *fi = p->cur_fi;
	const struct nc_settings *s = &p->cur;
	struct negcam_format *f;
	__u32 cs, enc, quant, xfer;

	if (p->cur_fmt < 0)
		return 0;
	f = nc_cur(p);
	if (!f->size_count) {
		struct nc_strbuf m = nc_error_at(p, p->cur_fmt_line, p->cur_fmt_col);

		nc_sb_str(&m, "format ");
		nc_msg_fourcc(&m, f->fourcc);
		nc_sb_str(&m, " has no sizes: add a line such as 'size 640x480 fps 30' after it");
		return -EINVAL;
	}
	if (s->nfields) {
		memcpy(f->fields, s->fields, sizeof(f->fields));
		f->nfields = s->nfields;
	} else {
		f->fields[0] = V4L2_FIELD_NONE;
		f->nfields = 1;
	}
	f->stride_align = (s->given & NC_SET_STRIDE_ALIGN) ? s->stride_align : 1;
	if (nc_check_sizeimage(p, f))
		return -EINVAL;

	/*
	 * Colorimetry: the format table's default; a named colorspace
	 * brings its own defaults (V4L2_MAP_*_DEFAULT, but JPEG data is
	 * always full range); fields named explicitly win.
	 */
	negcam_fourcc_colorimetry(fi, &cs, &enc, &quant, &xfer);
	if (s->given & NC_SET_COLORSPACE) {
		bool rgb = fi->color == NC_COLOR_RGB ||
			   fi->color == NC_COLOR_BAYER ||
			   fi->color == NC_COLOR_OTHER;

		cs = s->colorspace;
		/* HSV keeps its hue encoding in ycbcr_enc: the table's */
		if (fi->color != NC_COLOR_OTHER)
			enc = V4L2_MAP_YCBCR_ENC_DEFAULT(cs);
		xfer = V4L2_MAP_XFER_FUNC_DEFAULT(cs);
		quant = V4L2_MAP_QUANTIZATION_DEFAULT(rgb, cs, enc);
		if (fi->color == NC_COLOR_JPEG)
			quant = V4L2_QUANTIZATION_FULL_RANGE;
	}
	if (s->given & NC_SET_YCBCR_ENC)
		enc = s->ycbcr_enc;
	if (s->given & NC_SET_QUANTIZATION)
		quant = s->quantization;
	if (s->given & NC_SET_XFER_FUNC)
		xfer = s->xfer_func;
	f->colorspace = (__u8)cs;
	f->ycbcr_enc = (__u8)enc;
	f->quantization = (__u8)quant;
	f->xfer_func = (__u8)xfer;

	if (!(p->cur_seen & NC_SET_DESCRIPTION) && fi->description) {
		__u32 n = nc_strlen(fi->description);

		if (n >= NC_NAME_LEN)
			n = NC_NAME_LEN - 1;
		memcpy(f->description, fi->description, n);
		f->description[n] = '\0';
	}
	f->flags = fi->layout == NC_LAYOUT_COMPRESSED ? V4L2_FMT_FLAG_COMPRESSED : 0;
	f->flags |= p->cur_flags;
	return 0;
}

/*
 * The fourcc of a 'format' line: one of the table, or, with 'opaque' after
 * it, one the table does not have (negcam_fourcc_info_of(): a layout
 * documented outside the table, else negcam_fourcc_opaque), which must
 * then not be in the table (the table's knowledge would be thrown away).
 */
static int nc_format_fourcc(struct nc_parser *p, const struct nc_tok *t,
			    const struct negcam_fourcc_info **fi, __u32 *fourcc)
{
	__u32 pos = p->pos;
	struct nc_tok n;
	bool opaque;
	int ret;

	ret = nc_next(p, &n);
	p->pos = pos;
	if (ret < 0)
		return ret;
	opaque = ret > 0 && nc_tok_is(&n, "opaque");
	ret = nc_parse_fourcc(p, t, fi, fourcc, opaque);
	if (!ret && opaque && negcam_fourcc_lookup(*fourcc)) {
		struct nc_strbuf m = nc_error(p, n.col);

		nc_sb_str(&m, "format ");
		nc_msg_fourcc(&m, *fourcc);
		nc_sb_str(&m, " is in negcam's format table: drop 'opaque'");
		return -EINVAL;
	}
	return ret;
}

/* format FOURCC [opaque] [capture|output] */
int nc_kw_format(struct nc_parser *p, const struct nc_keyword *kw,
		 const struct nc_tok *kwt)
{
	struct negcam_profile *out = p->out;
	const struct negcam_fourcc_info *fi;
	struct negcam_format *f;
	enum negcam_queue q;
	struct nc_tok t;
	__u32 i, col, fourcc;
	int have, ret;

	ret = nc_finish_format(p);
	if (!ret)
		ret = nc_expect(p, &t, "a pixel format after 'format', as in 'format YUYV'");
	if (!ret)
		ret = nc_format_fourcc(p, &t, &fi, &fourcc);
	if (ret)
		return ret;
	col = t.col;
	have = nc_next(p, &t);
	if (have > 0 && nc_tok_is(&t, "opaque"))
		have = nc_next(p, &t);
	ret = nc_parse_queue(p, &t, &have, &q);
	if (ret)
		return ret;
	if (have > 0) {
		struct nc_strbuf m = nc_error(p, t.col);

		nc_sb_str(&m, "unexpected ");
		nc_msg_token(&m, &t);
		nc_sb_str(&m, " after the pixel format: expected 'capture', 'output' or the end of the line");
		return -EINVAL;
	}
	if (have < 0)
		return have;
	for (i = 0; i < out->nformats; i++) {
		f = &out->formats[i];
		if (f->fourcc == fourcc && negcam_queue_of(f->buf_type) == (int)q) {
			struct nc_strbuf m = nc_error(p, col);

			nc_sb_str(&m, "format ");
			nc_msg_fourcc(&m, fourcc);
			nc_sb_str(&m, q == NC_OUTPUT ? " (output)" : "");
			nc_sb_str(&m, " is defined twice: put all its sizes in one block");
			return -EINVAL;
		}
	}
	if (out->nformats == NC_MAX_FORMATS) {
		struct nc_strbuf m = nc_error(p, col);

		nc_sb_str(&m, "too many formats: a profile holds at most ");
		nc_sb_uint(&m, NC_MAX_FORMATS);
		return -EINVAL;
	}
	p->cur_fmt = out->nformats++;
	p->cur_fmt_line = p->line;
	p->cur_fmt_col = col;
	p->cur_fi = fi;
	p->cur = p->wide;
	p->cur_seen = 0;
	p->cur_flags = 0;
	p->cur_range_line = 0;
	f = nc_cur(p);
	f->fourcc = fourcc;
	f->buf_type = q == NC_OUTPUT ? V4L2_BUF_TYPE_VIDEO_OUTPUT :
				       V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f->size_first = out->nsizes;
	return 0;
}

int nc_kw_description(struct nc_parser *p, const struct nc_keyword *kw,
		      const struct nc_tok *kwt)
{
	struct nc_tok t;
	int ret;

	if (nc_cur(p)->size_count) {
		struct nc_strbuf m = nc_error(p, kwt->col);

		nc_sb_str(&m, "'description' must come before the format's first 'size' line");
		return -EINVAL;
	}
	if (p->cur_seen & NC_SET_DESCRIPTION) {
		struct nc_strbuf m = nc_error(p, kwt->col);

		nc_sb_str(&m, "'description' is given twice for this format");
		return -EINVAL;
	}
	ret = nc_expect(p, &t, "a description after 'description', as in 'description \"YUYV 4:2:2\"'");
	if (!ret)
		ret = nc_copy_name(p, &t, nc_cur(p)->description, "description");
	if (ret)
		return ret;
	p->cur_seen |= NC_SET_DESCRIPTION;
	return nc_expect_end_quoted(p, &t, "description");
}

/* sizeimage BYTES: the least sizeimage TRY/S_FMT report (as uvcvideo's dwMaxVideoFrameBufferSize) */
int nc_kw_sizeimage(struct nc_parser *p, const struct nc_keyword *kw,
		    const struct nc_tok *kwt)
{
	struct nc_strbuf m;
	struct nc_tok t;
	__u32 v;
	int ret;

	if (p->cur_seen & NC_SET_SIZEIMAGE) {
		m = nc_error(p, kwt->col);
		nc_sb_str(&m, "'sizeimage' is given twice for this format");
		return -EINVAL;
	}
	ret = nc_expect(p, &t, "a byte count after 'sizeimage', as in 'sizeimage 614400'");
	if (ret)
		return ret;
	if (nc_parse_u32(t.s, t.len, &v) || !v) {
		m = nc_error(p, t.col);
		nc_sb_str(&m, "bad sizeimage ");
		nc_msg_token(&m, &t);
		nc_sb_str(&m, ": expected a byte count from 1 to 4294967295");
		return -EINVAL;
	}
	nc_cur(p)->sizeimage = v;
	p->cur_seen |= NC_SET_SIZEIMAGE;
	p->cur_sizeimage_line = p->line;
	p->cur_sizeimage_col = t.col;
	return nc_expect_end(p, "the sizeimage");
}

/* flags csc-colorspace csc-xfer-func csc-ycbcr-enc csc-quantization */
int nc_kw_flags(struct nc_parser *p, const struct nc_keyword *kw,
		const struct nc_tok *kwt)
{
	const struct negcam_format *f = nc_cur(p);
	struct nc_tok t;
	struct nc_strbuf m;
	__u32 v;
	int ret;

	if (f->size_count) {
		m = nc_error(p, kwt->col);
		nc_sb_str(&m, "'flags' must come before the format's first 'size' line");
		return -EINVAL;
	}
	if (p->cur_seen & NC_SET_FLAGS) {
		m = nc_error(p, kwt->col);
		nc_sb_str(&m, "'flags' is given twice for this format: list all flags on one line");
		return -EINVAL;
	}
	ret = nc_expect(p, &t, "flag names after 'flags', as in 'flags csc-colorspace csc-quantization'");
	while (!ret) {
		ret = nc_lookup(p, &nc_fmt_flags, &t,
				"format flag", &v);
		if (ret)
			return ret;
		if (v == NC_FMT_FLAG_EMULATED_NAME) {
			m = nc_error(p, t.col);
			nc_sb_str(&m, "flag 'emulated' is set by libv4l for the formats it converts, "
				  "never by a driver: list the device without libv4l");
			return -EINVAL;
		}
		if (f->buf_type != V4L2_BUF_TYPE_VIDEO_CAPTURE) {
			m = nc_error(p, t.col);
			nc_sb_str(&m, "flag ");
			nc_msg_token(&m, &t);
			nc_sb_str(&m, " is for capture formats only: colorspace conversion is requested on capture");
			return -EINVAL;
		}
		if (p->cur_fi->layout == NC_LAYOUT_COMPRESSED) {
			m = nc_error(p, t.col);
			nc_sb_str(&m, "flag ");
			nc_msg_token(&m, &t);
			nc_sb_str(&m, " needs a raw format: ");
			nc_msg_fourcc(&m, f->fourcc);
			nc_sb_str(&m, " is compressed");
			return -EINVAL;
		}
		if ((v == V4L2_FMT_FLAG_CSC_YCBCR_ENC) &&
		    (nc_tok_is(&t, "csc-hsv") || nc_tok_is(&t, "csc-hsv-enc")) !=
		    (p->cur_fi->color == NC_COLOR_OTHER)) {
			m = nc_error(p, t.col);
			nc_sb_str(&m, "flag ");
			nc_msg_token(&m, &t);
			nc_sb_str(&m, p->cur_fi->color == NC_COLOR_OTHER ?
				  " is for Y'CbCr formats: an HSV format has 'csc-hsv'" :
				  " is for HSV formats: use 'csc-ycbcr-enc'");
			return -EINVAL;
		}
		if (p->cur_flags & v) {
			m = nc_error(p, t.col);
			nc_sb_str(&m, "flag ");
			nc_msg_token(&m, &t);
			nc_sb_str(&m, " is listed twice");
			return -EINVAL;
		}
		p->cur_flags |= v;
		ret = nc_next(p, &t);
		if (ret == 0)
			break;
		if (ret > 0)
			ret = 0;
	}
	if (ret)
		return ret;
	p->cur_seen |= NC_SET_FLAGS;
	return 0;
}
