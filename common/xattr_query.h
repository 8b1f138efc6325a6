/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The listxattr/getxattr half that both format readers share: each reader
 * walks an object's stored attributes and feeds every (name, value) pair to
 * ff_xattr_query_visit, which either lists names or picks out one value
 * with the size-probe (cap 0) and ERANGE rules of getxattr(2). */
#ifndef FF_COMMON_XATTR_QUERY_H
#define FF_COMMON_XATTR_QUERY_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/fs.h"

struct ff_xattr_query {
	ff_xattr_fn list;  /* listing: called with each name */
	void *list_ctx;
	const char *want;  /* lookup: the full name wanted */
	void *buf;
	size_t cap;
	ssize_t result;    /* lookup: value length, -ENODATA or -ERANGE */
};

void ff_xattr_query_list(struct ff_xattr_query *q, ff_xattr_fn fn, void *ctx);
void ff_xattr_query_get(struct ff_xattr_query *q, const char *name, void *buf, size_t cap);
/* Returns non-zero to stop the walk. */
int ff_xattr_query_visit(void *q, const char *name, size_t name_len, const uint8_t *value,
			 size_t value_len);

/* listxattr and getxattr for a format with an xattr_walk op. */
int ff_xattr_walk_list(struct ff_fs *fs, uint64_t handle, ff_xattr_fn fn, void *ctx);
ssize_t ff_xattr_walk_get(struct ff_fs *fs, uint64_t handle, const char *name, void *buf,
			  size_t cap);

#endif
