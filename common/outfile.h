/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Atomic output: IMAGE appears only when complete, and a build that fails,
 * is stopped or is killed (even with kill -9) leaves no other file beside it.
 *
 * The data goes to an unnamed file (O_TMPFILE) in IMAGE's directory, which
 * the kernel frees if the process dies; commit links it into place (linkat,
 * then a rename over an existing IMAGE: see publish_unnamed in outfile.c).
 * Only where the file system refuses O_TMPFILE (vfat, most FUSE file systems:
 * EOPNOTSUPP, EISDIR or EINVAL) does the data go to a named temporary
 * IMAGE.tmp.XXXXXX that commit renames; on any error, or a signal a main
 * handles (ff_sqfs_write_opts.tmp_path_slot), it is removed, but a kill -9
 * leaves it.  An existing IMAGE is untouched until commit.
 *
 * A block device as IMAGE (mksquashfs writes to them too) is the one
 * exception: it is opened O_EXCL (refused while mounted) and written in
 * place, no temporary; writes past its end are counted, not made, and
 * commit refuses an image larger than the device, saying by how much. */
#ifndef FF_COMMON_OUTFILE_H
#define FF_COMMON_OUTFILE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/error.h"

struct ff_outfile {
	int fd;
	char *path;     /* final name */
	char *tmp_path; /* NULL, or the named temporary IMAGE.tmp.XXXXXX */
	uint64_t size;  /* bytes written so far (end of file) */
	uint64_t dev_size; /* IMAGE is a block device of this many bytes; else 0 */
	uint64_t flushed;  /* writeback started up to here (sync_file_range) */
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
/* fsync, link or rename into place.  Always releases of. */
int ff_outfile_commit(struct ff_outfile *of, struct ff_err *err);
/* An output kept unnamed by ff_outfile_detach: its descriptor (to read it
 * by offset) and, only where the file system refused
 * O_TMPFILE, the named temporary's path (else NULL), which the caller
 * unlinks after its last read (FUSE file systems such as fusefat lose an
 * unlinked file's data at once) and frees. */
struct ff_outfile_kept {
	int fd;
	char *name;
};

/* Keep the output instead of linking it into place: for a file wanted
 * only while the process lives, which a kill -9 must not leave behind.
 * Always releases of. */
int ff_outfile_detach(struct ff_outfile *of, struct ff_outfile_kept *k, struct ff_err *err);
/* Drop the output (and a named temporary).  Safe after commit or on a
 * never-opened struct. */
void ff_outfile_abort(struct ff_outfile *of);

#endif
