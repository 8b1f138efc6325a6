/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The one read-only byte source every reader reads its image through: a
 * file or block device, an offset window of another source, bytes in
 * memory, or anything a container presents (a UBI volume read LEB by LEB in
 * place, a NAND dump with its OOB stripped, a decompressed stream).  Readers
 * never open paths themselves, so one reader serves every container.
 *
 * A source is reference-counted: a window holds its parent, an open image
 * holds its source, and each drops its reference when done.  pread is
 * called from many threads at once and must be safe for that. */
#ifndef FF_COMMON_BSRC_H
#define FF_COMMON_BSRC_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/error.h"

struct ff_bsrc;

struct ff_bsrc_ops {
	/* Up to len bytes at off: the count (short only past the end), or a
	 * negative errno. */
	ssize_t (*pread)(struct ff_bsrc *s, void *buf, size_t len, uint64_t off);
	/* Frees what the implementation owns (not s->name, not s). */
	void (*destroy)(struct ff_bsrc *s);
};

struct ff_bsrc {
	const struct ff_bsrc_ops *ops;
	uint64_t size;       /* bytes readable from 0 */
	char *name;          /* for messages: "rootfs.ubi", "rootfs.ubi: volume rootfs" */
	atomic_uint refs;
	/* Where the bytes are a plain file's, that file and the offset of
	 * byte 0 in it, so a reader may give the kernel read-ahead hints
	 * (posix_fadvise); -1 otherwise. */
	int fd;
	uint64_t fd_off;
};

/* A file or block device, read with pread; NULL with err on failure. */
struct ff_bsrc *ff_bsrc_open(const char *path, struct ff_err *err);
/* An open descriptor (closed with the source when own is set). */
struct ff_bsrc *ff_bsrc_from_fd(int fd, int own, const char *name, struct ff_err *err);
/* len bytes of parent from off (UINT64_MAX: to its end); holds a reference
 * to parent.  An off past the end is an error naming both numbers. */
struct ff_bsrc *ff_bsrc_window(struct ff_bsrc *parent, uint64_t off, uint64_t len,
			       struct ff_err *err);
/* len bytes at buf; free_fn(buf) (when not NULL) runs with the source. */
struct ff_bsrc *ff_bsrc_mem(const void *buf, size_t len, void (*free_fn)(void *),
			    const char *name, struct ff_err *err);

/* For implementations elsewhere (a container's source embeds struct
 * ff_bsrc first and allocates itself): sets ops, size, a copy of name, one
 * reference and fd -1.  Returns -1 with err when out of memory. */
int ff_bsrc_init(struct ff_bsrc *s, const struct ff_bsrc_ops *ops, uint64_t size,
		 const char *name, struct ff_err *err);

struct ff_bsrc *ff_bsrc_ref(struct ff_bsrc *s);
/* Drops a reference; the last one destroys the source (NULL is fine). */
void ff_bsrc_unref(struct ff_bsrc *s);

static inline ssize_t ff_bsrc_pread(struct ff_bsrc *s, void *buf, size_t len, uint64_t off)
{
	return s->ops->pread(s, buf, len, off);
}

/* Exactly len bytes at off, or -1 with a message naming the source, the
 * offset, the length and what went wrong (a short read past the end is
 * "NAME: LEN bytes at offset OFF run past the end (SIZE bytes)"). */
int ff_bsrc_read(struct ff_bsrc *s, void *buf, size_t len, uint64_t off, struct ff_err *err);

/* A read-ahead hint for [off, off + len), where the source is a file. */
void ff_bsrc_advise(struct ff_bsrc *s, uint64_t off, uint64_t len, int advice);

#endif
