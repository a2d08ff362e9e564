// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The profile in SPA's terms, both ways.
 *
 * Out: SPA_PARAM_EnumFormat pods from the engine's own enumeration
 * (ENUM_FMT, ENUM_FRAMESIZES, ENUM_FRAMEINTERVALS on the capture queue),
 * as PipeWire's V4L2 source builds them from a driver: one pod per format
 * and size entry, carrying that size's frame rates. A discrete size is a
 * fixed rectangle, a stepwise or continuous one an SPA step range; a
 * discrete interval list is an enum of rates, a range a rate range. Raw
 * formats are their SPA video format (the table below), MJPG and JPEG are
 * mjpg, H.264 is h264 (byte-stream, access units). What SPA cannot carry
 * (Bayer, vendor formats, the 'M' variants), or the generator cannot draw,
 * is left out with a warning naming it.
 *
 * In: the consumer's fixed Format goes through the engine's S_FMT and
 * S_PARM, as a V4L2 application's request would; the engine's answer is
 * what the node serves.
 */
#include <stdio.h>
#include <string.h>

#include <spa/param/video/format-utils.h>
#include <spa/pod/builder.h>

#include "framegen.h"
#include "pw-node.h"

struct ncpw_spa_format {
	__u32 fourcc;
	uint32_t subtype; /* SPA_MEDIA_SUBTYPE_* */
	uint32_t spa_format; /* raw: SPA_VIDEO_FORMAT_*; else 0 */
};

