// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* grab-yuyv [DEVICE]: asks for YUYV 1280x720, reads one frame. The kind
 * of program docs/matrix.md runs on every profile with negcam-run. */
#include <fcntl.h>
#include <linux/videodev2.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *dev = argc > 1 ? argv[1] : "/dev/video0";
	struct v4l2_format f = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE};
	struct v4l2_pix_format *p = &f.fmt.pix;
	int fd = open(dev, O_RDWR);
	char *frame;

	*p = (struct v4l2_pix_format){
		.width = 1280, .height = 720, .pixelformat = V4L2_PIX_FMT_YUYV};
	if (fd < 0 || ioctl(fd, VIDIOC_S_FMT, &f) < 0) {
		perror(dev);
		return 1;
	}
	printf("%s: %.4s %ux%u\n", dev, (char *)&p->pixelformat, p->width, p->height);
	if (p->pixelformat != V4L2_PIX_FMT_YUYV) {
		fprintf(stderr, "%s: no YUYV, got %.4s\n", dev, (char *)&p->pixelformat);
		return 1;
	}
	frame = malloc(p->sizeimage);
	if (!frame || read(fd, frame, p->sizeimage) != (ssize_t)p->sizeimage) {
		perror("read");
		return 1;
	}
	return 0;
}
