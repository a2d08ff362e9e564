/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * A profile: everything a negcam device answers, as data. Built by the
 * parser (parser.c, parse-*.c) from the text language of
 * docs/profiles.md; read by the engine. Storage is fixed-size and owned by the caller: a profile
 * is large (see sizeof), so allocate it (kvzalloc / malloc / static),
 * never put it on a kernel stack.
 *
 * Sizes and interval lists live in two pools; a format points at a run
 * of sizes, a size at a run of interval entries. Identical interval
 * lists may be shared by several sizes.
 */
#ifndef NEGCAM_PROFILE_H
#define NEGCAM_PROFILE_H

#include "compat.h"

#define NC_MAX_FORMATS 128
#define NC_MAX_SIZES 1024
#define NC_MAX_INTERVALS 4096
#define NC_MAX_FIELDS 6
#define NC_NAME_LEN 32
#define NC_MAX_DIM 16384 /* largest width or height a profile may name */

/* Index into per-type arrays. */
enum negcam_queue {
	NC_CAPTURE = 0,
	NC_OUTPUT = 1,
	NC_NQUEUES = 2,
};

/* How TRY_FMT adjusts a size the format does not offer. */
enum negcam_adjust {
	NC_ADJUST_DOWN = 0,    /* largest size inside the request, else the smallest (the seed) */
	NC_ADJUST_NEAREST = 1, /* smallest |dw| + |dh|, as v4l2_find_nearest_size() */
};

/* Quirks: behaviours of real (often old) drivers, off by default. */
enum negcam_quirk {
	/* 2007: TRY_FMT/S_FMT return EINVAL for an unknown fourcc or an impossible field. */
	NC_QUIRK_LEGACY_EINVAL = 1u << 0,
	/* TRY_FMT not implemented: ENOTTY (the seed calls it optional). */
	NC_QUIRK_NO_TRY_FMT = 1u << 1,
	/* ENUM_FRAMESIZES not implemented: ENOTTY (pre-2.6.19 drivers). */
	NC_QUIRK_NO_ENUM_FRAMESIZES = 1u << 2,
	/* ENUM_FRAMEINTERVALS not implemented: ENOTTY. */
	NC_QUIRK_NO_ENUM_FRAMEINTERVALS = 1u << 3,
	/* G_PARM/S_PARM without V4L2_CAP_TIMEPERFRAME: the rate is fixed. */
	NC_QUIRK_FIXED_RATE = 1u << 4,
};

/*
 * UVC firmware bugs ('uvc-bugs', docs/profiles.md): what a USB camera made
 * from the profile (negcam-uvc) does wrong, each the misbehaviour behind
 * one of uvcvideo's quirks (drivers/media/usb/uvc/uvcvideo.h). Other
 * surfaces ignore them.
 */
enum negcam_uvc_bug {
	NC_UVC_BUG_NO_FID = 1u << 0,          /* FID never toggles (UVC_QUIRK_STREAM_NO_FID) */
	NC_UVC_BUG_MJPEG_NO_EOF = 1u << 1,    /* no EOF bit on MJPEG frames (UVC_QUIRK_MJPEG_NO_EOF) */
	NC_UVC_BUG_PROBE_NO_MINMAX = 1u << 2, /* PROBE GET_MIN/GET_MAX stall (UVC_QUIRK_PROBE_MINMAX) */
	NC_UVC_BUG_PROBE_NO_DEF = 1u << 3,    /* PROBE GET_DEF stalls (UVC_QUIRK_PROBE_DEF) */
	NC_UVC_BUG_PROBE_NEEDS_MAX_FRAME = 1u << 4, /* PROBE SET_CUR with dwMaxVideoFrameSize 0 stalls
						     * (UVC_QUIRK_PROBE_EXTRAFIELDS) */
	NC_UVC_BUG_BANDWIDTH_OVER = 1u << 5,  /* dwMaxPayloadTransferSize above every alt (FIX_BANDWIDTH) */
	NC_UVC_BUG_RATE_IGNORED = 1u << 6,    /* PROBE answers the default interval whatever is asked
					       * (UVC_QUIRK_RESTRICT_FRAME_RATE) */
	NC_UVC_BUG_Y8_AS_YUYV = 1u << 7,      /* GREY described as YUYV of half the width (FORCE_Y8) */
	NC_UVC_BUG_WRONG_BPP = 1u << 8,       /* bBitsPerPixel 8 too low (UVC_QUIRK_FORCE_BPP) */
	NC_UVC_BUG_MAX_FRAME_SMALL = 1u << 9, /* MJPEG's dwMaxVideoFrameSize 1024 bytes (no quirk) */
	NC_UVC_BUG_PROBE_FORMAT_IN_HINT = 1u << 10, /* PROBE GET answers bFormatIndex in bmHint's
						     * second byte, 1 in its place (Cam Link 4K fix) */
};

