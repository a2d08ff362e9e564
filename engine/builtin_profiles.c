// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The built-in profiles, written in the profile language itself so that
 * one parser builds every profile, in the kernel as in user space, and
 * a built-in profile can be copied into a file and edited. Each text is
 * parsed by tests/engine/test_parser.c; docs/profiles.md describes them.
 */
#include "compat.h"
#include "profile.h"

/*
 * A UVC webcam in the manner of the Logitech C920: YUYV at every size,
 * the rate falling as the USB 2.0 bandwidth runs out (30 fps up to
 * 640x480, 5 fps at 1920x1080); MJPG at 30 fps up to 1920x1080.
 * Discrete sizes and discrete intervals, as every UVC camera reports.
 * uvcvideo picks the nearest frame size, so this profile does too.
 */
static const char negcam_profile_webcam[] =
	"# A UVC webcam modelled on the Logitech C920\n"
	"name webcam\n"
	"card \"Negcam Webcam\"\n"
	"adjust nearest        # uvcvideo picks the nearest frame size\n"
	"colorspace srgb\n"
	"default YUYV 640x480 fps 30\n"
	"\n"
	"format YUYV\n"
	"  size 160x120   fps 30 24 20 15 10 15/2 5\n"
	"  size 176x144   fps 30 24 20 15 10 15/2 5\n"
	"  size 320x240   fps 30 24 20 15 10 15/2 5\n"
	"  size 352x288   fps 30 24 20 15 10 15/2 5\n"
	"  size 640x360   fps 30 24 20 15 10 15/2 5\n"
	"  size 640x480   fps 30 24 20 15 10 15/2 5\n"
	"  size 800x600   fps 24 20 15 10 15/2 5\n"
	"  size 960x720   fps 15 10 15/2 5\n"
	"  size 1280x720  fps 10 15/2 5\n"
	"  size 1920x1080 fps 5\n"
	"\n"
	"format MJPG\n"
	"  size 160x120   fps 30 24 20 15 10 15/2 5\n"
	"  size 176x144   fps 30 24 20 15 10 15/2 5\n"
	"  size 320x240   fps 30 24 20 15 10 15/2 5\n"
	"  size 352x288   fps 30 24 20 15 10 15/2 5\n"
	"  size 640x360   fps 30 24 20 15 10 15/2 5\n"
	"  size 640x480   fps 30 24 20 15 10 15/2 5\n"
	"  size 800x600   fps 30 24 20 15 10 15/2 5\n"
	"  size 960x720   fps 30 24 20 15 10 15/2 5\n"
	"  size 1280x720  fps 30 24 20 15 10 15/2 5\n"
	"  size 1920x1080 fps 30 24 20 15 10 15/2 5\n";

/* The seed article's device: it "only handles VGA-resolution images". */
static const char negcam_profile_vga[] =
	"# The VGA-only device of the 2007 LWN article on format negotiation\n"
	"name vga\n"
	"card \"Negcam VGA\"\n"
	"adjust downward\n"
	"\n"
	"format YUYV\n"
	"  size 640x480 fps 30\n";

/*
 * A scaler in front of the sensor (an ISP or a codec): any size on a
 * 16x8 grid from 48x32 to 1920x1088 in two 4:2:0 layouts, any frame
 * interval from 1/60 s to 1 s.
 */
static const char negcam_profile_stepwise[] =
	"# A scaling device: stepwise sizes, continuous frame intervals\n"
	"name stepwise\n"
	"card \"Negcam Stepwise\"\n"
	"adjust downward\n"
	"colorspace rec709\n"
	"default YU12 1280x720 fps 30\n"
	"\n"
	"format YU12\n"
	"  size 48x32-1920x1088 step 16x8 fps 1-60\n"
	"\n"
	"format NV12\n"
	"  size 48x32-1920x1088 step 16x8 fps 1-60\n";

/*
 * An analogue TV capture card of 2007 (bttv, saa7134, cx88): interlaced
 * PAL and NTSC frames, no frame size or interval enumeration (those
 * ioctls came after these drivers), a rate fixed by the TV standard,
 * and EINVAL for an unknown fourcc or a progressive request.
 */
static const char negcam_profile_tv_tuner[] =
	"# An analogue TV tuner card with the driver behaviour of 2007\n"
	"name tv-tuner\n"
	"card \"Negcam TV Tuner\"\n"
	"adjust downward\n"
	"quirks legacy-einval no-enum-framesizes no-enum-frameintervals fixed-rate\n"
	"field interlaced seq-tb seq-bt\n"
	"colorspace smpte170m\n"
	"default UYVY 720x576 fps 25\n"
	"\n"
	"format UYVY\n"
	"  size 720x576 fps 25                # PAL/SECAM\n"
	"  size 720x480 fps 30000/1001        # NTSC\n";

static const struct negcam_builtin negcam_builtins[] = {
	{ "webcam", "UVC webcam like a Logitech C920: YUYV and MJPG, 160x120 to 1920x1080 (default)",
	  negcam_profile_webcam },
	{ "vga", "the seed article's VGA-only device: YUYV 640x480 at 30 fps",
	  negcam_profile_vga },
	{ "stepwise", "scaler: YU12 and NV12, 48x32 to 1920x1088 step 16x8, 1 to 60 fps continuous",
	  negcam_profile_stepwise },
	{ "tv-tuner", "2007 TV card: interlaced UYVY PAL 720x576/25 and NTSC 720x480/29.97, legacy quirks",
	  negcam_profile_tv_tuner },
};

const struct negcam_builtin *negcam_builtin_at(unsigned int i)
{
	return i < NC_ARRAY_SIZE(negcam_builtins) ? &negcam_builtins[i] : NULL;
}

const struct negcam_builtin *negcam_builtin_find(const char *name)
{
	unsigned int i, j;

	if (!name)
		return NULL;
	for (i = 0; i < NC_ARRAY_SIZE(negcam_builtins); i++) {
		const char *b = negcam_builtins[i].name;

		for (j = 0; b[j] && b[j] == name[j]; j++)
			;
		if (!b[j] && !name[j])
			return &negcam_builtins[i];
	}
	return NULL;
}
