/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* `flashfs check`: what fsck.cramfs checks, and what the kernel relies on.
 * The CRC; every inode's type and the fields its type allows; every
 * listing, name and block pointer in range and in order; every block
 * inflating to its length; the directory listings ending where the file
 * data starts and the data ending inside the image.  A listing that two
 * directories share is reported and walked once, so a hostile image
 * cannot make the walk grow. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/hmap.h"
#include "common/problems.h"
#include "cramfs/reader.h"

struct pending {
	uint64_t handle;
	struct cr_inode in;
	char *path;
};

struct chk {
	struct cr_fs *c;
	struct ff_problem_sink out;
	struct ff_hmap listings;   /* listing offsets walked */
	struct pending *stack;
	size_t n, cap;
	uint64_t end_dir, start_data, end_data, entries;
	uint8_t *blk;
	const char *path;          /* the directory being walked */
	char prev[CR_NAME_MAX + 1];
	size_t prev_len;
	int has_prev;
};

static void check_crc(struct chk *k)
{
	struct cr_fs *c = k->c;

	switch (cr_crc_state(c)) {
	case CR_CRC_BAD:
		ff_problemf(&k->out, "superblock: CRC 0x%08x stored, 0x%08x computed", c->sb.crc,
			    c->crc_calc);
		break;
	case CR_CRC_UNREADABLE:
		ff_problemf(&k->out,
			    "superblock: CRC not computed: the image cannot be read to its end");
		break;
	default:
		break;
	}
}

static void check_blocks(struct chk *k, const char *path, const struct cr_inode *in)
{
	uint32_t n = cr_block_count(k->c, in), got;
	struct ff_err err = { 0, "" };

	for (uint32_t i = 0; i < n; i++) {
		struct cr_extent e;

		if (cr_block_extent(k->c, in, i, &e, &err) ||
		    cr_block_read(k->c, in, i, k->blk, &got, &err)) {
			ff_problemf(&k->out, "%s: %s", path, err.msg);
			return;
		}
		if (e.start + e.len > k->end_data)
			k->end_data = e.start + e.len;
	}
}

static void check_data(struct chk *k, const char *path, const struct cr_inode *in)
{
	int link = S_ISLNK(in->mode);

	if (!in->offset && (in->size || link)) {
		ff_problemf(&k->out, "%s: %s has offset 0 and size %u", path,
			    link ? "symlink" : "file", in->size);
		return;
	}
	if (!in->size) {
		if (in->offset || link)
			ff_problemf(&k->out, "%s: %s has size 0 and offset %u", path,
				    link ? "symlink" : "file", in->offset);
		return;
	}
	if (in->offset < k->start_data)
		k->start_data = in->offset;
	check_blocks(k, path, in);
}

static void check_special(struct chk *k, const char *path, const struct cr_inode *in)
{
	uint32_t t = in->mode & S_IFMT;

	if (t != S_IFCHR && t != S_IFBLK && t != S_IFIFO && t != S_IFSOCK)
		ff_problemf(&k->out, "%s: bogus mode 0%o", path, in->mode);
	else if (in->offset)
		ff_problemf(&k->out, "%s: special file has offset %u (not 0)", path, in->offset);
	else if ((t == S_IFIFO || t == S_IFSOCK) && in->size)
		ff_problemf(&k->out, "%s: %s has size %u (not 0)", path,
			    t == S_IFIFO ? "fifo" : "socket", in->size);
}

static int push(struct chk *k, uint64_t h, const struct cr_inode *in, char *path)
{
	if (k->n == k->cap) {
		size_t cap = k->cap ? k->cap * 2 : 64;
		struct pending *v = realloc(k->stack, cap * sizeof(*v));

		if (!v)
			return -1;
		k->stack = v;
		k->cap = cap;
	}
	k->stack[k->n++] = (struct pending){ h, *in, path };
	return 0;
}

static void check_dir(struct chk *k, uint64_t h, const struct cr_inode *in, char *path)
{
	if (!in->size) {
		if (in->offset)
			ff_problemf(&k->out, "%s: empty directory has offset %u", path, in->offset);
		free(path);
		return;
	}
	if (ff_hmap_get(&k->listings, in->offset)) {
		ff_problemf(&k->out, "%s: listing at %u already walked for another directory", path,
			    in->offset);
		free(path);
		return;
	}
	if (ff_hmap_put(&k->listings, in->offset, (void *)1) || push(k, h, in, path)) {
		ff_problemf(&k->out, "%s: out of memory", path);
		free(path);
	}
}

