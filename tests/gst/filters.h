/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The caps filters every negotiation test runs: raw, MJPG, interlaced,
 * impossible ones. Shared by the embedded tests (test_negcamsrc.c) and the
 * device tests run in the VM (test_negcamsrc_device.c), which require the
 * kernel backend to reach the same result on negcam.ko.
 */
#ifndef NEGCAM_TEST_FILTERS_H
#define NEGCAM_TEST_FILTERS_H

#include <glib.h>

static const gchar *const filters[] = {
  "video/x-raw",
  "image/jpeg",
  "video/x-raw,format=YUY2",
  "video/x-raw,width=640,height=480",
  "video/x-raw,width=320,height=240,framerate=15/1",
  "image/jpeg,width=1280,height=720",
  "video/x-raw,framerate=30/1",
  "video/x-raw,width=[100,400],height=[100,300]",
  "video/x-raw,format=NV12",
  "video/x-raw,format=I420,width=1280,height=720",
  "video/x-raw,format=UYVY",
  "video/x-raw,interlace-mode=interleaved",
  "video/x-raw,interlace-mode=progressive",
  "video/x-raw,width=720,height=480",
  "video/x-raw,format=RGB",
  "video/x-raw,width=4000,height=3000",
  "video/x-raw,framerate=1000/1",
  "video/x-raw,framerate=[1/1,10/1]",
  "image/jpeg,framerate=30/1,width=[640,1920]",
  "video/x-raw,width=1920,height=1080",
  "video/x-raw,format={NV12,YUY2},width=640,height=360",
  "video/x-raw,framerate=15/2",
  "video/x-raw,width=800,height=608",
  "video/x-raw,width=801,height=600",
  "video/x-raw,framerate=60/1",
  "video/x-raw,format=UYVY,width=720,height=576,interlace-mode=interleaved",
  "video/x-raw,width=[640,800],height=[400,600],framerate=[20/1,30/1]",
  "image/jpeg;video/x-raw,format=NV12",
};

#endif
