/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The names of the profile language (docs/profiles.md): what the parser
 * reads and the writer writes. In each table the first name of a value
 * is the one written; later ones are accepted aliases.
 */
#ifndef NEGCAM_PROFILE_NAMES_H
#define NEGCAM_PROFILE_NAMES_H

#include "compat.h"

struct nc_name {
	const char *name;
	__u32 value;
};

struct nc_names {
	const struct nc_name *names;
	__u32 count;
};

/* 'emulated' in a flags line: a value no driver has, refused with a reason. */
#define NC_FMT_FLAG_EMULATED_NAME 0x80000000u

extern const struct nc_names nc_adjusts;       /* adjust */
extern const struct nc_names nc_fmt_flags;     /* flags (V4L2_FMT_FLAG_CSC_*) */
extern const struct nc_names nc_quirks;        /* quirks (NC_QUIRK_*) */
extern const struct nc_names nc_uvc_bugs;      /* uvc-bugs (NC_UVC_BUG_*) */
extern const struct nc_names nc_fields;        /* field (enum v4l2_field) */
extern const struct nc_names nc_colorspaces;   /* colorspace */
extern const struct nc_names nc_ycbcr_encs;    /* ycbcr-enc */
extern const struct nc_names nc_quantizations; /* quantization */
extern const struct nc_names nc_xfer_funcs;    /* xfer-func */
extern const struct nc_names nc_faults;        /* fault (enum negcam_fault_kind) */

/* The name written for @value, or NULL when @table has none. */
const char *nc_name_of(const struct nc_names *table, __u32 value);

#endif /* NEGCAM_PROFILE_NAMES_H */
