// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* The names of the profile language; see profile-names.h. */
#include "profile-names.h"
#include "profile.h"

static const struct nc_name nc_adjusts_v[] = {
	{ "downward", NC_ADJUST_DOWN },
	{ "nearest", NC_ADJUST_NEAREST },
};
const struct nc_names nc_adjusts = { nc_adjusts_v, NC_ARRAY_SIZE(nc_adjusts_v) };

/*
 * ENUM_FMT flags a profile may state: the colorspace conversion a capture
 * format offers with V4L2_PIX_FMT_FLAG_SET_CSC. v4l2-ctl prints the
 * encoding flag as csc-ycbcr or, for HSV formats, csc-hsv.
 */

static const struct nc_name nc_fmt_flags_v[] = {
	{ "csc-colorspace", V4L2_FMT_FLAG_CSC_COLORSPACE },
	{ "csc-xfer-func", V4L2_FMT_FLAG_CSC_XFER_FUNC },
	{ "csc-ycbcr-enc", V4L2_FMT_FLAG_CSC_YCBCR_ENC },
	{ "csc-ycbcr", V4L2_FMT_FLAG_CSC_YCBCR_ENC },
	{ "csc-hsv-enc", V4L2_FMT_FLAG_CSC_HSV_ENC },
	{ "csc-hsv", V4L2_FMT_FLAG_CSC_HSV_ENC },
	{ "csc-quantization", V4L2_FMT_FLAG_CSC_QUANTIZATION },
	{ "emulated", NC_FMT_FLAG_EMULATED_NAME },
};
const struct nc_names nc_fmt_flags = { nc_fmt_flags_v, NC_ARRAY_SIZE(nc_fmt_flags_v) };

static const struct nc_name nc_quirks_v[] = {
	{ "legacy-einval", NC_QUIRK_LEGACY_EINVAL },
	{ "no-try-fmt", NC_QUIRK_NO_TRY_FMT },
	{ "no-enum-framesizes", NC_QUIRK_NO_ENUM_FRAMESIZES },
	{ "no-enum-frameintervals", NC_QUIRK_NO_ENUM_FRAMEINTERVALS },
	{ "fixed-rate", NC_QUIRK_FIXED_RATE },
};
const struct nc_names nc_quirks = { nc_quirks_v, NC_ARRAY_SIZE(nc_quirks_v) };

static const struct nc_name nc_uvc_bugs_v[] = {
	{ "no-fid", NC_UVC_BUG_NO_FID },
	{ "mjpeg-no-eof", NC_UVC_BUG_MJPEG_NO_EOF },
	{ "probe-no-minmax", NC_UVC_BUG_PROBE_NO_MINMAX },
	{ "probe-no-def", NC_UVC_BUG_PROBE_NO_DEF },
	{ "probe-needs-max-frame", NC_UVC_BUG_PROBE_NEEDS_MAX_FRAME },
	{ "bandwidth-over", NC_UVC_BUG_BANDWIDTH_OVER },
	{ "rate-ignored", NC_UVC_BUG_RATE_IGNORED },
	{ "y8-as-yuyv", NC_UVC_BUG_Y8_AS_YUYV },
	{ "wrong-bpp", NC_UVC_BUG_WRONG_BPP },
	{ "max-frame-small", NC_UVC_BUG_MAX_FRAME_SMALL },
	{ "probe-format-in-hint", NC_UVC_BUG_PROBE_FORMAT_IN_HINT },
};
const struct nc_names nc_uvc_bugs = { nc_uvc_bugs_v, NC_ARRAY_SIZE(nc_uvc_bugs_v) };

/* The faults of 'fault' lines, in the order the writer writes them. */
static const struct nc_name nc_faults_v[] = {
	{ "seed", NC_FAULT_SEED },
	{ "drop", NC_FAULT_DROP },
	{ "stall", NC_FAULT_STALL },
	{ "corrupt", NC_FAULT_CORRUPT },
	{ "truncate", NC_FAULT_TRUNCATE },
	{ "rate", NC_FAULT_RATE },
	{ "timestamp-jump", NC_FAULT_TIMESTAMP_JUMP },
	{ "error", NC_FAULT_ERROR },
	{ "source-change", NC_FAULT_SOURCE_CHANGE },
	{ "unplug", NC_FAULT_UNPLUG },
};
const struct nc_names nc_faults = { nc_faults_v, NC_ARRAY_SIZE(nc_faults_v) };

