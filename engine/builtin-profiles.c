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

/*
 * The shelf of real cameras (docs/cameras.md): each profile imported with
 * negcam-ctl --import from a v4l2-ctl --list-formats-ext listing published
 * on the web, cited in its first lines and kept verbatim in
 * tests/engine/profiles/cameras/NAME.txt; tests/engine/test_ctl.c checks
 * that importing the listing still gives these sizes and rates. What a
 * listing does not show is set from the rest of the source where it says
 * so: uvcvideo adjusts to the nearest size and reports sRGB.
 */
/* Logitech HD Pro Webcam C920 (046d:082d, UVC): YUYV to 2304x1536 at 2 fps, H264 and MJPG to 1080p30 */
static const char negcam_profile_logitech_c920[] =
	"# Logitech HD Pro Webcam C920 (USB 046d:082d, uvcvideo, kernel 6.5), the classic\n"
	"# UVC webcam: YUYV at 19 sizes with the rate falling as USB 2.0 runs out\n"
	"# (2304x1536 at 2 fps), H264 and MJPG up to 1920x1080 at 30 fps.\n"
	"# Source: v4l2-ctl --all --list-formats-ext in\n"
	"# https://github.com/petminion/petminion/blob/75f99cfe2421ded3a24da5d3423117bfd2193487/docs/hardware.md\n"
	"# G_FMT there: YUYV 640x480, sRGB; uvcvideo picks the nearest size.\n"
	"# Imported with: negcam-ctl --import tests/engine/profiles/cameras/logitech-c920.txt\n"
	"name logitech-c920\n"
	"card \"HD Pro Webcam C920\"\n"
	"usb-id 046d:082d\n"
	"adjust nearest\n"
	"colorspace srgb\n"
	"\n"
	"format YUYV\n"
	"  size 640x480 fps 30 24 20 15 10 15/2 5\n"
	"  size 160x90 fps 30 24 20 15 10 15/2 5\n"
	"  size 160x120 fps 30 24 20 15 10 15/2 5\n"
	"  size 176x144 fps 30 24 20 15 10 15/2 5\n"
	"  size 320x180 fps 30 24 20 15 10 15/2 5\n"
	"  size 320x240 fps 30 24 20 15 10 15/2 5\n"
	"  size 352x288 fps 30 24 20 15 10 15/2 5\n"
	"  size 432x240 fps 30 24 20 15 10 15/2 5\n"
	"  size 640x360 fps 30 24 20 15 10 15/2 5\n"
	"  size 800x448 fps 30 24 20 15 10 15/2 5\n"
	"  size 800x600 fps 24 20 15 10 15/2 5\n"
	"  size 864x480 fps 24 20 15 10 15/2 5\n"
	"  size 960x720 fps 15 10 15/2 5\n"
	"  size 1024x576 fps 15 10 15/2 5\n"
	"  size 1280x720 fps 10 15/2 5\n"
	"  size 1600x896 fps 15/2 5\n"
	"  size 1920x1080 fps 5\n"
	"  size 2304x1296 fps 2\n"
	"  size 2304x1536 fps 2\n"
	"\n"
	"format H264\n"
	"  size 640x480 fps 30 24 20 15 10 15/2 5\n"
	"  size 160x90 fps 30 24 20 15 10 15/2 5\n"
	"  size 160x120 fps 30 24 20 15 10 15/2 5\n"
	"  size 176x144 fps 30 24 20 15 10 15/2 5\n"
	"  size 320x180 fps 30 24 20 15 10 15/2 5\n"
	"  size 320x240 fps 30 24 20 15 10 15/2 5\n"
	"  size 352x288 fps 30 24 20 15 10 15/2 5\n"
	"  size 432x240 fps 30 24 20 15 10 15/2 5\n"
	"  size 640x360 fps 30 24 20 15 10 15/2 5\n"
	"  size 800x448 fps 30 24 20 15 10 15/2 5\n"
	"  size 800x600 fps 30 24 20 15 10 15/2 5\n"
	"  size 864x480 fps 30 24 20 15 10 15/2 5\n"
	"  size 960x720 fps 30 24 20 15 10 15/2 5\n"
	"  size 1024x576 fps 30 24 20 15 10 15/2 5\n"
	"  size 1280x720 fps 30 24 20 15 10 15/2 5\n"
	"  size 1600x896 fps 30 24 20 15 10 15/2 5\n"
	"  size 1920x1080 fps 30 24 20 15 10 15/2 5\n"
	"\n"
	"format MJPG\n"
	"  size 640x480 fps 30 24 20 15 10 15/2 5\n"
	"  size 160x90 fps 30 24 20 15 10 15/2 5\n"
	"  size 160x120 fps 30 24 20 15 10 15/2 5\n"
	"  size 176x144 fps 30 24 20 15 10 15/2 5\n"
	"  size 320x180 fps 30 24 20 15 10 15/2 5\n"
	"  size 320x240 fps 30 24 20 15 10 15/2 5\n"
	"  size 352x288 fps 30 24 20 15 10 15/2 5\n"
	"  size 432x240 fps 30 24 20 15 10 15/2 5\n"
	"  size 640x360 fps 30 24 20 15 10 15/2 5\n"
	"  size 800x448 fps 30 24 20 15 10 15/2 5\n"
	"  size 800x600 fps 30 24 20 15 10 15/2 5\n"
	"  size 864x480 fps 30 24 20 15 10 15/2 5\n"
	"  size 960x720 fps 30 24 20 15 10 15/2 5\n"
	"  size 1024x576 fps 30 24 20 15 10 15/2 5\n"
	"  size 1280x720 fps 30 24 20 15 10 15/2 5\n"
	"  size 1600x896 fps 30 24 20 15 10 15/2 5\n"
	"  size 1920x1080 fps 30 24 20 15 10 15/2 5\n";