/* One interval entry: a discrete interval (min only) or a range. */
struct negcam_interval {
	struct v4l2_fract min;
	struct v4l2_fract max;  /* ranges only */
	struct v4l2_fract step; /* stepwise only; continuous: 1/1... as V4L2 says */
};

/* One frame size entry: discrete (min_* only) or a stepwise range. */
struct negcam_size {
	__u32 min_w, max_w, step_w;
	__u32 min_h, max_h, step_h;
	__u16 ival_first; /* into profile->intervals */
	__u16 ival_count;
	__u8 ival_kind;   /* V4L2_FRMIVAL_TYPE_DISCRETE / _CONTINUOUS / _STEPWISE */
};

struct negcam_format {
	__u32 fourcc;
	__u32 buf_type;   /* V4L2_BUF_TYPE_VIDEO_CAPTURE or _OUTPUT */
	char description[NC_NAME_LEN];
	__u32 flags;      /* V4L2_FMT_FLAG_* as ENUM_FMT reports them */
	__u32 stride_align; /* bytes, power of two; 1 = minimal stride */
	__u32 sizeimage;  /* 'sizeimage': the least sizeimage reported; 0 = the layout's */
	__u8 fields[NC_MAX_FIELDS]; /* enum v4l2_field; the first is the default */
	__u8 nfields;
	__u8 size_kind;   /* V4L2_FRMSIZE_TYPE_*; a stepwise/continuous format has one size entry */
	__u8 colorspace, ycbcr_enc, quantization, xfer_func; /* explicit, never DEFAULT */
	__u16 size_first; /* into profile->sizes */
	__u16 size_count;
};

/* What S_FMT/G_FMT start from, per queue. */
struct negcam_default {
	__u32 fourcc; /* 0 when the profile has no format on that queue */
	__u32 width, height;
	struct v4l2_fract interval;
};

/*
 * Faults (docs/faults.md): what the camera does wrong on purpose, the
 * profile's 'fault' lines. engine/fault.c decides, frame by frame, what
 * they do; each surface applies its decisions. Percentages are in tenths
 * of a percent (0..1000), times in ns.
 */
enum negcam_fault_kind {
	NC_FAULT_SEED = 0,
	NC_FAULT_DROP,
	NC_FAULT_STALL,
	NC_FAULT_CORRUPT,
	NC_FAULT_TRUNCATE,
	NC_FAULT_RATE,
	NC_FAULT_TIMESTAMP_JUMP,
	NC_FAULT_ERROR,
	NC_FAULT_SOURCE_CHANGE,
	NC_FAULT_UNPLUG,
	NC_NFAULTS
};

#define NC_FAULT_MAX_NS (3600ull * 1000000000ull) /* longest time a fault line may name */

struct negcam_faults {
	__u64 stall_ns, stall_every_ns;   /* stall for stall_ns at every stall_every_ns */
	__s64 jump_ns;                    /* timestamps jump by this (may be negative) ... */
	__u64 jump_every_ns;              /* ... at every jump_every_ns */
	__u64 source_change_ns;           /* elapsed streaming time of the source change */
	__u64 unplug_ns;                  /* elapsed streaming time of the unplug */
	__u32 given;                      /* bit (1 << NC_FAULT_*) per 'fault' line */
	__u32 seed;
	__u32 drop, corrupt, truncate, error; /* tenths of a percent of frames */
	__u32 source_width, source_height;
	struct v4l2_fract rate;           /* the slowest interval delivered (seconds per frame) */
};

struct negcam_profile {
	char name[NC_NAME_LEN];
	char card[NC_NAME_LEN];
	__u16 usb_vendor, usb_product; /* 'usb-id' (negcam-uvc); 0:0 when not given */
	__u32 quirks; /* enum negcam_quirk bits */
	__u32 uvc_bugs; /* enum negcam_uvc_bug bits ('uvc-bugs') */
	__u32 adjust; /* enum negcam_adjust */
	/*
	 * 1: the queues are V4L2's multiplanar ones (V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE,
	 * _OUTPUT_MPLANE, struct v4l2_pix_format_mplane); the formats' buf_type stays
	 * the single-planar one, which names the queue (negcam_engine_buf_type()).
	 */
	__u32 multiplanar;
	struct negcam_default def[NC_NQUEUES];
	struct negcam_faults faults;
	__u16 nformats, nsizes, nintervals;
	struct negcam_format formats[NC_MAX_FORMATS];
	struct negcam_size sizes[NC_MAX_SIZES];
	struct negcam_interval intervals[NC_MAX_INTERVALS];
};

