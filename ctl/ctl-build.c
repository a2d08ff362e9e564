// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * A profile as --import and --dump learn it: built in a struct
 * negcam_profile, field by field, and written by the engine's one writer,
 * negcam_profile_write() in its minimal form (engine/profile.h). A zero
 * value is one the tool did not learn, left to the parser's default.
 *
 * What the struct cannot hold (more formats, sizes or intervals than a
 * profile has room for; a size range beside other sizes), the parser
 * would refuse too: the builder refuses it first, in the parser's words.
 */
#include <stdlib.h>
#include <string.h>

#include "ctl.h"

void ctl_build_init(struct ctl_build *b, const char *name)
{
	memset(b, 0, sizeof(*b));
	b->p = calloc(1, sizeof(*b->p));
	if (!b->p) {
		fprintf(stderr, "negcam-ctl: out of memory\n");
		exit(CTL_EXIT_FAIL);
	}
	snprintf(b->p->name, sizeof(b->p->name), "%s", name);
}

void ctl_build_free(struct ctl_build *b)
{
	free(b->p);
	b->p = NULL;
}

/* A fourcc as the parser names it in messages: 'Y10', 'Y16-BE'. */
static const char *build_fcc(__u32 fourcc, char buf[8])
{
	size_t n = 4;

	ctl_fcc(fourcc & ~(1u << 31), buf);
	while (n > 1 && buf[n - 1] == ' ')
		n--;
	strcpy(buf + n, fourcc & (1u << 31) ? "-BE" : "");
	return buf;
}

struct negcam_format *ctl_build_format(struct ctl_build *b, __u32 fourcc, int queue,
				       unsigned int line)
{
	struct negcam_profile *p = b->p;
	struct negcam_format *f;

	if (p->nformats == NC_MAX_FORMATS) {
		snprintf(b->why, sizeof(b->why), "too many formats: a profile holds at most %u",
			 NC_MAX_FORMATS);
		return NULL;
	}
	b->format_line[p->nformats] = line;
	f = &p->formats[p->nformats++];
	f->fourcc = fourcc;
	f->buf_type = queue == NC_OUTPUT ? V4L2_BUF_TYPE_VIDEO_OUTPUT : V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f->size_first = p->nsizes;
	b->range_line = 0;
	return f;
}

int ctl_build_size(struct ctl_build *b, const struct negcam_size *dims, __u8 kind,
		   unsigned int line)
{
	struct negcam_profile *p = b->p;
	struct negcam_format *f = &p->formats[p->nformats - 1];
	char f4[8];

	if (b->range_line) {
		snprintf(b->why, sizeof(b->why), "format '%s' has a size range on line %u; a range "
			 "must be the format's only size", build_fcc(f->fourcc, f4), b->range_line);
		return -1;
	}
	if (p->nsizes == NC_MAX_SIZES) {
		snprintf(b->why, sizeof(b->why), "too many sizes: a profile holds at most %u",
			 NC_MAX_SIZES);
		return -1;
	}
	if (kind != V4L2_FRMSIZE_TYPE_DISCRETE && f->size_count) {
		snprintf(b->why, sizeof(b->why), "format '%s' already has sizes; a size range must "
			 "be the format's only size", build_fcc(f->fourcc, f4));
		return -1;
	}
	if (kind != V4L2_FRMSIZE_TYPE_DISCRETE)
		b->range_line = line;
	f->size_kind = kind;
	b->size = *dims;
	b->size.ival_kind = V4L2_FRMIVAL_TYPE_DISCRETE;
	b->first = p->nintervals;
	b->size_line[p->nsizes] = line;
	return 0;
}

int ctl_build_rate(struct ctl_build *b, __u8 kind, struct v4l2_fract min, struct v4l2_fract max,
		   struct v4l2_fract step)
{
	struct negcam_profile *p = b->p;
	struct negcam_interval *iv;

	if (p->nintervals == NC_MAX_INTERVALS) {
		snprintf(b->why, sizeof(b->why), "too many frame intervals: a profile holds at most "
			 "%u (identical lists are stored once)", NC_MAX_INTERVALS);
		return -1;
	}
	iv = &p->intervals[p->nintervals++];
	memset(iv, 0, sizeof(*iv));
	iv->min = min;
	if (kind != V4L2_FRMIVAL_TYPE_DISCRETE) {
		iv->max = max;
		iv->step = kind == V4L2_FRMIVAL_TYPE_STEPWISE ? step : (struct v4l2_fract){ 1, 1 };
	}
	b->size.ival_kind = kind;
	return 0;
}

void ctl_build_size_end(struct ctl_build *b, bool placeholder)
{
	struct negcam_profile *p = b->p;

	b->placeholder[p->nsizes] = placeholder;
	negcam_profile_share_intervals(p, &b->size, b->first);
	p->sizes[p->nsizes++] = b->size;
	p->formats[p->nformats - 1].size_count++;
}

static const char *build_note(const void *ctx, unsigned int format, int size)
{
	const struct ctl_build *b = ctx;

	if (size < 0)
		return b->format_note[format];
	return b->placeholder[b->p->formats[format].size_first + size] ? "          # placeholder" :
									     NULL;
}

/* Per text line, the line its format or size came from: "format", "  flags", "  size". */
static unsigned int *build_sources(const struct ctl_build *b, const char *text,
				   unsigned int *nlines)
{
	unsigned int n = 0, lines = 0, f = 0, sz = 0, cur = 0;
	const char *c;
	unsigned int *src;

	for (c = text; *c; c++)
		lines += *c == '\n';
	src = calloc(lines + 1, sizeof(*src));
	if (!src) {
		fprintf(stderr, "negcam-ctl: out of memory\n");
		exit(CTL_EXIT_FAIL);
	}
	for (c = text; *c; c = strchr(c, '\n') + 1) {
		if (!strncmp(c, "format ", 7) && f < b->p->nformats)
			cur = src[n] = b->format_line[f++];
		else if (!strncmp(c, "  flags", 7))
			src[n] = cur;
		else if (!strncmp(c, "  size ", 7) && sz < b->p->nsizes)
			src[n] = b->size_line[sz++];
		n++;
	}
	*nlines = n;
	return src;
}

char *ctl_build_write(struct ctl_build *b, const char *header, __u32 flags, size_t *len,
		      unsigned int **src, unsigned int *nlines)
{
	const struct negcam_write_opts opts = { NC_WRITE_MINIMAL | flags, header, build_note, b };
	long n = negcam_profile_write(b->p, &opts, NULL, 0);
	char *text;

	if (n < 0)
		return NULL;
	text = malloc((size_t)n + 1);
	if (!text) {
		fprintf(stderr, "negcam-ctl: out of memory\n");
		exit(CTL_EXIT_FAIL);
	}
	negcam_profile_write(b->p, &opts, text, (__u32)n + 1);
	*len = (size_t)n;
	if (src)
		*src = build_sources(b, text, nlines);
	return text;
}