/* ELP 4K USB camera (32e4:0317, UVC): MJPG to 3840x2160 at 30 fps, YUYV 1 fps at 4K */
static const char negcam_profile_elp_4k[] =
	"# ELP 4K USB camera (USB 32e4:0317, uvcvideo, kernel 6.1): only MJPG reaches\n"
	"# the high sizes at speed (3840x2160 at 30 fps); YUYV falls to 1 fps at 4K.\n"
	"# Source: v4l2-ctl -D --list-formats-ext in\n"
	"# https://github.com/maoxuli/raspi-webrtc/blob/9aea7ba5373552b5d60f227fe7c26f866f0b044c/camera/usbcam/usbcam-elp-4k.md\n"
	"# Imported with: negcam-ctl --import tests/engine/profiles/cameras/elp-4k.txt\n"
	"name elp-4k\n"
	"card \"HD USB CAMERA: HD USB CAMERA\"\n"
	"usb-id 32e4:0317\n"
	"adjust nearest\n"
	"colorspace srgb\n"
	"\n"
	"format MJPG\n"
	"  size 3840x2160 fps 30 25 20 15 10 5\n"
	"  size 1920x1080 fps 30 25 20 15 10 5\n"
	"  size 2592x1944 fps 30 25 20 15 10 5\n"
	"  size 2048x1536 fps 30 25 20 15 10 5\n"
	"  size 1600x1200 fps 30 25 20 15 10 5\n"
	"  size 1280x960 fps 30 25 20 15 10 5\n"
	"  size 1280x720 fps 30 25 20 15 10 5\n"
	"  size 1024x768 fps 30 25 20 15 10 5\n"
	"  size 800x600 fps 30 25 20 15 10 5\n"
	"  size 640x480 fps 30 25 20 15 10 5\n"
	"  size 320x240 fps 30 25 20 15 10 5\n"
	"\n"
	"format YUYV\n"
	"  size 3840x2160 fps 1\n"
	"  size 1920x1080 fps 3\n"
	"  size 2592x1944 fps 1\n"
	"  size 2048x1536 fps 3\n"
	"  size 1600x1200 fps 3\n"
	"  size 1280x960 fps 5\n"
	"  size 1280x720 fps 10 5\n"
	"  size 1024x768 fps 10 5\n"
	"  size 800x600 fps 20 15 10 5\n"
	"  size 640x480 fps 30 25 20 15 10 5\n"
	"  size 320x240 fps 30 25 20 15 10 5\n";