/* V4L2 names memory order from the last byte for most RGB; SPA from the first. */
static const struct ncpw_spa_format ncpw_spa_formats[] = {
	{V4L2_PIX_FMT_YUYV, SPA_MEDIA_SUBTYPE_raw, SPA_VIDEO_FORMAT_YUY2},
	{V4L2_PIX_FMT_UYVY, SPA_MEDIA_SUBTYPE_raw, SPA_VIDEO_FORMAT_UYVY},
	{V4L2_PIX_FMT_YVYU, SPA_MEDIA_SUBTYPE_raw, SPA_VIDEO_FORMAT_YVYU},
	{V4L2_PIX_FMT_VYUY, SPA_MEDIA_SUBTYPE_raw, SPA_VIDEO_FORMAT_VYUY},
	{V4L2_PIX_FMT_NV12, SPA_MEDIA_SUBTYPE_raw, SPA_VIDEO_FORMAT_NV12},
	{V4L2_PIX_FMT_NV21, SPA_MEDIA_SUBTYPE_raw, SPA_VIDEO_FORMAT_NV21},
	{V4L2_PIX_FMT_NV16, SPA_MEDIA_SUBTYPE_raw, SPA_VIDEO_FORMAT_NV16},
	{V4L2_PIX_FMT_NV61, SPA_MEDIA_SUBTYPE_raw, SPA_VIDEO_FORMAT_NV61},
	{V4L2_PIX_FMT_NV24, SPA_MEDIA_SUBTYPE_raw, SPA_VIDEO_FORMAT_NV24},
	{V4L2_PIX_FMT_YUV420, SPA_MEDIA_SUBTYPE_raw, SPA_VIDEO_FORMAT_I420},
	{V4L2_PIX_FMT_YVU420, SPA_MEDIA_SUBTYPE_raw, SPA_VIDEO_FORMAT_YV12},
	{V4L2_PIX_FMT_YUV422P, SPA_MEDIA_SUBTYPE_raw, SPA_VIDEO_FORMAT_Y42B},
	{V4L2_PIX_FMT_YUV411P, SPA_MEDIA_SUBTYPE_raw, SPA_VIDEO_FORMAT_Y41B},
	{V4L2_PIX_FMT_YUV410, SPA_MEDIA_SUBTYPE_raw, SPA_VIDEO_FORMAT_YUV9},
	{V4L2_PIX_FMT_YVU410, SPA_MEDIA_SUBTYPE_raw, SPA_VIDEO_FORMAT_YVU9},
	{V4L2_PIX_FMT_GREY, SPA_MEDIA_SUBTYPE_raw, SPA_VIDEO_FORMAT_GRAY8},
	{V4L2_PIX_FMT_Y16, SPA_MEDIA_SUBTYPE_raw, SPA_VIDEO_FORMAT_GRAY16_LE},
	{V4L2_PIX_FMT_Y16_BE, SPA_MEDIA_SUBTYPE_raw, SPA_VIDEO_FORMAT_GRAY16_BE},
	{V4L2_PIX_FMT_RGB24, SPA_MEDIA_SUBTYPE_raw, SPA_VIDEO_FORMAT_RGB},
	{V4L2_PIX_FMT_BGR24, SPA_MEDIA_SUBTYPE_raw, SPA_VIDEO_FORMAT_BGR},
	{V4L2_PIX_FMT_RGB565, SPA_MEDIA_SUBTYPE_raw, SPA_VIDEO_FORMAT_RGB16},
	{V4L2_PIX_FMT_RGB555, SPA_MEDIA_SUBTYPE_raw, SPA_VIDEO_FORMAT_RGB15},
	{V4L2_PIX_FMT_XBGR32, SPA_MEDIA_SUBTYPE_raw, SPA_VIDEO_FORMAT_BGRx},
	{V4L2_PIX_FMT_ABGR32, SPA_MEDIA_SUBTYPE_raw, SPA_VIDEO_FORMAT_BGRA},
	{V4L2_PIX_FMT_XRGB32, SPA_MEDIA_SUBTYPE_raw, SPA_VIDEO_FORMAT_xRGB},
	{V4L2_PIX_FMT_ARGB32, SPA_MEDIA_SUBTYPE_raw, SPA_VIDEO_FORMAT_ARGB},
	{V4L2_PIX_FMT_RGBX32, SPA_MEDIA_SUBTYPE_raw, SPA_VIDEO_FORMAT_RGBx},
	{V4L2_PIX_FMT_RGBA32, SPA_MEDIA_SUBTYPE_raw, SPA_VIDEO_FORMAT_RGBA},
	{V4L2_PIX_FMT_BGRX32, SPA_MEDIA_SUBTYPE_raw, SPA_VIDEO_FORMAT_xBGR},
	{V4L2_PIX_FMT_BGRA32, SPA_MEDIA_SUBTYPE_raw, SPA_VIDEO_FORMAT_ABGR},
	{V4L2_PIX_FMT_BGR32, SPA_MEDIA_SUBTYPE_raw, SPA_VIDEO_FORMAT_BGRx},
	{V4L2_PIX_FMT_RGB32, SPA_MEDIA_SUBTYPE_raw, SPA_VIDEO_FORMAT_xRGB},
	{V4L2_PIX_FMT_AYUV32, SPA_MEDIA_SUBTYPE_raw, SPA_VIDEO_FORMAT_AYUV},
	{V4L2_PIX_FMT_MJPEG, SPA_MEDIA_SUBTYPE_mjpg, 0},
	{V4L2_PIX_FMT_JPEG, SPA_MEDIA_SUBTYPE_mjpg, 0},
	{V4L2_PIX_FMT_H264, SPA_MEDIA_SUBTYPE_h264, 0},
};

#define NCPW_MAX_RATES 64

static const struct ncpw_spa_format *ncpw_spa_of(__u32 fourcc)
{
	size_t i;

	for (i = 0; i < SPA_N_ELEMENTS(ncpw_spa_formats); i++)
		if (ncpw_spa_formats[i].fourcc == fourcc)
			return &ncpw_spa_formats[i];
	return NULL;
}

static void ncpw_fourcc_str(__u32 fourcc, char s[5])
{
	int i;

	for (i = 0; i < 4; i++) {
		char c = (char)((fourcc >> (8 * i)) & 0xff);
		s[i] = c > ' ' && c < 127 ? c : '?';
	}
	s[4] = '\0';
}

