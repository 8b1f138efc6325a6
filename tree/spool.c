/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The spool: one unlinked temporary file in $TMPDIR holding the contents of
 * tar members and pseudo-file command output, so nothing large is ever kept
 * in memory.  Regions are reserved up front and written with pwrite, which
 * leaves the holes of sparse members unallocated. */
#include "tree/tree_priv.h"

#include "common/tmpfile.h"

#include <errno.h>
#include <unistd.h>

static int spool_open(struct ff_tree *tree, struct ff_err *err)
{
	tree->spool_fd = ff_tmpfile_open("spool", err);
	return tree->spool_fd < 0 ? -1 : 0;
}

int ff_spool_reserve(struct ff_tree *tree, uint64_t size, int holes, uint64_t *off,
		     struct ff_err *err)
{
	if (tree->spool_fd < 0 && spool_open(tree, err))
		return -1;
	*off = tree->spool_end;
	/* 4 KiB alignment keeps each member's holes block-aligned */
	tree->spool_end += (size + 4095) & ~(uint64_t)4095;
	/* Extend now, so a trailing hole reads back as zeros, not as EOF.
	 * Only with holes: the pwrite of a member stored whole extends the
	 * file itself, and a ftruncate per member was a million system calls
	 * for a million tar members (issue 33). */
	if (holes && ftruncate(tree->spool_fd, (off_t)tree->spool_end))
		return ff_err_sys(err, errno, "spool file: cannot grow to %llu bytes",
				  (unsigned long long)tree->spool_end);
	return 0;
}

int ff_spool_pwrite(struct ff_tree *tree, const void *buf, size_t len, uint64_t off,
		    struct ff_err *err)
{
	return ff_tmpfile_pwrite(tree->spool_fd, buf, len, off, "spool", err);
}

int ff_spool_append_fd(struct ff_tree *tree, int fd, uint64_t *off, uint64_t *size,
		       struct ff_err *err)
{
	char buf[65536];
	uint64_t start, done = 0;

	if (tree->spool_fd < 0 && spool_open(tree, err))
		return -1;
	start = tree->spool_end;
	for (;;) {
		ssize_t r = read(fd, buf, sizeof(buf));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return ff_err_sys(err, errno, "reading command output");
		if (r == 0)
			break;
		if (ff_spool_pwrite(tree, buf, (size_t)r, start + done, err))
			return -1;
		done += (uint64_t)r;
	}
	tree->spool_end = start + ((done + 4095) & ~(uint64_t)4095);
	*off = start;
	*size = done;
	return 0;
}