/* v4l2-ctl's names (with '-' where it writes '_'; both are accepted). */
static const struct nc_name nc_fields_v[] = {
	{ "none", V4L2_FIELD_NONE },
	{ "top", V4L2_FIELD_TOP },
	{ "bottom", V4L2_FIELD_BOTTOM },
	{ "interlaced", V4L2_FIELD_INTERLACED },
	{ "seq-tb", V4L2_FIELD_SEQ_TB },
	{ "seq-bt", V4L2_FIELD_SEQ_BT },
	{ "alternate", V4L2_FIELD_ALTERNATE },
	{ "interlaced-tb", V4L2_FIELD_INTERLACED_TB },
	{ "interlaced-bt", V4L2_FIELD_INTERLACED_BT },
};
const struct nc_names nc_fields = { nc_fields_v, NC_ARRAY_SIZE(nc_fields_v) };

static const struct nc_name nc_colorspaces_v[] = {
	{ "smpte170m", V4L2_COLORSPACE_SMPTE170M },
	{ "smpte240m", V4L2_COLORSPACE_SMPTE240M },
	{ "rec709", V4L2_COLORSPACE_REC709 },
	{ "470m", V4L2_COLORSPACE_470_SYSTEM_M },
	{ "470bg", V4L2_COLORSPACE_470_SYSTEM_BG },
	{ "jpeg", V4L2_COLORSPACE_JPEG },
	{ "srgb", V4L2_COLORSPACE_SRGB },
	{ "oprgb", V4L2_COLORSPACE_OPRGB },
	{ "bt2020", V4L2_COLORSPACE_BT2020 },
	{ "raw", V4L2_COLORSPACE_RAW },
	{ "dcip3", V4L2_COLORSPACE_DCI_P3 },
};
const struct nc_names nc_colorspaces = { nc_colorspaces_v, NC_ARRAY_SIZE(nc_colorspaces_v) };

static const struct nc_name nc_ycbcr_encs_v[] = {
	{ "601", V4L2_YCBCR_ENC_601 },
	{ "709", V4L2_YCBCR_ENC_709 },
	{ "xv601", V4L2_YCBCR_ENC_XV601 },
	{ "xv709", V4L2_YCBCR_ENC_XV709 },
	{ "bt2020", V4L2_YCBCR_ENC_BT2020 },
	{ "bt2020c", V4L2_YCBCR_ENC_BT2020_CONST_LUM },
	{ "smpte240m", V4L2_YCBCR_ENC_SMPTE240M },
};
const struct nc_names nc_ycbcr_encs = { nc_ycbcr_encs_v, NC_ARRAY_SIZE(nc_ycbcr_encs_v) };

static const struct nc_name nc_quantizations_v[] = {
	{ "full", V4L2_QUANTIZATION_FULL_RANGE },
	{ "limited", V4L2_QUANTIZATION_LIM_RANGE },
	{ "full-range", V4L2_QUANTIZATION_FULL_RANGE },
	{ "lim-range", V4L2_QUANTIZATION_LIM_RANGE },
};
const struct nc_names nc_quantizations = { nc_quantizations_v, NC_ARRAY_SIZE(nc_quantizations_v) };

static const struct nc_name nc_xfer_funcs_v[] = {
	{ "709", V4L2_XFER_FUNC_709 },
	{ "srgb", V4L2_XFER_FUNC_SRGB },
	{ "oprgb", V4L2_XFER_FUNC_OPRGB },
	{ "smpte240m", V4L2_XFER_FUNC_SMPTE240M },
	{ "none", V4L2_XFER_FUNC_NONE },
	{ "dcip3", V4L2_XFER_FUNC_DCI_P3 },
	{ "smpte2084", V4L2_XFER_FUNC_SMPTE2084 },
};
const struct nc_names nc_xfer_funcs = { nc_xfer_funcs_v, NC_ARRAY_SIZE(nc_xfer_funcs_v) };

const char *nc_name_of(const struct nc_names *table, __u32 value)
{
	__u32 i;

	for (i = 0; i < table->count; i++)
		if (table->names[i].value == value)
			return table->names[i].name;
	return NULL;
}

const char *negcam_field_name(__u32 field)
{
	return nc_name_of(&nc_fields, field);
}