void ncpw_formats_describe(const struct v4l2_pix_format *pix, struct v4l2_fract ival, char *buf,
			   size_t len)
{
	char cc[5];

	ncpw_fourcc_str(pix->pixelformat, cc);
	snprintf(buf, len, "%s %ux%u @%u/%u fps", cc, pix->width, pix->height, ival.denominator,
		 ival.numerator);
}

/* Rates are inverse intervals; a zero member (a broken profile) is skipped. */
static bool ncpw_rate(struct v4l2_fract ival, struct spa_fraction *out)
{
	if (!ival.numerator || !ival.denominator)
		return false;
	*out = SPA_FRACTION(ival.denominator, ival.numerator);
	return true;
}

/* A rate range, its default the engine's current rate when inside it. */
static void ncpw_add_rate_range(struct ncpw *app, struct spa_pod_builder *b, struct spa_fraction lo,
				struct spa_fraction hi)
{
	struct spa_fraction def = hi, cur;

	if (ncpw_rate(negcam_engine_interval(&app->engine, NC_CAPTURE), &cur) &&
	    (uint64_t)cur.num * lo.denom >= (uint64_t)lo.num * cur.denom &&
	    (uint64_t)cur.num * hi.denom <= (uint64_t)hi.num * cur.denom)
		def = cur;
	/* in an object, spa_pod_builder_add() takes the key first */
	spa_pod_builder_add(b, SPA_FORMAT_VIDEO_framerate,
			    SPA_POD_CHOICE_RANGE_Fraction(&def, &lo, &hi), 0);
}

/*
 * The framerate property of @fourcc at @w x @h: an enum of the discrete
 * rates (first = the profile's first, the preferred), or a range.
 */
static void ncpw_add_rates(struct ncpw *app, struct spa_pod_builder *b, __u32 fourcc, __u32 w,
			   __u32 h)
{
	struct v4l2_frmivalenum fi = {.pixel_format = fourcc, .width = w, .height = h};
	struct spa_fraction r[NCPW_MAX_RATES], lo, hi;
	struct spa_pod_frame f;
	uint32_t n = 0, i;

	for (; n < NCPW_MAX_RATES; fi.index++) {
		if (negcam_engine_enum_frameintervals(&app->engine, NC_CAPTURE, &fi) < 0)
			break;
		if (fi.type != V4L2_FRMIVAL_TYPE_DISCRETE) {
			if (ncpw_rate(fi.stepwise.max, &lo) && ncpw_rate(fi.stepwise.min, &hi)) {
				ncpw_add_rate_range(app, b, lo, hi);
				return;
			}
			break;
		}
		if (ncpw_rate(fi.discrete, &r[n]))
			n++;
	}
	if (n == 0) /* no interval enumeration (a quirk): the engine's current one */
		ncpw_rate(negcam_engine_interval(&app->engine, NC_CAPTURE), &r[n++]);
	spa_pod_builder_prop(b, SPA_FORMAT_VIDEO_framerate, 0);
	if (n == 1) {
		spa_pod_builder_fraction(b, r[0].num, r[0].denom);
		return;
	}
	spa_pod_builder_push_choice(b, &f, SPA_CHOICE_Enum, 0);
	spa_pod_builder_fraction(b, r[0].num, r[0].denom);
	for (i = 0; i < n; i++)
		spa_pod_builder_fraction(b, r[i].num, r[i].denom);
	spa_pod_builder_pop(b, &f);
}

/* @v on the grid min + k * step, up to max. */
static bool ncpw_on_grid(__u32 v, __u32 min, __u32 max, __u32 step)
{
	return v >= min && v <= max && (v - min) % (step ? step : 1) == 0;
}

/*
 * The size property of one ENUM_FRAMESIZES entry. A range's default is
 * the engine's current size when the range holds it (the profile's
 * default), so a consumer that asks no size gets that, not the smallest.
 */
