/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * What both fuzzers check: the promises of engine.h and profile.h, seen
 * from outside through the ioctl entry point. A broken promise aborts
 * with a message, which libFuzzer records as a crash with its input.
 */
#ifndef NEGCAM_FUZZ_COMMON_H
#define NEGCAM_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "formats.h"
#include "profile.h"

#define FUZZ_ASSERT(cond, ...)                                                    \
	do {                                                                      \
		if (!(cond)) {                                                    \
			fprintf(stderr, "\nnegcam fuzz invariant broken: %s\n  ", #cond); \
			fprintf(stderr, __VA_ARGS__);                             \
			fprintf(stderr, "\n  at %s:%d\n", __FILE__, __LINE__);    \
			abort();                                                  \
		}                                                                 \
	} while (0)

/* Input bytes, read front to back; zeros once exhausted. */
struct fuzz_reader {
	const uint8_t *p;
	size_t n;
};

static inline uint8_t fz_u8(struct fuzz_reader *r)
{
	if (!r->n)
		return 0;
	r->n--;
	return *r->p++;
}

static inline uint16_t fz_u16(struct fuzz_reader *r)
{
	uint16_t v = fz_u8(r);

	return (uint16_t)(v | (uint16_t)fz_u8(r) << 8);
}

static inline uint32_t fz_u32(struct fuzz_reader *r)
{
	uint32_t v = fz_u16(r);

	return v | (uint32_t)fz_u16(r) << 16;
}

static inline void fz_bytes(struct fuzz_reader *r, void *dst, size_t len)
{
	size_t n = len < r->n ? len : r->n;

	memcpy(dst, r->p, n);
	memset((uint8_t *)dst + n, 0, len - n);
	r->p += n;
	r->n -= n;
}

static inline int fz_nul_terminated(const __u8 *s, size_t len)
{
	return memchr(s, 0, len) != NULL;
}

static inline const struct negcam_format *fz_profile_format(const struct negcam_profile *p,
							    __u32 type, __u32 fourcc)
{
	unsigned int i;

	for (i = 0; i < p->nformats && i < NC_MAX_FORMATS; i++)
		if (p->formats[i].buf_type == type && p->formats[i].fourcc == fourcc)
			return &p->formats[i];
	return NULL;
}

/*
 * ENUM_FRAMESIZES and ENUM_FRAMEINTERVALS carry no buffer type: for a
 * fourcc on both queues they can only describe one of them, so sizes are
 * compared with TRY_FMT only for a fourcc on one queue.
 */
static inline int fz_fourcc_unambiguous(const struct negcam_profile *p, __u32 fourcc)
{
	return !fz_profile_format(p, V4L2_BUF_TYPE_VIDEO_CAPTURE, fourcc) ||
	       !fz_profile_format(p, V4L2_BUF_TYPE_VIDEO_OUTPUT, fourcc);
}

/* a/b < c/d for fractions with non-zero denominators. */
static inline int fz_fract_lt(const struct v4l2_fract *a, const struct v4l2_fract *b)
{
	return (uint64_t)a->numerator * b->denominator < (uint64_t)b->numerator * a->denominator;
}

/*
 * The frame height of a format: for TOP, BOTTOM and ALTERNATE a buffer
 * holds one field and the format's height counts its lines, half the
 * frame's that ENUM_FRAMESIZES lists.
 */
static inline bool fz_field_per_buffer(__u32 field)
{
	return field == V4L2_FIELD_TOP || field == V4L2_FIELD_BOTTOM ||
	       field == V4L2_FIELD_ALTERNATE;
}

static inline __u32 fz_frame_height(const struct v4l2_pix_format *pix)
{
	return fz_field_per_buffer(pix->field) ? pix->height * 2 : pix->height;
}

/* A format G_FMT/TRY_FMT/S_FMT answered must be complete and self-consistent. */
static inline void fz_check_pix(const struct negcam_profile *p, __u32 type,
				const struct v4l2_pix_format *pix, const char *what)
{
	const struct negcam_fourcc_info *fi = negcam_fourcc_lookup(pix->pixelformat);
	char f4[5];

	FUZZ_ASSERT(fz_profile_format(p, type, pix->pixelformat) != NULL,
		    "%s: answered fourcc %s that profile %s does not offer on type %u", what,
		    negcam_fourcc_str(pix->pixelformat, f4), p->name, type);
	FUZZ_ASSERT(pix->field != V4L2_FIELD_ANY && pix->field <= V4L2_FIELD_INTERLACED_BT,
		    "%s: field %u", what, pix->field);
	FUZZ_ASSERT(pix->width > 0 && pix->height > 0 && pix->width <= NC_MAX_DIM &&
			    pix->height <= NC_MAX_DIM,
		    "%s: size %ux%u", what, pix->width, pix->height);
	FUZZ_ASSERT(pix->colorspace && pix->ycbcr_enc && pix->quantization && pix->xfer_func,
		    "%s: colorimetry left DEFAULT (%u %u %u %u)", what, pix->colorspace,
		    pix->ycbcr_enc, pix->quantization, pix->xfer_func);
	FUZZ_ASSERT(pix->sizeimage > 0, "%s: sizeimage 0", what);
	FUZZ_ASSERT(pix->priv == V4L2_PIX_FMT_PRIV_MAGIC, "%s: priv 0x%x", what, pix->priv);
	if (fi && fi->layout != NC_LAYOUT_COMPRESSED) {
		FUZZ_ASSERT(pix->bytesperline > 0 &&
				    (uint64_t)pix->bytesperline * pix->height <= pix->sizeimage,
			    "%s: %s %ux%u bytesperline %u sizeimage %u", what,
			    negcam_fourcc_str(pix->pixelformat, f4), pix->width, pix->height,
			    pix->bytesperline, pix->sizeimage);
		FUZZ_ASSERT(!fi->hsub || pix->width % fi->hsub == 0,
			    "%s: width %u not a multiple of the chroma subsampling %u", what,
			    pix->width, fi->hsub);
		FUZZ_ASSERT(!fi->vsub || pix->height % fi->vsub == 0,
			    "%s: height %u not a multiple of the chroma subsampling %u", what,
			    pix->height, fi->vsub);
	}
}

/* Is @w x @h one of the sizes ENUM_FRAMESIZES offers for @fourcc? 1, 0, or -1: no enum. */
static inline int fz_size_offered(struct negcam_engine *e, __u32 fourcc, __u32 w, __u32 h)
{
	struct v4l2_frmsizeenum fs;
	int ret;

	memset(&fs, 0, sizeof(fs));
	fs.pixel_format = fourcc;
	for (; fs.index <= NC_MAX_SIZES; fs.index++) {
		ret = negcam_engine_ioctl(e, VIDIOC_ENUM_FRAMESIZES, &fs);
		if (ret == -ENOTTY)
			return -1;
		if (ret)
			return 0;
		if (fs.type == V4L2_FRMSIZE_TYPE_DISCRETE) {
			if (fs.discrete.width == w && fs.discrete.height == h)
				return 1;
			continue;
		}
		{
			__u32 sw = fs.stepwise.step_width ? fs.stepwise.step_width : 1;
			__u32 sh = fs.stepwise.step_height ? fs.stepwise.step_height : 1;

			return w >= fs.stepwise.min_width && w <= fs.stepwise.max_width &&
			       h >= fs.stepwise.min_height && h <= fs.stepwise.max_height &&
			       (w - fs.stepwise.min_width) % sw == 0 &&
			       (h - fs.stepwise.min_height) % sh == 0;
		}
	}
	return 0;
}

/*
 * Is @iv one of the intervals ENUM_FRAMEINTERVALS offers for @fourcc at
 * @w x @h? 1, 0, or -1 when the profile does not enumerate intervals.
 */
static inline int fz_interval_offered(struct negcam_engine *e, __u32 fourcc, __u32 w, __u32 h,
				      const struct v4l2_fract *iv)
{
	struct v4l2_frmivalenum fi;
	int ret;

	memset(&fi, 0, sizeof(fi));
	fi.pixel_format = fourcc;
	fi.width = w;
	fi.height = h;
	for (; fi.index <= NC_MAX_INTERVALS; fi.index++) {
		ret = negcam_engine_ioctl(e, VIDIOC_ENUM_FRAMEINTERVALS, &fi);
		if (ret == -ENOTTY)
			return -1;
		if (ret)
			return 0;
		if (fi.type == V4L2_FRMIVAL_TYPE_DISCRETE) {
			/* Compare values: 2/60 is 1/30. */
			if ((uint64_t)fi.discrete.numerator * iv->denominator ==
			    (uint64_t)iv->numerator * fi.discrete.denominator)
				return 1;
			continue;
		}
		return !fz_fract_lt(iv, &fi.stepwise.min) && !fz_fract_lt(&fi.stepwise.max, iv);
	}
	return 0;
}

/*
 * Every enumeration answers consistently: indexes from 0 end in EINVAL,
 * no duplicate fourccs, compressed flag where the table says compressed,
 * sizes and intervals well formed, G_FMT complete and enumerated, each
 * enumerated discrete size accepted unchanged by TRY_FMT, and nothing of
 * this changes the engine's state. @budget bounds the TRY_FMT calls.
 */
static inline void fz_check_enumerations(struct negcam_engine *e, unsigned int budget)
{
	const struct negcam_profile *p = e->profile;
	static const __u32 types[] = { V4L2_BUF_TYPE_VIDEO_CAPTURE, V4L2_BUF_TYPE_VIDEO_OUTPUT };
	struct negcam_engine before = *e;
	unsigned int t;
	char f4[5];

	for (t = 0; t < 2; t++) {
		__u32 seen[NC_MAX_FORMATS];
		struct v4l2_fmtdesc fd;
		struct v4l2_format g;
		unsigned int nseen = 0, i;
		int ret, q = negcam_queue_of(types[t]);

		memset(&fd, 0, sizeof(fd));
		fd.type = types[t];
		for (;; fd.index++) {
			struct v4l2_frmsizeenum fs;
			const struct negcam_fourcc_info *fi;

			ret = negcam_engine_ioctl(e, VIDIOC_ENUM_FMT, &fd);
			if (ret) {
				FUZZ_ASSERT(ret == -EINVAL, "ENUM_FMT index %u: %d", fd.index, ret);
				break;
			}
			FUZZ_ASSERT(fd.index < NC_MAX_FORMATS, "ENUM_FMT never ends (index %u)",
				    fd.index);
			FUZZ_ASSERT(fd.type == types[t], "ENUM_FMT changed type to %u", fd.type);
			FUZZ_ASSERT(fd.pixelformat != 0, "ENUM_FMT index %u: fourcc 0", fd.index);
			FUZZ_ASSERT(fz_nul_terminated(fd.description, sizeof(fd.description)) &&
					    fd.description[0],
				    "ENUM_FMT index %u: description empty or unterminated", fd.index);
			for (i = 0; i < nseen; i++)
				FUZZ_ASSERT(seen[i] != fd.pixelformat, "ENUM_FMT: %s listed twice",
					    negcam_fourcc_str(fd.pixelformat, f4));
			seen[nseen++] = fd.pixelformat;
			fi = negcam_fourcc_lookup(fd.pixelformat);
			if (fi)
				FUZZ_ASSERT(!(fd.flags & V4L2_FMT_FLAG_COMPRESSED) ==
						    (fi->layout != NC_LAYOUT_COMPRESSED),
					    "ENUM_FMT: %s compressed flag 0x%x disagrees with the "
					    "format table", negcam_fourcc_str(fd.pixelformat, f4),
					    fd.flags);

			memset(&fs, 0, sizeof(fs));
			fs.pixel_format = fd.pixelformat;
			for (;; fs.index++) {
				struct v4l2_frmivalenum fiv;

				ret = negcam_engine_ioctl(e, VIDIOC_ENUM_FRAMESIZES, &fs);
				if (ret) {
					FUZZ_ASSERT(ret == -EINVAL ||
							    (ret == -ENOTTY &&
							     (p->quirks & NC_QUIRK_NO_ENUM_FRAMESIZES)),
						    "ENUM_FRAMESIZES %s index %u: %d",
						    negcam_fourcc_str(fd.pixelformat, f4), fs.index, ret);
					FUZZ_ASSERT(fs.index > 0 || ret == -ENOTTY,
						    "format %s has no frame sizes",
						    negcam_fourcc_str(fd.pixelformat, f4));
					break;
				}
				FUZZ_ASSERT(fs.index <= NC_MAX_SIZES, "ENUM_FRAMESIZES never ends");
				FUZZ_ASSERT(fs.pixel_format == fd.pixelformat,
					    "ENUM_FRAMESIZES changed the fourcc");
				if (fs.type != V4L2_FRMSIZE_TYPE_DISCRETE) {
					const struct v4l2_frmsize_stepwise *sw = &fs.stepwise;

					FUZZ_ASSERT(fs.type == V4L2_FRMSIZE_TYPE_STEPWISE ||
							    fs.type == V4L2_FRMSIZE_TYPE_CONTINUOUS,
						    "ENUM_FRAMESIZES type %u", fs.type);
					FUZZ_ASSERT(fs.index == 0,
						    "stepwise size at index %u, not alone", fs.index);
					FUZZ_ASSERT(sw->min_width && sw->min_height &&
							    sw->min_width <= sw->max_width &&
							    sw->min_height <= sw->max_height &&
							    sw->step_width && sw->step_height,
						    "bad stepwise range %ux%u-%ux%u/%u/%u",
						    sw->min_width, sw->min_height, sw->max_width,
						    sw->max_height, sw->step_width, sw->step_height);
					FUZZ_ASSERT(fs.type != V4L2_FRMSIZE_TYPE_CONTINUOUS ||
							    (sw->step_width == 1 && sw->step_height == 1),
						    "continuous range with step %u/%u",
						    sw->step_width, sw->step_height);
					continue;
				}
				FUZZ_ASSERT(fs.discrete.width && fs.discrete.height &&
						    fs.discrete.width <= NC_MAX_DIM &&
						    fs.discrete.height <= NC_MAX_DIM,
					    "discrete size %ux%u", fs.discrete.width,
					    fs.discrete.height);
				if (budget && q >= 0 && !(p->quirks & NC_QUIRK_NO_TRY_FMT) &&
				    fz_fourcc_unambiguous(p, fd.pixelformat)) {
					struct v4l2_format tf;

					budget--;
					memset(&tf, 0, sizeof(tf));
					tf.type = types[t];
					tf.fmt.pix.pixelformat = fd.pixelformat;
					tf.fmt.pix.width = fs.discrete.width;
					tf.fmt.pix.height = fs.discrete.height;
					tf.fmt.pix.field = V4L2_FIELD_ANY;
					ret = negcam_engine_ioctl(e, VIDIOC_TRY_FMT, &tf);
					/* one field a buffer: ask in field lines, half the frame */
					if (!ret && fz_field_per_buffer(tf.fmt.pix.field)) {
						tf.fmt.pix.width = fs.discrete.width;
						tf.fmt.pix.height = fs.discrete.height / 2;
						ret = negcam_engine_ioctl(e, VIDIOC_TRY_FMT, &tf);
					}
					FUZZ_ASSERT(ret == 0, "TRY_FMT of enumerated %s %ux%u: %d",
						    negcam_fourcc_str(fd.pixelformat, f4),
						    fs.discrete.width, fs.discrete.height, ret);
					FUZZ_ASSERT(tf.fmt.pix.width == fs.discrete.width &&
							    fz_frame_height(&tf.fmt.pix) ==
								    fs.discrete.height &&
							    tf.fmt.pix.pixelformat == fd.pixelformat,
						    "TRY_FMT of enumerated %s %ux%u answered %ux%u",
						    negcam_fourcc_str(fd.pixelformat, f4),
						    fs.discrete.width, fs.discrete.height,
						    tf.fmt.pix.width, tf.fmt.pix.height);
					fz_check_pix(p, types[t], &tf.fmt.pix, "TRY_FMT of an enumerated size");
				}
				memset(&fiv, 0, sizeof(fiv));
				fiv.pixel_format = fd.pixelformat;
				fiv.width = fs.discrete.width;
				fiv.height = fs.discrete.height;
				for (;; fiv.index++) {
					ret = negcam_engine_ioctl(e, VIDIOC_ENUM_FRAMEINTERVALS, &fiv);
					if (ret) {
						FUZZ_ASSERT(ret == -EINVAL ||
								    (ret == -ENOTTY &&
								     (p->quirks & NC_QUIRK_NO_ENUM_FRAMEINTERVALS)),
							    "ENUM_FRAMEINTERVALS index %u: %d",
							    fiv.index, ret);
						break;
					}
					FUZZ_ASSERT(fiv.index <= NC_MAX_INTERVALS,
						    "ENUM_FRAMEINTERVALS never ends");
					if (fiv.type == V4L2_FRMIVAL_TYPE_DISCRETE) {
						FUZZ_ASSERT(fiv.discrete.numerator &&
								    fiv.discrete.denominator,
							    "interval %u/%u",
							    fiv.discrete.numerator,
							    fiv.discrete.denominator);
						continue;
					}
					FUZZ_ASSERT(fiv.type == V4L2_FRMIVAL_TYPE_STEPWISE ||
							    fiv.type == V4L2_FRMIVAL_TYPE_CONTINUOUS,
						    "interval type %u", fiv.type);
					FUZZ_ASSERT(fiv.index == 0, "interval range not alone");
					FUZZ_ASSERT(fiv.stepwise.min.numerator &&
							    fiv.stepwise.min.denominator &&
							    fiv.stepwise.max.numerator &&
							    fiv.stepwise.max.denominator &&
							    !fz_fract_lt(&fiv.stepwise.max,
									 &fiv.stepwise.min),
						    "interval range %u/%u - %u/%u",
						    fiv.stepwise.min.numerator,
						    fiv.stepwise.min.denominator,
						    fiv.stepwise.max.numerator,
						    fiv.stepwise.max.denominator);
				}
				/* A size the format does not have has no intervals. */
				fiv.index = 0;
				fiv.width = NC_MAX_DIM + 1;
				ret = negcam_engine_ioctl(e, VIDIOC_ENUM_FRAMEINTERVALS, &fiv);
				FUZZ_ASSERT(ret == -EINVAL || ret == -ENOTTY,
					    "ENUM_FRAMEINTERVALS of %ux%u: %d", fiv.width,
					    fiv.height, ret);
			}
		}
		if (q < 0)
			continue;
		FUZZ_ASSERT((nseen > 0) == (p->def[q].fourcc != 0),
			    "queue %d: %u formats enumerated, default fourcc %s", q, nseen,
			    negcam_fourcc_str(p->def[q].fourcc, f4));
		memset(&g, 0, sizeof(g));
		g.type = types[t];
		ret = negcam_engine_ioctl(e, VIDIOC_G_FMT, &g);
		if (!nseen) {
			FUZZ_ASSERT(ret == -EINVAL, "G_FMT on a queue without formats: %d", ret);
			continue;
		}
		FUZZ_ASSERT(ret == 0, "G_FMT: %d", ret);
		fz_check_pix(p, types[t], &g.fmt.pix, "G_FMT");
		if (fz_fourcc_unambiguous(p, g.fmt.pix.pixelformat) &&
		    fz_size_offered(e, g.fmt.pix.pixelformat, g.fmt.pix.width,
				    fz_frame_height(&g.fmt.pix)) == 0)
			FUZZ_ASSERT(0, "G_FMT size %ux%u of %s is not enumerated",
				    g.fmt.pix.width, g.fmt.pix.height,
				    negcam_fourcc_str(g.fmt.pix.pixelformat, f4));
	}
	FUZZ_ASSERT(!memcmp(&before.fmt, &e->fmt, sizeof(e->fmt)) &&
			    !memcmp(&before.interval, &e->interval, sizeof(e->interval)) &&
			    before.busy == e->busy && before.profile == e->profile,
		    "enumerating, G_FMT or TRY_FMT changed the engine's state");
}

#endif /* NEGCAM_FUZZ_COMMON_H */