/* cheap USB HDMI grabber (MS2109 kind): MJPG 1080p30 and 720p60, YUYV 1080p at 5 fps */
static const char negcam_profile_usb_hdmi_capture[] =
	"# A five-pound USB HDMI capture dongle (the MacroSilicon MS2109 kind: the\n"
	"# source names no chip), UVC: MJPG 1920x1080 at 30 fps and 1280x720 at\n"
	"# 60 fps, YUYV 1920x1080 at only 5 fps; the capture size is not the HDMI\n"
	"# input's. The card name is the one MS2109 dongles report, not in the source.\n"
	"# Source: v4l2-ctl -d 2 --list-formats-ext in\n"
	"# https://github.com/bmsleight/OkMonitor/blob/27900c3b30d826a02ec74d3510f143480c4d7657/speedtests/usb-capture.md\n"
	"# Imported with: negcam-ctl --import tests/engine/profiles/cameras/usb-hdmi-capture.txt\n"
	"name usb-hdmi-capture\n"
	"card \"USB Video: USB Video\"\n"
	"adjust nearest\n"
	"colorspace srgb\n"
	"\n"
	"format MJPG\n"
	"  size 1920x1080 fps 30 25 20 10 5\n"
	"  size 1600x1200 fps 30 25 20 10 5\n"
	"  size 1360x768 fps 30 25 20 10 5\n"
	"  size 1280x1024 fps 30 25 20 10 5\n"
	"  size 1280x960 fps 50 30 20 10 5\n"
	"  size 1280x720 fps 60 50 30 20 10\n"
	"  size 1024x768 fps 60 50 30 20 10\n"
	"  size 800x600 fps 60 50 30 20 10\n"
	"  size 720x576 fps 60 50 30 20 10\n"
	"  size 720x480 fps 60 50 30 20 10\n"
	"  size 640x480 fps 60 50 30 20 10\n"
	"\n"
	"format YUYV\n"
	"  size 1920x1080 fps 5\n"
	"  size 1600x1200 fps 5\n"
	"  size 1360x768 fps 8\n"
	"  size 1280x1024 fps 8\n"
	"  size 1280x960 fps 8\n"
	"  size 1280x720 fps 10\n"
	"  size 1024x768 fps 10\n"
	"  size 800x600 fps 20 10 5\n"
	"  size 720x576 fps 25 20 10 5\n"
	"  size 720x480 fps 30 20 10 5\n"
	"  size 640x480 fps 30 20 10 5\n";

/* Arducam 1080p AF (Microdia 0c45:6366, UVC): MJPG and YUYV, sizes listed twice by the camera */
static const char negcam_profile_arducam_1080p[] =
	"# Arducam/Microdia 1080p autofocus camera (USB 0c45:6366, uvcvideo, kernel\n"
	"# 6.1), capture node: MJPG 1920x1080..320x240 and YUYV 640x480, 320x240,\n"
	"# all at 30 fps. The camera lists 1920x1080 and 640x480 twice and 30 fps\n"
	"# twice for them (its UVC descriptors repeat them); a profile lists each\n"
	"# once, so this listing differs from the original by those repeats.\n"
	"# Source: v4l2-ctl -D --list-formats-ext (/dev/video8) in\n"
	"# https://github.com/maoxuli/raspi-webrtc/blob/9aea7ba5373552b5d60f227fe7c26f866f0b044c/camera/usbcam/usbcam-arducam-1080p.md\n"
	"# Imported with: negcam-ctl --import tests/engine/profiles/cameras/arducam-1080p.txt\n"
	"name arducam-1080p\n"
	"card \"USB 2.0 Camera: USB Camera\"\n"
	"usb-id 0c45:6366\n"
	"adjust nearest\n"
	"colorspace srgb\n"
	"\n"
	"format MJPG\n"
	"  size 1920x1080 fps 30\n"
	"  size 1280x720 fps 30\n"
	"  size 640x480 fps 30\n"
	"  size 320x240 fps 30\n"
	"\n"
	"format YUYV\n"
	"  size 640x480 fps 30\n"
	"  size 320x240 fps 30\n";