static void check_order(struct chk *k, const struct cr_dirent *e)
{
	size_t n = e->len < k->prev_len ? e->len : k->prev_len;
	int cmp = memcmp(k->prev, e->name, n);

	if (k->has_prev && (cmp > 0 || (!cmp && k->prev_len >= e->len)))
		ff_problemf(&k->out,
			    "%s: entry \"%.*s\" out of order or repeated in a sorted directory",
			    k->path, (int)e->len, e->name);
	memcpy(k->prev, e->name, e->len);
	k->prev_len = e->len;
	k->has_prev = 1;
}

static int entry(void *ctx, const struct cr_dirent *e)
{
	struct chk *k = ctx;
	size_t plen = strlen(k->path);
	char *path = malloc(plen + e->len + 2);

	if (!path)
		return 1;
	snprintf(path, plen + e->len + 2, "%s/%.*s", *k->path == '/' ? "" : k->path, (int)e->len,
		 e->name);
	if (k->c->sb.flags & CR_FLAG_SORTED_DIRS)
		check_order(k, e);
	k->entries++;
	if (e->handle + CR_INODE_SIZE + e->in.name_bytes > k->end_dir)
		k->end_dir = e->handle + CR_INODE_SIZE + e->in.name_bytes;
	if (S_ISDIR(e->in.mode)) {
		check_dir(k, e->handle, &e->in, path);
		return 0;
	}
	if (S_ISREG(e->in.mode) || S_ISLNK(e->in.mode))
		check_data(k, path, &e->in);
	else
		check_special(k, path, &e->in);
	free(path);
	return 0;
}

static void walk(struct chk *k)
{
	struct ff_err err = { 0, "" };
	char *root = strdup("/");

	if (!root || push(k, cr_root_handle(k->c), &k->c->sb.root, root)) {
		free(root);
		ff_problemf(&k->out, "out of memory");
		return;
	}
	if (k->c->sb.root.size)
		ff_hmap_put(&k->listings, k->c->sb.root.offset, (void *)1);
	while (k->n) {
		struct pending d = k->stack[--k->n];

		k->path = d.path;
		k->has_prev = 0;
		if (cr_dir_walk(k->c, d.handle, &d.in, 0, entry, k, &err))
			ff_problemf(&k->out, "%s: %s", d.path, err.msg);
		free(d.path);
	}
}

/* Where fsck.cramfs wants things: the listings end where the data
 * starts, and the data ends inside the image. */
static void check_layout(struct chk *k)
{
	const struct cr_super *sb = &k->c->sb;

	if (k->start_data != UINT64_MAX) {
		if (k->start_data < sb->start + CR_SUPER_SIZE)
			ff_problemf(&k->out,
				    "file data starts at %llu, inside the superblock (ends at %u)",
				    (unsigned long long)k->start_data, sb->start + CR_SUPER_SIZE);
		else if (k->end_dir != k->start_data)
			ff_problemf(&k->out,
				    "directory listings end at %llu but file data starts at %llu",
				    (unsigned long long)k->end_dir,
				    (unsigned long long)k->start_data);
	}
	if (k->end_data > k->c->span)
		ff_problemf(&k->out, "file data ends at %llu, past the image's %llu bytes",
			    (unsigned long long)k->end_data, (unsigned long long)k->c->span);
}

long cr_check(struct ff_fs *fs, ff_problem_fn fn, void *ctx)
{
	struct chk k = { .c = (struct cr_fs *)fs, .out = { fn, ctx, 0 },
			 .start_data = UINT64_MAX };

	k.blk = malloc(k.c->blksize);
	if (!k.blk)
		return -ENOMEM;
	check_crc(&k);
	walk(&k);
	check_layout(&k);
	while (k.n)
		free(k.stack[--k.n].path);
	free(k.stack);
	free(k.blk);
	ff_hmap_free(&k.listings, NULL);
	return k.out.count;
}

enum cr_crc_state cr_crc_state(struct cr_fs *c)
{
	enum cr_crc_state s;
	uint32_t crc = 0;

	pthread_mutex_lock(&c->lock);
	s = c->crc;
	pthread_mutex_unlock(&c->lock);
	if (s != CR_CRC_UNKNOWN)
		return s;
	if (cr_super_crc(c->src, &c->sb, &crc, NULL))
		s = CR_CRC_UNREADABLE;
	else
		s = crc == c->sb.crc ? CR_CRC_OK : CR_CRC_BAD;
	pthread_mutex_lock(&c->lock);
	c->crc = s;
	c->crc_calc = crc;
	pthread_mutex_unlock(&c->lock);
	return s;
}

/* What a reading command should hear of before it trusts the data: the
 * CRC, which fsck.cramfs refuses an image for (the kernel does not look). */
long cr_open_problems(struct ff_fs *fs, ff_problem_fn fn, void *ctx)
{
	struct chk k = { .c = (struct cr_fs *)fs, .out = { fn, ctx, 0 } };

	check_crc(&k);
	return k.out.count;
}
