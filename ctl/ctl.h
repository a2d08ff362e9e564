/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * negcam-ctl internals: one engine driven through its ioctl entry point,
 * printed in the layouts of v4l2-ctl (v4l-utils 1.22.1) so that output
 * from negcam and from a real device can be compared line by line.
 */
#ifndef NEGCAM_CTL_H
#define NEGCAM_CTL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "engine.h"
#include "formats.h"
#include "fract.h"
#include "profile.h"

/* Exit statuses, documented in docs/negcam-ctl.md. */
#define CTL_EXIT_OK 0
#define CTL_EXIT_FAIL 1  /* a request failed, a file is bad or unreadable */
#define CTL_EXIT_USAGE 2 /* the command line itself is wrong */

struct ctl {
	struct negcam_engine engine;
	struct negcam_profile *profile; /* owned, large: heap */
	char profile_label[256];        /* "webcam" or the file name, for messages */
	int status;                     /* worst exit status so far */
};

/* negcam_engine_ioctl() with a loop guard for the listings: 0 or -errno. */
int ctl_ioctl(struct ctl *c, unsigned long request, void *arg);

/* "VIDIOC_TRY_FMT: failed: Invalid argument (why)" on stderr; sets status. */
void ctl_report_failure(struct ctl *c, unsigned long request, int err,
			const struct v4l2_format *asked);

/*
 * A message on stderr, formatted as printf does, with every control byte
 * of it (terminal escapes quoted from a file or an argument) written as
 * \xNN; a final newline stays one.
 */
void ctl_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ctl_vwarn(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* v4l2-ctl's fcc2s(): four characters masked to 7 bits, "-BE" for bit 31. */
const char *ctl_fcc(__u32 fourcc, char buf[8]);

/* The v4l2-ctl names of fields etc., and the parsers for their key=value names. */
const char *ctl_field_name(__u32 field);
const char *ctl_field_key(__u32 field); /* "interlaced_tb", as --set-fmt takes it */
const char *ctl_buftype_name(__u32 type, char buf[32]);
int ctl_parse_field(const char *s, __u32 *out);
int ctl_parse_colorspace(const char *s, __u32 *out);
int ctl_parse_ycbcr(const char *s, __u32 *out);
int ctl_parse_quantization(const char *s, __u32 *out);
int ctl_parse_xfer(const char *s, __u32 *out);

/* The listings (--list-formats[-ext], --list-framesizes, --list-frameintervals). */
void ctl_list_formats(struct ctl *c, __u32 type, bool ext);
void ctl_print_frmsize(const struct v4l2_frmsizeenum *fs, const char *prefix);
void ctl_print_frmival(const struct v4l2_frmivalenum *fi, const char *prefix);

/* "Format Video Capture:" block, as --get-fmt-video prints it. */
void ctl_print_fmt(struct ctl *c, const struct v4l2_format *f);

/* "Streaming Parameters Video Capture:" block, as --get-parm prints it. */
void ctl_print_parm(const struct v4l2_streamparm *p);

/* v4l2-ctl's flags2s(): the names of @val's flags in table order, then the
 * rest in hex; the table ends with a zero flag. */
struct ctl_flag {
	__u32 flag;
	const char *name;
};
void ctl_print_flags(__u32 val, const struct ctl_flag *t);

/* "Driver Info:" block, as --info prints it. */
void ctl_print_querycap(const struct v4l2_capability *cap);

/*
 * --all: what "v4l2-ctl --all" prints for a device on this engine, as
 * libnegcam-preload.so serves it to one open file (ctl-all.c).
 * --list-devices: what "v4l2-ctl --list-devices" prints for the one
 * device negcam-run makes, at @node.
 */
/* ctl-loop.c: negcam-ctl loop add|list|remove (argv[0] is "loop"). */
int ctl_loop_main(int argc, char **argv);

void ctl_all(struct ctl *c);
void ctl_list_devices(struct ctl *c, const char *node);

/* The greatest common divisor, by the engine's exact arithmetic (fract.h). */
static inline __u64 ctl_gcd(__u64 a, __u64 b)
{
	return nc_u128_gcd(nc_u128_from(a), nc_u128_from(b)).lo;
}

/*
 * A profile as --import and --dump learn it (ctl-build.c), written by
 * negcam_profile_write() in its minimal form. Build in order: a format,
 * then per size ctl_build_size(), its ctl_build_rate()s and
 * ctl_build_size_end(). A -1 or NULL answer means the profile cannot
 * hold it: @why says so in the parser's words.
 */
struct ctl_build {
	struct negcam_profile *p; /* heap; name set, everything else zero */
	struct negcam_size size;  /* the size being built */
	__u32 first;              /* its first interval in the pool */
	unsigned int range_line;  /* the current format's size range, its line */
	char why[160];
	/* Where each format and size came from (a listing's line), for messages. */
	unsigned int format_line[NC_MAX_FORMATS], size_line[NC_MAX_SIZES];
	/* Notes in the text: a line before a format's sizes, a size's rates a placeholder. */
	const char *format_note[NC_MAX_FORMATS];
	bool placeholder[NC_MAX_SIZES];
};
void ctl_build_init(struct ctl_build *b, const char *name);
void ctl_build_free(struct ctl_build *b);
struct negcam_format *ctl_build_format(struct ctl_build *b, __u32 fourcc, int queue,
				       unsigned int line);
int ctl_build_size(struct ctl_build *b, const struct negcam_size *dims, __u8 kind,
		   unsigned int line);
int ctl_build_rate(struct ctl_build *b, __u8 kind, struct v4l2_fract min, struct v4l2_fract max,
		   struct v4l2_fract step);
void ctl_build_size_end(struct ctl_build *b, bool placeholder);
/*
 * The text (minimal form, after @header, with the notes), malloc'd: *@len
 * bytes and a NUL; NULL when the writer refuses the profile. @src, when
 * not NULL, gets a malloc'd array: the line each text line came from (0
 * for none), *@nlines entries.
 */
char *ctl_build_write(struct ctl_build *b, const char *header, __u32 flags, size_t *len,
		      unsigned int **src, unsigned int *nlines);

/* --import: v4l2-ctl --list-formats-ext text to profile text (ctl-import.c). */
/* ctl-shelf.c: the camera shelf for --list-profiles and --show-profile (0, or -1: none). */
void ctl_list_shelf(void);
int ctl_show_shelf(const char *name);

int ctl_import(FILE *in, const char *label, FILE *out, const char *name);

/*
 * --dump: query the V4L2 device at @path (open + ioctl, read-only use)
 * and write the profile it answers as to @out (ctl-dump.c). Formats not
 * in negcam's table are an error unless @drop_unknown. 0 or -1.
 */
int ctl_dump(const char *path, FILE *out, const char *name, bool drop_unknown);

#endif /* NEGCAM_CTL_H */