/* no-name USB 2.0 VGA webcam (UVC): YUYV only, 160x120 to 640x480 at 30 fps */
static const char negcam_profile_usb2_vga_camera[] =
	"# A no-name \"USB2.0 Camera\" on a Raspberry Pi (uvcvideo): YUYV only, five\n"
	"# sizes from 640x480 down to 160x120, 30 fps each; no MJPG at all.\n"
	"# Source: v4l2-ctl --list-formats-ext in\n"
	"# https://github.com/LPI2-DreamTeam/rfcar/blob/83da39c14cb0b07b4a1296e2ad4b7aacb7d4549c/Deliverables/Final/listing/webcam-features.sh\n"
	"# Imported with: negcam-ctl --import tests/engine/profiles/cameras/usb2-vga-camera.txt\n"
	"name usb2-vga-camera\n"
	"card \"USB2.0 Camera: USB2.0 Camera\"\n"
	"adjust nearest\n"
	"colorspace srgb\n"
	"\n"
	"format YUYV\n"
	"  size 640x480 fps 30\n"
	"  size 352x288 fps 30\n"
	"  size 320x240 fps 30\n"
	"  size 176x144 fps 30\n"
	"  size 160x120 fps 30\n";

/* USB camera of an FRC robot (model not given): MJPG only, 1280x720 and 800x600, 5 to 60 fps */
static const char negcam_profile_mjpg_720p60[] =
	"# The USB camera of an FRC robotics vision setup (model not given in the\n"
	"# source), MJPG only: 1280x720 and 800x600 at 60 50 30 25 20 15 10 5 fps.\n"
	"# A camera an application cannot get raw frames from.\n"
	"# Source: v4l2-ctl --list-formats-ext --device=/dev/video2 in\n"
	"# https://github.com/bolme/sensors3140/blob/a148f04cbcfd1e815afc3ac36787a28afb11af80/examples/camera/v4l_connections.md\n"
	"# Imported with: negcam-ctl --import tests/engine/profiles/cameras/mjpg-720p60.txt\n"
	"name mjpg-720p60\n"
	"adjust nearest\n"
	"colorspace srgb\n"
	"\n"
	"format MJPG\n"
	"  size 1280x720 fps 60 50 30 25 20 15 10 5\n"
	"  size 800x600 fps 60 50 30 25 20 15 10 5\n";

static const struct negcam_builtin negcam_builtins[] = {
	{ "webcam", "UVC webcam like a Logitech C920: YUYV and MJPG, 160x120 to 1920x1080 (default)",
	  negcam_profile_webcam },
	{ "vga", "the seed article's VGA-only device: YUYV 640x480 at 30 fps",
	  negcam_profile_vga },
	{ "stepwise", "scaler: YU12 and NV12, 48x32 to 1920x1088 step 16x8, 1 to 60 fps continuous",
	  negcam_profile_stepwise },
	{ "tv-tuner", "2007 TV card: interlaced UYVY PAL 720x576/25 and NTSC 720x480/29.97, legacy quirks",
	  negcam_profile_tv_tuner },
	{ "logitech-c920",
	  "Logitech HD Pro Webcam C920 (046d:082d, UVC): YUYV to 2304x1536 at 2 fps, H264 and MJPG to 1080p30",
	  negcam_profile_logitech_c920 },
	{ "elp-4k",
	  "ELP 4K USB camera (32e4:0317, UVC): MJPG to 3840x2160 at 30 fps, YUYV 1 fps at 4K",
	  negcam_profile_elp_4k },
	{ "usb-hdmi-capture",
	  "cheap USB HDMI grabber (MS2109 kind): MJPG 1080p30 and 720p60, YUYV 1080p at 5 fps",
	  negcam_profile_usb_hdmi_capture },
	{ "arducam-1080p",
	  "Arducam 1080p AF (Microdia 0c45:6366, UVC): MJPG and YUYV, sizes listed twice by the camera",
	  negcam_profile_arducam_1080p },
	{ "usb2-vga-camera",
	  "no-name USB 2.0 VGA webcam (UVC): YUYV only, 160x120 to 640x480 at 30 fps",
	  negcam_profile_usb2_vga_camera },
	{ "mjpg-720p60",
	  "USB camera of an FRC robot (model not given): MJPG only, 1280x720 and 800x600, 5 to 60 fps",
	  negcam_profile_mjpg_720p60 },
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
