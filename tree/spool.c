/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The spool's writing side (spool.h): regions, and writes gathered into
 * one buffer so that a run of small members costs one system call. */
#include "tree/spool_priv.h"

#include "common/tmpfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct ff_spool *ff_spool_new(struct ff_err *err)
{
	struct ff_spool *sp = calloc(1, sizeof(*sp));

	if (!sp) {
		ff_err_set(err, ENOMEM, "spool file: out of memory");
		return NULL;
	}
	pthread_mutex_init(&sp->lock, NULL);
	sp->fd = ff_tmpfile_open("spool", err);
	if (sp->fd < 0) {
		ff_spool_free(sp);
		return NULL;
	}
	return sp;
}

void ff_spool_free(struct ff_spool *sp)
{
	if (!sp)
		return;
	if (sp->fd >= 0)
		close(sp->fd);
	free(sp->wbuf);
	for (int i = 0; i < FF_SPOOL_WINDOWS; i++)
		free(sp->win[i].buf);
	pthread_mutex_destroy(&sp->lock);
	free(sp);
}

int ff_spool_region(struct ff_spool *sp, uint64_t size, int holes, uint64_t *off,
		    struct ff_err *err)
{
	if (!holes) {
		*off = sp->end;
		sp->end += size;
		return 0;
	}
	/* 4 KiB alignment keeps the member's holes block-aligned */
	*off = (sp->end + 4095) & ~(uint64_t)4095;
	sp->end = *off + size;
	/* Extend now, so a trailing hole reads back as zeros, not as EOF.
	 * Only with holes: a member stored whole extends the file by its
	 * own write, and a ftruncate per member was a million system calls
	 * for a million tar members (issue 33). */
	if (ftruncate(sp->fd, (off_t)sp->end))
		return ff_err_sys(err, errno, "spool file: cannot grow to %llu bytes",
				  (unsigned long long)sp->end);
	return 0;
}

int ff_spool_flush(struct ff_spool *sp, struct ff_err *err)
{
	size_t len = sp->wlen;

	sp->wlen = 0;
	return len ? ff_tmpfile_pwrite(sp->fd, sp->wbuf, len, sp->woff, "spool", err) : 0;
}

int ff_spool_end_writes(struct ff_spool *sp, struct ff_err *err)
{
	int rc = ff_spool_flush(sp, err);

	free(sp->wbuf);
	sp->wbuf = NULL;
	return rc;
}

int ff_spool_write(struct ff_spool *sp, const void *buf, size_t len, uint64_t off,
		   struct ff_err *err)
{
	/* a write that does not follow on, or would not fit, ends the run */
	if (sp->wlen && (off != sp->woff + sp->wlen || sp->wlen + len > FF_SPOOL_WBUF) &&
	    ff_spool_flush(sp, err))
		return -1;
	if (len >= FF_SPOOL_WBUF)
		return ff_tmpfile_pwrite(sp->fd, buf, len, off, "spool", err);
	if (!sp->wbuf && !(sp->wbuf = malloc(FF_SPOOL_WBUF)))
		return ff_err_set(err, ENOMEM, "spool file: out of memory for its %u-byte buffer",
				  FF_SPOOL_WBUF);
	if (!sp->wlen)
		sp->woff = off;
	memcpy(sp->wbuf + sp->wlen, buf, len);
	sp->wlen += len;
	return 0;
}

int ff_spool_append_fd(struct ff_spool *sp, int fd, uint64_t *off, uint64_t *size,
		       struct ff_err *err)
{
	char buf[65536];
	uint64_t start = sp->end, done = 0;

	for (;;) {
		ssize_t r = read(fd, buf, sizeof(buf));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return ff_err_sys(err, errno, "reading command output");
		if (r == 0)
			break;
		if (ff_spool_write(sp, buf, (size_t)r, start + done, err))
			return -1;
		done += (uint64_t)r;
	}
	sp->end = start + done;
	*off = start;
	*size = done;
	return 0;
}
