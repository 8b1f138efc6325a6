/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The builder's two halves: builder.c walks the tree in mkfs.jffs2's
 * order and makes items; pipe.c runs them through the worker pool
 * (file pages are compressed there) and lays them out in submission
 * order, so the image never depends on the number of threads. */
#ifndef FF_JFFS2_BUILDER_H
#define FF_JFFS2_BUILDER_H

#include "common/hmap.h"
#include "common/pool.h"
#include "jffs2/write_priv.h"

/* A regular file's inode fields, and its data nodes' running version
 * and offset; freed with its last page. */
struct j2_file {
	struct j2_inode_node ri;
};

enum { J2_ITEM_NODE, J2_ITEM_PAGE };

/* One job record: an encoded node, or one page of a file with its
 * compression done as if the whole page fits (checked at layout). */
struct j2_item {
	int kind;
	int last;              /* PAGE: the file's last */
	uint8_t *buf;          /* NODE: the node; PAGE: the page, then room for out */
	uint32_t len, req;     /* NODE: bytes and room asked; PAGE: page bytes */
	struct j2_file *f;
	uint8_t *out;
	uint32_t used, stored;
	unsigned compr;
};

struct j2_build {
	const struct ff_tree *tree;
	const struct ff_jffs2_write_opts *o;
	struct ff_jffs2_write_stats *st;
	struct j2_lay lay;
	struct ff_pool *pool;
	size_t queue;
	struct j2_compr_scratch **scratch; /* threads + 1 (the layout's own) */
	unsigned n_scratch;
	uint8_t *main_out;
	uint32_t ino, dirent_version, xid, xseqno;
	struct ff_hmap xattrs;  /* prefix, name, NUL, value -> xid */
};

/* Queues a copy of an encoded node that asks req bytes of room. */
int j2_submit_node(struct j2_build *b, const uint8_t *node, uint32_t len, uint32_t req,
		   struct ff_err *err);
/* builder_xattr.c: the refs (and first uses' datums) of n's xattrs. */
int j2_put_xattrs(struct j2_build *b, const struct ff_node *n, uint32_t ino,
		  struct ff_err *err);

int j2_pipe_start(struct j2_build *b, struct ff_err *err);
/* Queues an item (taking its buffers); lays out the oldest when full. */
int j2_pipe_submit(struct j2_build *b, const struct j2_item *it, struct ff_err *err);
/* Lays out everything queued (or, after an error, frees it). */
int j2_pipe_drain(struct j2_build *b, int failed, struct ff_err *err);
void j2_pipe_stop(struct j2_build *b);

#endif
