/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The tree as the journal left it, checked the way fsck would: every
 * directory entry leads to an inode of the type the entry says, every xattr
 * entry to an xattr inode, every data node belongs to an inode, and each
 * inode's link count equals the entries that name it (a directory: 2 plus
 * its subdirectories).  One walk of the whole key space gathers it all. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/endian.h"
#include "common/problems.h"
#include "ubifs/ubifs.h"

struct inode_seen {
	uint64_t inum;
	uint32_t nlink, mode, flags, links, dir_names, subdirs;
	int has_inode;
};

struct tree {
	struct ubifs_fs *u;
	struct ff_problem_sink out;
	struct ff_hmap inodes; /* inum -> struct inode_seen * */
	struct inode_seen **all; /* the same, in the order first seen */
	size_t n, cap;
	int err;
};

static struct inode_seen *seen(struct tree *t, uint64_t inum)
{
	struct inode_seen *s = ff_hmap_get(&t->inodes, inum);

	if (s)
		return s;
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		struct inode_seen **v = realloc(t->all, cap * sizeof(*v));

		if (!v) {
			t->err = -ENOMEM;
			return NULL;
		}
		t->all = v;
		t->cap = cap;
	}
	s = calloc(1, sizeof(*s));
	if (!s || ff_hmap_put(&t->inodes, inum, s) < 0) {
		free(s);
		t->err = -ENOMEM;
		return NULL;
	}
	s->inum = inum;
	t->all[t->n++] = s;
	return s;
}

static void on_inode(struct tree *t, const struct ubifs_key *k, const struct ubifs_loc *loc)
{
	struct ubifs_ino ino;
	struct inode_seen *s;

	if (ubifs_read_inode(t->u, k->inum, &ino) < 0) {
		ff_problemf(&t->out, "inode %u at LEB %u:%u cannot be read", k->inum, loc->lnum,
			    loc->offs);
		return;
	}
	if (!(s = seen(t, k->inum)))
		return;
	s->has_inode = 1;
	s->nlink = ino.nlink;
	s->mode = ino.mode;
	s->flags = ino.flags;
}

static void on_entry(struct tree *t, const struct ubifs_key *k, const struct ubifs_loc *loc,
		     const uint8_t *node)
{
	struct ubifs_dent d;
	struct inode_seen *s;

	if (ubifs_read_dent(t->u, loc, node, &d) < 0 || ubifs_key_cmp(&d.key, k)) {
		ff_problemf(&t->out,
			    "entry at LEB %u:%u (key %u:%08x) cannot be read or has another key",
			    loc->lnum, loc->offs, k->inum, k->lo);
		return;
	}
	if (d.nlen && ubifs_name_hash(t->u, d.name, d.nlen) != UBIFS_KEY_VAL(d.key))
		ff_problemf(&t->out, "entry \"%s\" at LEB %u:%u: key hash %08x is not its name's",
			    d.name, loc->lnum, loc->offs, UBIFS_KEY_VAL(d.key));
	if (!(s = seen(t, d.inum)))
		return;
	if (UBIFS_KEY_TYPE(*k) == UBIFS_DENT_NODE && d.type == UBIFS_ITYPE_DIR) {
		struct inode_seen *parent = seen(t, k->inum);

		/* a directory's link count is 2 + its subdirectories */
		s = ff_hmap_get(&t->inodes, d.inum);
		if (parent)
			parent->subdirs++;
		s->dir_names++;
	} else {
		s->links++;
	}
}

static int on_key(void *ctx, const struct ubifs_key *k, const struct ubifs_loc *loc,
		  const uint8_t *node)
{
	struct tree *t = ctx;

	switch (UBIFS_KEY_TYPE(*k)) {
	case UBIFS_INO_NODE:
		on_inode(t, k, loc);
		break;
	case UBIFS_DENT_NODE:
	case UBIFS_XENT_NODE:
		on_entry(t, k, loc, node);
		break;
	case UBIFS_DATA_NODE: {
		struct inode_seen *s = ff_hmap_get(&t->inodes, k->inum);

		/* an inode's key sorts before its data's */
		if (!s || !s->has_inode)
			ff_problemf(&t->out,
				    "data node at LEB %u:%u (block %u) belongs to no inode %u",
				    loc->lnum, loc->offs, UBIFS_KEY_VAL(*k), k->inum);
		break;
	}
	}
	return t->err ? 1 : 0;
}

static void judge(struct tree *t, const struct inode_seen *s)
{
	unsigned long long inum = s->inum;
	uint32_t want;

	if (!s->has_inode) {
		ff_problemf(&t->out, "inode %llu: named by %u entries but missing", inum,
			    s->links + s->dir_names);
		return;
	}
	if (!!S_ISDIR(s->mode) != (s->dir_names > 0) && s->links + s->dir_names)
		ff_problemf(&t->out, "inode %llu (mode 0%o): entries name it as a %s", inum,
			    s->mode, s->dir_names ? "directory" : "non-directory");
	want = S_ISDIR(s->mode) ? 2 + s->subdirs : s->links;
	if (S_ISDIR(s->mode) && s->dir_names > 1)
		ff_problemf(&t->out, "directory inode %llu: named by %u entries", inum,
			    s->dir_names);
	if (s->nlink != want)
		ff_problemf(&t->out, "inode %llu: link count %u, found %u", inum, s->nlink, want);
	(void)inum;
}

long ubifs_check_tree(struct ubifs_fs *u, ff_problem_fn fn, void *ctx);

long ubifs_check_tree(struct ubifs_fs *u, ff_problem_fn fn, void *ctx)
{
	struct tree t = { .u = u, .out = { fn, ctx, 0 } };
	struct ubifs_key lo = { 0, 0 }, hi = { UINT32_MAX, UINT32_MAX };
	int ret = ubifs_walk(u, &lo, &hi, on_key, &t);

	if (ret < 0 && ret != -ENOMEM) {
		ff_problemf(&t.out,
			    "the index cannot be walked to its end (see the messages above)");
		ret = 0;
	}
	for (size_t i = 0; !ret && !t.err && i < t.n; i++)
		judge(&t, t.all[i]);
	ff_hmap_free(&t.inodes, free);
	free(t.all);
	return ret < 0 || t.err ? -ENOMEM : t.out.count;
}
