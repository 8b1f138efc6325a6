/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include "common/xattr_query.h"

#include <errno.h>
#include <string.h>

void ff_xattr_query_list(struct ff_xattr_query *q, ff_xattr_fn fn, void *ctx)
{
	*q = (struct ff_xattr_query){.list = fn, .list_ctx = ctx};
}

void ff_xattr_query_get(struct ff_xattr_query *q, const char *name, void *buf, size_t cap)
{
	*q = (struct ff_xattr_query){.want = name, .buf = buf, .cap = cap, .result = -ENODATA};
}

int ff_xattr_query_visit(void *ctx, const char *name, size_t name_len, const uint8_t *value,
			 size_t value_len)
{
	struct ff_xattr_query *q = ctx;

	if (q->list)
		return q->list(q->list_ctx, name, name_len) ? 1 : 0;
	if (strlen(q->want) != name_len || memcmp(q->want, name, name_len))
		return 0;
	if (q->cap && value_len > q->cap) {
		q->result = -ERANGE;
		return 1;
	}
	if (q->cap)
		memcpy(q->buf, value, value_len);
	q->result = (ssize_t)value_len;
	return 1;
}

int ff_xattr_walk_list(struct ff_fs *fs, uint64_t handle, ff_xattr_fn fn, void *ctx)
{
	struct ff_xattr_query q;

	ff_xattr_query_list(&q, fn, ctx);
	return fs->ops->xattr_walk(fs, handle, ff_xattr_query_visit, &q);
}

ssize_t ff_xattr_walk_get(struct ff_fs *fs, uint64_t handle, const char *name, void *buf,
			  size_t cap)
{
	struct ff_xattr_query q;
	int ret;

	ff_xattr_query_get(&q, name, buf, cap);
	ret = fs->ops->xattr_walk(fs, handle, ff_xattr_query_visit, &q);
	return ret < 0 ? ret : q.result;
}
