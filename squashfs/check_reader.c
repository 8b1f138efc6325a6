/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* `flashfs check`: walks the tree from the root, decompressing every block
 * of every file and every fragment, and verifies what the kernel and
 * unsquashfs rely on: names sorted and unique and safe, entry types and
 * inode numbers agreeing with the inodes, inode numbers in range and unique,
 * link counts, the export table.  A directory met twice is reported and not
 * entered again, so a looping image cannot hang the walk. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/problems.h"
#include "common/vec.h"
#include "squashfs/fs_reader.h"

#define MAX_DEPTH 1024

struct chk {
	struct sqfs_rd *rd;
	struct ff_problem_sink out;
	uint32_t *links;  /* directory entries naming each inode number */
	uint64_t *refs;   /* reference of each inode number, ~0 = not seen */
	uint32_t seen;
	char path[8192];
};

struct child {
	char name[SQFS_NAME_MAX + 1];
	uint64_t ref;
	uint32_t ino;
	int type;
};

struct children {
	struct ff_vec v;      /* struct child, in listing order */
	struct chk *c;
	const char *dir_path;
	char prev[SQFS_NAME_MAX + 1];
	size_t prev_len;
};

static int name_ok(const char *name, size_t len)
{
	if ((len == 1 && name[0] == '.') || (len == 2 && !memcmp(name, "..", 2)))
		return 0;
	return !memchr(name, '/', len) && !memchr(name, '\0', len);
}

static int collect(void *ctx, const char *name, size_t len, uint64_t ref, uint32_t ino,
		   int type, uint64_t cookie)
{
	struct children *ch = ctx;
	struct child *kid;
	int cmp = memcmp(ch->prev, name, len < ch->prev_len ? len : ch->prev_len);

	(void)cookie;
	if (!name_ok(name, len))
		ff_problemf(&ch->c->out, "%s: entry name \"%.*s\" is not a valid file name",
			    ch->dir_path, (int)len, name);
	if (ch->v.len && (cmp > 0 || (cmp == 0 && ch->prev_len >= len)))
		ff_problemf(&ch->c->out, "%s: entry \"%.*s\" is duplicate or out of order",
			    ch->dir_path, (int)len, name);
	memcpy(ch->prev, name, len);
	ch->prev_len = len;
	if (ff_vec_push(&ch->v, NULL) < 0)
		return 1;
	kid = FF_VEC_AT(&ch->v, struct child, ch->v.len - 1);
	memcpy(kid->name, name, len);
	kid->name[len] = '\0';
	kid->ref = ref;
	kid->ino = ino;
	kid->type = type;
	return 0;
}

static int xattr_nop(void *ctx, const char *name, size_t nlen, const uint8_t *v, size_t vlen)
{
	(void)ctx, (void)name, (void)nlen, (void)v, (void)vlen;
	return 0;
}

static void visit(struct chk *c, uint64_t ref, int depth, uint32_t *subdirs);

static void check_dir(struct chk *c, const struct sqfs_node *n, int depth)
{
	struct children ch = {0};
	struct ff_err err = {0};
	size_t i, len = strlen(c->path);
	uint32_t subdirs = 0;

	ff_vec_init(&ch.v, sizeof(struct child));
	ch.c = c;
	ch.dir_path = c->path[0] ? c->path : "/";
	if (depth >= MAX_DEPTH) {
		ff_problemf(&c->out, "%s: directories nested deeper than %d", ch.dir_path,
			    MAX_DEPTH);
		return;
	}
	if (sqfs_dir_iterate(c->rd, n, 0, collect, &ch, &err) < 0)
		ff_problemf(&c->out, "%s: %s", ch.dir_path, err.msg);
	for (i = 0; i < ch.v.len; i++) {
		const struct child *e = FF_VEC_AT(&ch.v, struct child, i);
		struct sqfs_node kid;

		snprintf(c->path + len, sizeof(c->path) - len, "/%s", e->name);
		if (sqfs_node_load(c->rd, e->ref, &kid, &err) < 0) {
			ff_problemf(&c->out, "%s: %s", c->path, err.msg);
			continue;
		}
		if (sqfs_basic_type(kid.in.type) != e->type || kid.in.inode_number != e->ino)
			ff_problemf(&c->out,
				    "%s: entry says type %d inode %u, inode says type %d inode %u",
				    c->path, e->type, e->ino, sqfs_basic_type(kid.in.type),
				    kid.in.inode_number);
		visit(c, e->ref, depth + 1, &subdirs);
	}
	c->path[len] = '\0';
	/* mksquashfs counts subdirectories, squashfs-tools-ng all entries */
	if (n->in.nlink != subdirs + 2 && n->in.nlink != ch.v.len + 2)
		ff_problemf(&c->out, "%s: directory nlink %u, has %u subdirectories (want %u)",
			    ch.dir_path, n->in.nlink, subdirs, subdirs + 2);
	ff_vec_free(&ch.v);
}