static void ncpw_add_size(struct ncpw *app, struct spa_pod_builder *b,
			  const struct v4l2_frmsizeenum *fs)
{
	const struct v4l2_frmsize_stepwise *s = &fs->stepwise;
	const struct v4l2_pix_format *cur = negcam_engine_fmt(&app->engine, NC_CAPTURE);
	struct spa_rectangle def, lo, hi, step;

	if (fs->type == V4L2_FRMSIZE_TYPE_DISCRETE) {
		spa_pod_builder_prop(b, SPA_FORMAT_VIDEO_size, 0);
		spa_pod_builder_rectangle(b, fs->discrete.width, fs->discrete.height);
		return;
	}
	lo = SPA_RECTANGLE(s->min_width, s->min_height);
	hi = SPA_RECTANGLE(s->max_width, s->max_height);
	step = SPA_RECTANGLE(s->step_width ? s->step_width : 1,
			     s->step_height ? s->step_height : 1);
	def = lo;
	if (ncpw_on_grid(cur->width, lo.width, hi.width, step.width) &&
	    ncpw_on_grid(cur->height, lo.height, hi.height, step.height))
		def = SPA_RECTANGLE(cur->width, cur->height);
	spa_pod_builder_add(b, SPA_FORMAT_VIDEO_size,
			    SPA_POD_CHOICE_STEP_Rectangle(&def, &lo, &hi, &step), 0);
}

/* One EnumFormat pod: @map's format at size entry @fs. NULL when @b is full. */
static const struct spa_pod *ncpw_build_pod(struct ncpw *app, struct spa_pod_builder *b,
					    const struct ncpw_spa_format *map,
					    const struct v4l2_frmsizeenum *fs)
{
	struct spa_pod_frame f;
	__u32 w = fs->type == V4L2_FRMSIZE_TYPE_DISCRETE ? fs->discrete.width
							 : fs->stepwise.min_width;
	__u32 h = fs->type == V4L2_FRMSIZE_TYPE_DISCRETE ? fs->discrete.height
							 : fs->stepwise.min_height;

	spa_pod_builder_push_object(b, &f, SPA_TYPE_OBJECT_Format, SPA_PARAM_EnumFormat);
	spa_pod_builder_add(b, SPA_FORMAT_mediaType, SPA_POD_Id(SPA_MEDIA_TYPE_video),
			    SPA_FORMAT_mediaSubtype, SPA_POD_Id(map->subtype), 0);
	if (map->subtype == SPA_MEDIA_SUBTYPE_raw)
		spa_pod_builder_add(b, SPA_FORMAT_VIDEO_format, SPA_POD_Id(map->spa_format), 0);
	if (map->subtype == SPA_MEDIA_SUBTYPE_h264)
		spa_pod_builder_add(b, SPA_FORMAT_VIDEO_H264_streamFormat,
				    SPA_POD_Id(SPA_H264_STREAM_FORMAT_BYTESTREAM),
				    SPA_FORMAT_VIDEO_H264_alignment,
				    SPA_POD_Id(SPA_H264_ALIGNMENT_AU), 0);
	ncpw_add_size(app, b, fs);
	ncpw_add_rates(app, b, fs->pixel_format, w, h);
	return spa_pod_builder_pop(b, &f);
}

/* Why @fourcc cannot be offered, or NULL when it can. */
static const char *ncpw_left_out(__u32 fourcc, const struct ncpw_spa_format **map)
{
	const struct negcam_fourcc_info *fi = negcam_fourcc_lookup(fourcc);

	*map = ncpw_spa_of(fourcc);
	if (!*map)
		return "SPA has no video format for it";
	if (fi && fi->mplanes)
		return "SPA has no format of separate plane buffers (use its single-buffer "
		       "variant)";
	if (!negcam_framegen_supports(fourcc))
		return "the frame generator cannot draw it";
	return NULL;
}

