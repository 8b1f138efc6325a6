/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Inodes from their nodes (readinode.c as facts).  The nodes of an inode
 * are sorted by version; the newest gives mode, owner, times and isize
 * (between equal versions the one found first, which the kernel keeps).
 * A regular file's data is its fragment map cut at the newest isize; when
 * the data ends before isize the kernel's size is where the data ends
 * (jffs2_truncate_fragtree). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "jffs2/node.h"
#include "jffs2/tree.h"

static int cmp_inode_rec(const void *a, const void *b)
{
	const struct j2_inode_rec *x = a, *y = b;

	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	if (x->version != y->version)
		return x->version < y->version ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

struct j2_ino *j2_tree_find(const struct j2_tree *t, uint64_t ino)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->inos[mid].ino == ino)
			return &t->inos[mid];
		if (t->inos[mid].ino < ino)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The newest of recs[0..n): the first node of the highest version. */
static const struct j2_inode_rec *newest(const struct j2_inode_rec *r, size_t n)
{
	size_t i = n - 1;

	while (i && r[i - 1].version == r[n - 1].version)
		i--;
	return &r[i];
}

static int build_frags(struct j2_scan *s, struct j2_ino *in)
{
	struct j2_frag_in *fi = malloc(in->n_recs * sizeof(*fi));
	size_t k = 0;
	int ret;

	if (!fi)
		return -1;
	for (uint32_t i = 0; i < in->n_recs; i++) {
		const struct j2_inode_rec *r = &s->inodes[in->first + i];
		uint32_t len = r->dsize;

		if (!len)
			continue; /* metadata only */
		if (len > UINT32_MAX - r->offset)
			len = UINT32_MAX - r->offset;
		fi[k++] = (struct j2_frag_in){ r->offset, len, r->version, r->seq, in->first + i };
	}
	ret = j2_frag_build(fi, k, &in->frags, &in->n_frags);
	free(fi);
	return ret;
}

static void file_size(struct j2_ino *in)
{
	uint32_t isize = in->meta->isize;
	uint32_t end;

	j2_frag_truncate(in->frags, &in->n_frags, isize);
	end = in->n_frags ? in->frags[in->n_frags - 1].end : 0;
	in->size = end < isize ? end : isize;
	/* a problem only if the inode turns out reachable: the collector
	 * leaves a deleted file's nodes half erased, which is no damage */
	in->isize_cut = end < isize ? isize : 0;
}

static void set_meta(struct j2_ino *in)
{
	const struct j2_inode_rec *m = in->meta;

	in->mode = m->mode;
	in->uid = m->uid;
	in->gid = m->gid;
	in->atime = m->atime;
	in->mtime = m->mtime;
	in->ctime = m->ctime;
	in->size = S_ISLNK(m->mode) ? (m->isize ? m->isize : m->dsize) : 0;
}

static int build_inode(struct j2_scan *s, struct j2_ino *in)
{
	in->meta = newest(&s->inodes[in->first], in->n_recs);
	set_meta(in);
	for (uint32_t i = 0; i < in->n_recs; i++)
		in->stored += j2_pad(s->inodes[in->first + i].csize + J2_INODE_SIZE);
	if (!S_ISREG(in->mode))
		return 0;
	if (build_frags(s, in))
		return -1;
	file_size(in);
	return 0;
}

/* One j2_ino per inode number with nodes, plus the directories dirents
 * name as parents without having a node (the kernel shows those as
 * directories, mode 0755, times 0) and the root. */
static int count_inos(const struct j2_scan *s, size_t *n)
{
	*n = 1;
	for (size_t i = 0; i < s->n_inodes; i++)
		if (!i || s->inodes[i].ino != s->inodes[i - 1].ino)
			(*n)++;
	*n += s->n_dirents;
	return 0;
}

static int cmp_ino(const void *a, const void *b)
{
	const struct j2_ino *x = a, *y = b;

	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return (x->meta == NULL) - (y->meta == NULL); /* one with nodes first */
}

static void fake_dir(struct j2_ino *in, uint32_t ino)
{
	memset(in, 0, sizeof(*in));
	in->ino = ino;
	in->mode = S_IFDIR | 0755;
}

/* Collects, sorts and de-duplicates the inode table. */
static int make_table(struct j2_scan *s, struct j2_tree *t)
{
	size_t cap, k = 0;

	count_inos(s, &cap);
	t->inos = calloc(cap, sizeof(*t->inos));
	if (!t->inos)
		return -1;
	for (size_t i = 0; i < s->n_inodes; i++) {
		if (i && s->inodes[i].ino == s->inodes[i - 1].ino) {
			t->inos[k - 1].n_recs++;
			continue;
		}
		t->inos[k] = (struct j2_ino){ .ino = s->inodes[i].ino, .first = (uint32_t)i, .n_recs = 1 };
		t->inos[k++].meta = &s->inodes[i]; /* set for real in build_inode */
	}
	fake_dir(&t->inos[k++], 1);
	for (size_t i = 0; i < s->n_dirents; i++)
		fake_dir(&t->inos[k++], s->dirents[i].pino);
	qsort(t->inos, k, sizeof(*t->inos), cmp_ino);
	t->n = 0;
	for (size_t i = 0; i < k; i++)
		if (!t->n || t->inos[t->n - 1].ino != t->inos[i].ino)
			t->inos[t->n++] = t->inos[i];
	return 0;
}

int j2_dirs_build(struct j2_scan *s, struct j2_tree *t);
int j2_xattrs_build(struct j2_scan *s, struct j2_tree *t);

int j2_tree_build(struct j2_scan *s, struct j2_tree *t)
{
	memset(t, 0, sizeof(*t));
	if (s->n_inodes)
		qsort(s->inodes, s->n_inodes, sizeof(*s->inodes), cmp_inode_rec);
	if (make_table(s, t))
		return -1;
	for (size_t i = 0; i < t->n; i++)
		if (t->inos[i].meta && build_inode(s, &t->inos[i]))
			return -1;
	if (j2_dirs_build(s, t) || j2_xattrs_build(s, t))
		return -1;
	return 0;
}

void j2_tree_free(struct j2_tree *t)
{
	for (size_t i = 0; t->inos && i < t->n; i++) {
		free(t->inos[i].frags);
		free(t->inos[i].children);
		free(t->inos[i].xattrs);
	}
	free(t->inos);
	memset(t, 0, sizeof(*t));
}