static void check_contents(struct chk *c, const struct sqfs_node *n, int depth)
{
	struct ff_err err = {0};
	char target[4096];
	struct sqfs_mpos p = n->tail;
	int t = sqfs_basic_type(n->in.type);

	if (t == SQFS_DIR)
		check_dir(c, n, depth);
	else if (t == SQFS_FILE && sqfs_file_verify(c->rd, n, &err) < 0)
		ff_problemf(&c->out, "%s: %s", c->path, err.msg);
	else if (t == SQFS_SYMLINK && sqfs_meta_read(c->rd, &p, target, n->in.target_size, &err) < 0)
		ff_problemf(&c->out, "%s: symlink target: %s", c->path, err.msg);
	if (sqfs_xattr_walk(c->rd, n->in.xattr_idx, xattr_nop, NULL, &err) < 0)
		ff_problemf(&c->out, "%s: %s", c->path, err.msg);
}

static void visit(struct chk *c, uint64_t ref, int depth, uint32_t *subdirs)
{
	struct ff_err err = {0};
	struct sqfs_node n;
	uint32_t ino;

	if (sqfs_node_load(c->rd, ref, &n, &err) < 0) {
		ff_problemf(&c->out, "%s: %s", c->path[0] ? c->path : "/", err.msg);
		return;
	}
	ino = n.in.inode_number;
	if (sqfs_basic_type(n.in.type) == SQFS_DIR && subdirs)
		(*subdirs)++;
	c->links[ino]++;
	if (c->refs[ino] != UINT64_MAX) {
		if (c->refs[ino] != ref)
			ff_problemf(&c->out, "%s: inode number %u also used by another inode",
				    c->path, ino);
		else if (sqfs_basic_type(n.in.type) == SQFS_DIR)
			ff_problemf(&c->out,
				    "%s: directory %u reached twice (loop or hard-linked directory)",
				    c->path, ino);
		return;
	}
	c->refs[ino] = ref;
	c->seen++;
	check_contents(c, &n, depth);
}

static void check_links(struct chk *c)
{
	uint32_t ino;

	for (ino = 1; ino <= c->rd->sb.inode_count; ino++) {
		struct ff_err err = {0};
		struct sqfs_node n;
		uint64_t ref;

		if (c->refs[ino] == UINT64_MAX || sqfs_node_load(c->rd, c->refs[ino], &n, &err) < 0)
			continue;
		if (sqfs_basic_type(n.in.type) != SQFS_DIR && n.in.nlink != c->links[ino])
			ff_problemf(&c->out, "inode %u: nlink %u, found %u links", ino, n.in.nlink,
				    c->links[ino]);
		if (!c->rd->export_blocks)
			continue;
		if (sqfs_export_lookup(c->rd, ino, &ref, &err) < 0)
			ff_problemf(&c->out, "%s", err.msg);
		else if (ref != c->refs[ino])
			ff_problemf(&c->out,
				    "export table: inode %u maps to 0x%llx, directory says 0x%llx",
				    ino, (unsigned long long)ref, (unsigned long long)c->refs[ino]);
	}
	if (c->seen != c->rd->sb.inode_count)
		ff_problemf(&c->out, "superblock says %u inodes, the tree has %u",
			    c->rd->sb.inode_count, c->seen);
}

static void check_fragments(struct chk *c)
{
	uint8_t *buf = malloc(c->rd->sb.block_size);
	uint32_t i;

	for (i = 0; buf && i < c->rd->sb.fragment_count; i++) {
		const struct sqfs_fragment_entry *f = &c->rd->frags[i];
		struct ff_err err = {0};

		if (sqfs_read_block(c->rd, f->start, f->size & SQFS_BLOCK_SIZE_MASK,
				    !!(f->size & SQFS_BLOCK_UNCOMPRESSED), buf, c->rd->sb.block_size,
				    &err) < 0)
			ff_problemf(&c->out, "fragment %u: %s", i, err.msg);
	}
	free(buf);
}

/* Most inodes the inode table could hold: every metadata block is at
 * least 3 bytes on disk and holds at most 8 KiB of inodes of at least 16
 * bytes each.  A superblock claiming more is lying, and sizing the
 * per-inode arrays from it would let a tiny image demand gigabytes. */
static uint64_t max_inodes(const struct sqfs_super *sb)
{
	uint64_t span = sb->dir_table > sb->inode_table ? sb->dir_table - sb->inode_table : 0;

	return (span / 3 + 1) * (SQFS_META_SIZE / 16);
}

long sqfs_check(struct ff_fs *fs, ff_problem_fn fn, void *ctx)
{
	struct chk *c = calloc(1, sizeof(*c));
	uint64_t n;
	long ret;

	if (!c)
		return -ENOMEM;
	c->rd = (struct sqfs_rd *)fs;
	c->out = (struct ff_problem_sink){ fn, ctx, 0 };
	n = (uint64_t)c->rd->sb.inode_count + 1;
	if (n - 1 > max_inodes(&c->rd->sb)) {
		ff_problemf(&c->out,
			    "superblock: inode count %u cannot fit in an inode table of %llu bytes",
			    c->rd->sb.inode_count,
			    (unsigned long long)(c->rd->sb.dir_table - c->rd->sb.inode_table));
		ret = c->out.count;
		goto out;
	}
	c->links = calloc(n, sizeof(*c->links));
	c->refs = malloc(n * sizeof(*c->refs));
	if (!c->links || !c->refs) {
		ret = -ENOMEM;
		goto out;
	}
	memset(c->refs, 0xff, n * sizeof(*c->refs));
	visit(c, c->rd->sb.root_inode, 0, NULL);
	check_links(c);
	check_fragments(c);
	ret = c->out.count;
out:
	free(c->links);
	free(c->refs);
	free(c);
	return ret;
}