/* The pods of one format: one per ENUM_FRAMESIZES entry. */
static uint32_t ncpw_format_pods(struct ncpw *app, struct spa_pod_builder *b, __u32 fourcc,
				 const struct ncpw_spa_format *map, const struct spa_pod **pods,
				 uint32_t max)
{
	struct v4l2_frmsizeenum fs = {.pixel_format = fourcc};
	uint32_t n = 0;

	for (; n < max; fs.index++) {
		if (negcam_engine_enum_framesizes(&app->engine, NC_CAPTURE, &fs) < 0) {
			struct v4l2_format f = {
				.type = negcam_engine_buf_type(app->profile, NC_CAPTURE)};

			if (fs.index > 0) /* no size enumeration (a quirk): the default size */
				break;
			negcam_engine_g_fmt(&app->engine, &f);
			fs.type = V4L2_FRMSIZE_TYPE_DISCRETE;
			fs.discrete.width = f.fmt.pix.width;
			fs.discrete.height = f.fmt.pix.height;
		}
		pods[n] = ncpw_build_pod(app, b, map, &fs);
		if (!pods[n])
			break;
		n++;
		if (fs.type != V4L2_FRMSIZE_TYPE_DISCRETE)
			break;
	}
	return n;
}

uint32_t ncpw_formats_build(struct ncpw *app, void *buf, uint32_t size, const struct spa_pod **pods,
			    uint32_t max)
{
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(buf, size);
	struct v4l2_fmtdesc fd = {.type = negcam_engine_buf_type(app->profile, NC_CAPTURE)};
	const struct ncpw_spa_format *map;
	const char *why;
	uint32_t n = 0;
	char cc[5];

	for (; negcam_engine_enum_fmt(&app->engine, &fd) == 0; fd.index++) {
		ncpw_fourcc_str(fd.pixelformat, cc);
		why = ncpw_left_out(fd.pixelformat, &map);
		if (why) {
			ncpw_log(app, "warning: format %s left out: %s", cc, why);
			continue;
		}
		n += ncpw_format_pods(app, &b, fd.pixelformat, map, pods + n, max - n);
		if (n == max || b.state.offset > b.size) {
			ncpw_log(app, "warning: formats from %s on left out: too many sizes", cc);
			break;
		}
	}
	if (n == 0)
		ncpw_log(app, "profile %s has no capture format SPA can carry", app->profile->name);
	return n;
}

const struct spa_pod *ncpw_formats_current(struct ncpw *app, struct spa_pod_builder *b)
{
	const struct v4l2_pix_format *pix = negcam_engine_fmt(&app->engine, NC_CAPTURE);
	struct v4l2_frmsizeenum fs = {.pixel_format = pix->pixelformat,
				      .type = V4L2_FRMSIZE_TYPE_DISCRETE};
	const struct ncpw_spa_format *map = ncpw_spa_of(pix->pixelformat);

	fs.discrete.width = pix->width;
	fs.discrete.height = pix->height;
	return map ? ncpw_build_pod(app, b, map, &fs) : NULL;
}

/* The profile's first capture format that @subtype / @spa_format stands for, 0: none. */
static __u32 ncpw_fourcc_for(struct ncpw *app, uint32_t subtype, uint32_t spa_format)
{
	struct v4l2_fmtdesc fd = {.type = negcam_engine_buf_type(app->profile, NC_CAPTURE)};
	const struct ncpw_spa_format *map;

	for (; negcam_engine_enum_fmt(&app->engine, &fd) == 0; fd.index++) {
		if (ncpw_left_out(fd.pixelformat, &map))
			continue;
		if (map->subtype == subtype && map->spa_format == spa_format)
			return fd.pixelformat;
	}
	return 0;
}

