/* Atomic output: write IMAGE through a temporary file beside it, rename on
 * success.  On any error (or a signal, see ff_outfile_signal_path) the
 * temporary is removed and an existing IMAGE is left untouched. */
#ifndef FF_COMMON_OUTFILE_H
#define FF_COMMON_OUTFILE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/error.h"

struct ff_outfile {
	int fd;
	char *path;     /* final name */
	char *tmp_path; /* IMAGE.tmp.XXXXXX in the same directory */
	uint64_t size;  /* bytes written so far (end of file) */
};

int ff_outfile_open(struct ff_outfile *of, const char *path, struct ff_err *err);
/* Write at the current end; ENOSPC becomes "IMAGE: no space left ..." */
int ff_outfile_write(struct ff_outfile *of, const void *buf, size_t len, struct ff_err *err);
/* Overwrite already-written bytes (e.g. the superblock at offset 0). */
int ff_outfile_pwrite(struct ff_outfile *of, const void *buf, size_t len, uint64_t off,
		      struct ff_err *err);
/* Leave the first `bytes` of the file as zeros (a hole) and write after
 * them: an image placed at an offset.  Call before any write. */
int ff_outfile_skip(struct ff_outfile *of, uint64_t bytes, struct ff_err *err);
/* Pad with zeros to a multiple of `align`. */
int ff_outfile_pad(struct ff_outfile *of, uint64_t align, struct ff_err *err);
/* fsync, rename over path.  Always releases of. */
int ff_outfile_commit(struct ff_outfile *of, struct ff_err *err);
/* Remove the temporary.  Safe after commit or on a never-opened struct. */
void ff_outfile_abort(struct ff_outfile *of);

#endif
