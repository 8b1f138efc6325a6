/* The extraction engine behind `flashfs extract`.  Everything it creates is
 * reached from one directory fd, by names checked one at a time and opened
 * with O_NOFOLLOW (or openat2 RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS for stored
 * paths), so nothing in the image can make it write outside that
 * directory. */
#ifndef FF_FLASHFS_EXTRACT_H
#define FF_FLASHFS_EXTRACT_H

#include "common/error.h"
#include "common/fs.h"

struct ff_extract_opts {
	const char *image; /* for messages */
	const char *dir;   /* target directory (created if missing) */
	int jobs;          /* file-writing threads, >= 1 */
	int force;         /* replace existing non-directories */
	int progress;      /* draw a progress bar on stderr if it is a terminal */
	int umask_cleared; /* the caller set umask(0): files are created with
			    * their final permission bits, saving a chmod */
	int warn_case;     /* warn about names equal when case is ignored even
			    * where the target tells case apart */
	/* Each entry that failed (FF_WARN_FAILED, path = where it goes below
	 * dir), what privileges were missing (FF_WARN_NOT_PERMITTED, once a
	 * kind) and names equal but for case (FF_WARN_CASE_COLLISION).
	 * Called from several threads at once. */
	ff_warn_fn warn;
	void *warn_ctx;
};

/* Extracts each of paths (or the whole image when n == 0).  Returns 0 when
 * everything was restored, 1 when something was skipped or failed (each
 * reported through o->warn), 2 when nothing could be done (err says why). */
int ff_extract(struct ff_fs *fs, const struct ff_extract_opts *o, char **paths, int n,
	       struct ff_err *err);

#endif