/* The fourcc, size and rate a fixed Format pod asks; -EINVAL when it is none of ours. */
static int ncpw_parse_format(struct ncpw *app, const struct spa_pod *format, __u32 *fourcc,
			     struct spa_rectangle *size, struct spa_fraction *rate)
{
	struct spa_video_info info = {0};

	if (spa_format_parse(format, &info.media_type, &info.media_subtype) < 0 ||
	    info.media_type != SPA_MEDIA_TYPE_video)
		return -EINVAL;
	switch (info.media_subtype) {
	case SPA_MEDIA_SUBTYPE_raw:
		if (spa_format_video_raw_parse(format, &info.info.raw) < 0)
			return -EINVAL;
		*fourcc = ncpw_fourcc_for(app, info.media_subtype, info.info.raw.format);
		*size = info.info.raw.size;
		*rate = info.info.raw.framerate;
		break;
	case SPA_MEDIA_SUBTYPE_mjpg:
		if (spa_format_video_mjpg_parse(format, &info.info.mjpg) < 0)
			return -EINVAL;
		*fourcc = ncpw_fourcc_for(app, info.media_subtype, 0);
		*size = info.info.mjpg.size;
		*rate = info.info.mjpg.framerate;
		break;
	case SPA_MEDIA_SUBTYPE_h264:
		if (spa_format_video_h264_parse(format, &info.info.h264) < 0)
			return -EINVAL;
		*fourcc = ncpw_fourcc_for(app, info.media_subtype, 0);
		*size = info.info.h264.size;
		*rate = info.info.h264.framerate;
		break;
	default:
		return -EINVAL;
	}
	return *fourcc ? 0 : -EINVAL;
}

/* S_FMT then S_PARM on the engine, as a V4L2 application would ask. */
static int ncpw_engine_set(struct ncpw *app, __u32 fourcc, struct spa_rectangle size,
			   struct spa_fraction rate)
{
	struct v4l2_pix_format sp = {.width = size.width,
				     .height = size.height,
				     .pixelformat = fourcc,
				     .field = V4L2_FIELD_ANY};
	struct v4l2_format f = {.type = negcam_engine_buf_type(app->profile, NC_CAPTURE)};
	struct v4l2_streamparm p = {.type = f.type};
	int ret;

	if (app->profile->multiplanar)
		negcam_pix_to_mp(&sp, &f.fmt.pix_mp);
	else
		f.fmt.pix = sp;
	ret = negcam_engine_s_fmt(&app->engine, &f);
	if (ret < 0)
		return ret;
	if (rate.num && rate.denom) {
		p.parm.capture.timeperframe.numerator = rate.denom;
		p.parm.capture.timeperframe.denominator = rate.num;
		negcam_engine_s_parm(&app->engine, &p); /* a fixed-rate profile keeps its own */
	}
	app->pix = *negcam_engine_fmt(&app->engine, NC_CAPTURE);
	app->interval = negcam_engine_interval(&app->engine, NC_CAPTURE);
	return 0;
}

int ncpw_formats_apply(struct ncpw *app, const struct spa_pod *format, char *why, size_t len)
{
	struct spa_rectangle size = {0};
	struct spa_fraction rate = {0};
	__u32 fourcc = 0;
	char got[64];
	int ret;

	if (ncpw_parse_format(app, format, &fourcc, &size, &rate) < 0) {
		snprintf(why, len, "the Format is no video format of profile %s",
			 app->profile->name);
		return -EINVAL;
	}
	ret = ncpw_engine_set(app, fourcc, size, rate);
	if (ret < 0) {
		snprintf(why, len, "the engine refused S_FMT: %s", strerror(-ret));
		return ret;
	}
	if (app->pix.pixelformat != fourcc || app->pix.width != size.width ||
	    app->pix.height != size.height) {
		ncpw_formats_describe(&app->pix, app->interval, got, sizeof(got));
		snprintf(why, len, "asked %ux%u, the profile's nearest is %s", size.width,
			 size.height, got);
		return -EINVAL;
	}
	return 0;
}
