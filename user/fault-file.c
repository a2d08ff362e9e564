// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The faults control file (fault-file.h): stat() compared with the last
 * look, the list read again only when the file changed.
 */
#include "fault-file.h"
#include "profile-load.h"

/* Whether the file is as last seen; @st its new state. */
static bool nc_fault_file_same(const struct nc_fault_file *ff, bool present,
			       const struct stat *st)
{
	if (present != ff->present)
		return false;
	return !present || (st->st_ino == ff->st.st_ino && st->st_size == ff->st.st_size &&
			    st->st_mtim.tv_sec == ff->st.st_mtim.tv_sec &&
			    st->st_mtim.tv_nsec == ff->st.st_mtim.tv_nsec);
}

int nc_fault_file_check(struct nc_fault_file *ff, char *msg, size_t msglen)
{
	struct stat st;
	bool present = stat(ff->path, &st) == 0;

	if (nc_fault_file_same(ff, present, &st))
		return 0;
	ff->present = present;
	ff->st = st;
	ff->ok = present && negcam_faults_load(ff->path, &ff->faults, msg, msglen) == 0;
	return 1;
}