/* Where and why parsing stopped. */
struct negcam_parse_error {
	unsigned int line;   /* 1-based */
	unsigned int column; /* 1-based, the first byte of the offending token */
	char message[160];
};

/*
 * Parse @len bytes of profile text into @out (overwritten whole). On
 * error returns -EINVAL, fills @err and leaves @out zeroed, so nothing
 * half-parsed can be used. Bounded: no recursion, no allocation.
 */
int negcam_profile_parse(struct negcam_profile *out, const char *text,
			 __u32 len, struct negcam_parse_error *err);

/*
 * Close size @sz (not yet counted in @p->nsizes) whose intervals are the
 * pool's run from @first to @p->nintervals: an identical run already in
 * the pool is shared and the new one given back, as the parser stores
 * them. For tools that build a profile without text (negcam-ctl).
 */
void negcam_profile_share_intervals(struct negcam_profile *p, struct negcam_size *sz,
				    __u32 first);

/* How negcam_profile_write() writes; NULL (or all zero) is the canonical form. */
struct negcam_write_opts {
	__u32 flags;        /* NC_WRITE_* */
	const char *header; /* written first: comment lines, each "# ...\n" */
	/*
	 * A comment for format @format: with @size -1, a line of its own
	 * before its sizes ("# ..."); else the end of the line of its size
	 * @size ("   # placeholder"). NULL for none; @note itself may be NULL.
	 */
	const char *(*note)(const void *ctx, unsigned int format, int size);
	const void *ctx;
};

/*
 * NC_WRITE_MINIMAL: what a tool learnt about a device, and no more
 * (negcam-ctl --import and --dump). A zero value is left to the parser's
 * default: an empty description, card or field list, DEFAULT colorimetry,
 * a `default` without size (width 0) or interval; so are a [none] field
 * list and `adjust downward` (unless NC_WRITE_ADJUST). A field list or a
 * colorimetry every format shares is written once, before the formats.
 * Discrete intervals are written as rates (fps 30 15/2). Such a struct
 * need not be a parsed one, and parsing the text fills in the defaults.
 */
#define NC_WRITE_MINIMAL (1u << 0)
#define NC_WRITE_ADJUST (1u << 1) /* minimal: write the adjustment even when downward */

/*
 * Write @p as profile text into @buf (@size bytes, NUL-terminated when
 * @size > 0, cut short when too small). Returns the length of the whole
 * text, as snprintf does, so a caller can size its buffer; -EINVAL when
 * @p holds a value the language cannot express (a name with '"', a field
 * or quirk with no name). In the canonical form (@opts NULL)
 * negcam_profile_parse() reads the text back to the same struct, byte for
 * byte. Freestanding: no allocation.
 */
long negcam_profile_write(const struct negcam_profile *p,
			  const struct negcam_write_opts *opts, char *buf, __u32 size);

/*
 * Write the faults @f gives (docs/faults.md), each as @prefix NAME VALUES
 * ("fault drop 5%" with @prefix "fault "), separated by @sep, into @buf
 * as negcam_profile_write() does; returns the whole text's length.
 */
long negcam_faults_write(const struct negcam_faults *f, const char *prefix, const char *sep,
			 char *buf, __u32 size);

/*
 * Parse a list of faults alone, "drop 5%; seed 3" or profile lines
 * ("fault drop 5%\nfault seed 3"): ';' or a new line between faults, the
 * word 'fault' optional. Into @out (overwritten; zeroed on error, with
 * @err's message as the profile parser gives it). Nothing at all is no
 * faults.
 */
int negcam_faults_parse(struct negcam_faults *out, const char *text, __u32 len,
			struct negcam_parse_error *err);

/* The profile language's name of a V4L2 field ("none", "interlaced",
 * "seq-tb", "alternate", ...), as the `field` keyword writes it; NULL for
 * V4L2_FIELD_ANY and values V4L2 does not define. */
const char *negcam_field_name(__u32 field);

/* Built-in profiles: their text, by index (NULL past the end) or by name. */
struct negcam_builtin {
	const char *name;
	const char *summary; /* one line for --list-profiles */
	const char *text;    /* profile language, parsed by negcam_profile_parse */
};
const struct negcam_builtin *negcam_builtin_at(unsigned int i);
const struct negcam_builtin *negcam_builtin_find(const char *name);

/* Index of the queue a buffer type belongs to, or -1 when negcam has none. */
static inline int negcam_queue_of(__u32 buf_type)
{
	if (buf_type == V4L2_BUF_TYPE_VIDEO_CAPTURE)
		return NC_CAPTURE;
	if (buf_type == V4L2_BUF_TYPE_VIDEO_OUTPUT)
		return NC_OUTPUT;
	return -1;
}

#endif /* NEGCAM_PROFILE_H */
