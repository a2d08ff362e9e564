// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * What negcam-uvc's two modes share (negcam-uvc.h): the signals (SIGINT
 * and SIGTERM stop, SIGUSR1 asks for the counts), the counts line of the
 * device core.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "negcam-uvc.h"

volatile sig_atomic_t nc_uvc_stop_signal, nc_uvc_counts_asked;

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		nc_uvc_counts_asked = 1;
	else
		nc_uvc_stop_signal = sig;
}

/* One line: what the host asked (PROBE and COMMIT apart: each TRY_FMT,
 * S_FMT or S_PARM of uvcvideo is a PROBE SET_CUR and GET_CUR), and what was
 * streamed. */
void nc_uvc_print_counts(const struct nc_uvc_dev *dev, const char *what)
{
	const struct nc_uvc_counts *c = &dev->counts;

	fprintf(stderr, "negcam-uvc: %s: %llu control requests (%llu stalled), %llu PROBE SET_CUR, "
		"%llu PROBE GET, %llu COMMIT, %llu COMMIT GET, %llu isochronous URBs, %llu unlinks, "
		"%llu frames\n", what, (unsigned long long)c->control,
		(unsigned long long)c->stalls, (unsigned long long)c->probe_set,
		(unsigned long long)c->probe_get, (unsigned long long)c->commit_set,
		(unsigned long long)c->commit_get, (unsigned long long)c->iso_urbs,
		(unsigned long long)c->unlinks, (unsigned long long)c->frames);
}

void nc_uvc_install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal; /* no SA_RESTART: ppoll returns EINTR */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
}
