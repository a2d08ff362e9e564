// SPDX-License-Identifier: GPL-2.0-only OR MIT
/* The user-space profile loader (see profile-load.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profile-load.h"
#include "read-file.h"

/* "webcam, vga, ...": every built-in profile's name, into @out. */
static void builtin_names(char *out, size_t len)
{
	const struct negcam_builtin *b;
	size_t n = 0;
	unsigned int i;

	out[0] = '\0';
	for (i = 0; (b = negcam_builtin_at(i)) && n < len; i++)
		n += (size_t)snprintf(out + n, len - n, "%s%s", i ? ", " : "", b->name);
}

static void not_found(const char *spec, int err, char *msg, size_t msglen)
{
	char names[256];

	builtin_names(names, sizeof(names));
	snprintf(msg, msglen, "%s: not a built-in profile (%s), not on the camera shelf "
		 "(negcam-ctl --list-profiles) and not a readable file: %s", spec, names,
		 strerror(err));
}

static const char *file_kind(mode_t mode)
{
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode) || S_ISBLK(mode))
		return "a device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a regular file";
}

/* Reads regular file @path whole (NUL-terminated), by the one reader; NULL with @msg set. */
static char *read_regular(const char *path, size_t *len, char *msg, size_t msglen)
{
	struct nc_read r;

	if (!nc_read_file(path, 0, 0, &r)) {
		*len = r.len;
		return r.text;
	}
	if (r.stage == NC_READ_OPEN)
		not_found(path, r.err, msg, msglen);
	else if (r.stage == NC_READ_NOT_REGULAR)
		snprintf(msg, msglen, "%s: %s, not a profile file (a profile is a regular text file, "
			 "see docs/profiles.md)", path, file_kind(r.mode));
	else if (r.err == EFBIG)
		snprintf(msg, msglen, "%s: larger than %u MiB; a profile file is at most %u MiB", path,
			 NC_LOAD_MAX_BYTES >> 20, NC_LOAD_MAX_BYTES >> 20);
	else if (r.err == ENOMEM)
		snprintf(msg, msglen, "%s: out of memory", path);
	else
		snprintf(msg, msglen, "%s: cannot read: %s", path, strerror(r.err));
	return NULL;
}

/* No NUL byte and valid UTF-8 (no overlong form, surrogate or value past U+10FFFF). */
static bool is_text(const unsigned char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		unsigned int c = s[i], need, k;
		unsigned long v;

		if (c == 0)
			return false;
		if (c < 0x80) {
			i++;
			continue;
		}
		need = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : 0;
		if (!need || c > 0xf4 || len - i <= need)
			return false;
		v = c & (0x3fu >> need);
		for (k = 1; k <= need; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return false;
			v = v << 6 | (s[i + k] & 0x3fu);
		}
		if (v < (need == 1 ? 0x80ul : need == 2 ? 0x800ul : 0x10000ul) || v > 0x10fffful ||
		    (v >= 0xd800 && v <= 0xdfff))
			return false;
		i += need + 1;
	}
	return true;
}

int negcam_profile_load_text(const char *label, const char *text, size_t len,
			     struct negcam_profile *out, char *msg, size_t msglen)
{
	struct negcam_parse_error err;

	if (!is_text((const unsigned char *)text, len)) {
		snprintf(msg, msglen, "%s: not a profile (binary data); a profile is a text file, "
			 "see docs/profiles.md", label);
		return NC_LOAD_EFILE;
	}
	memset(&err, 0, sizeof(err));
	if (negcam_profile_parse(out, text, (__u32)len, &err) == 0)
		return 0;
	err.message[sizeof(err.message) - 1] = '\0';
	snprintf(msg, msglen, "%s:%u:%u: %s", label, err.line, err.column,
		 err.message[0] ? err.message : "invalid profile (the parser gave no message)");
	return NC_LOAD_EPARSE;
}

const char *negcam_shelf_dir(char *buf, size_t len)
{
	const char *env = getenv("NEGCAM_SHELF_DIR");
	struct stat st;
	char exe[4096];
	ssize_t n;

	if (env && *env)
		return env;
	/* the build tree: <build>/ctl/negcam-ctl finds <build>/data/cameras */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		char *slash;

		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash && (size_t)(slash - exe) + 20 < len) {
			char *real;

			strcpy(slash, "/../data/cameras");
			real = realpath(exe, NULL);
			if (real && strlen(real) < len && !stat(real, &st) && S_ISDIR(st.st_mode)) {
				strcpy(buf, real);
				free(real);
				return buf;
			}
			free(real);
		}
	}
	if (!stat(NEGCAM_SHELF_INSTALLED, &st) && S_ISDIR(st.st_mode))
		return NEGCAM_SHELF_INSTALLED;
	return NULL;
}

/* A plain name (no '/', not a file here) of the shelf: its file's text, else NULL. */
static char *read_shelf(const char *spec, size_t *len, char *path, size_t pathlen)
{
	char dir[4200];
	const char *d;
	struct nc_read r;

	if (strchr(spec, '/') || !*spec || !(d = negcam_shelf_dir(dir, sizeof(dir))))
		return NULL;
	snprintf(path, pathlen, "%s/%s.profile", d, spec);
	if (nc_read_file(path, 0, 0, &r))
		return NULL;
	*len = r.len;
	return r.text;
}

int negcam_profile_load(const char *spec, struct negcam_profile *out, char *msg, size_t msglen)
{
	const struct negcam_builtin *b = negcam_builtin_find(spec);
	char *text, names[256], path[4400];
	size_t len;
	int ret;

	if (b)
		return negcam_profile_load_text(spec, b->text, strlen(b->text), out, msg, msglen);
	if (!spec[0]) {
		builtin_names(names, sizeof(names));
		snprintf(msg, msglen, "profile is empty: name a built-in profile (%s) or a profile file",
			 names);
		return NC_LOAD_EFILE;
	}
	if (access(spec, F_OK) && errno == ENOENT && (text = read_shelf(spec, &len, path,
								       sizeof(path)))) {
		ret = negcam_profile_load_text(path, text, len, out, msg, msglen);
		free(text);
		return ret;
	}
	if (!(text = read_regular(spec, &len, msg, msglen)))
		return NC_LOAD_EFILE;
	ret = negcam_profile_load_text(spec, text, len, out, msg, msglen);
	free(text);
	return ret;
}

int negcam_faults_load(const char *path, struct negcam_faults *out, char *msg, size_t msglen)
{
	struct negcam_parse_error err;
	size_t len;
	char *text = read_regular(path, &len, msg, msglen);

	if (!text)
		return NC_LOAD_EFILE;
	memset(&err, 0, sizeof(err));
	if (!is_text((const unsigned char *)text, len)) {
		snprintf(msg, msglen, "%s: not a list of faults (binary data), see docs/faults.md",
			 path);
		free(text);
		return NC_LOAD_EFILE;
	}
	if (negcam_faults_parse(out, text, (__u32)len, &err)) {
		err.message[sizeof(err.message) - 1] = '\0';
		snprintf(msg, msglen, "%s:%u:%u: %s", path, err.line, err.column, err.message);
		free(text);
		return NC_LOAD_EPARSE;
	}
	free(text);
	return 0;
}
