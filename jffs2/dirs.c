/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Directories from dirent nodes (scan.c, nodelist.c, build.c as facts).
 * Per parent and name the highest version wins (between equal versions
 * the one found later, as jffs2_add_fd_to_list replaces); a winner with
 * ino 0 is a deletion.  A dirent naming a missing inode is dropped, as the
 * kernel drops it.  The tree is walked from the root (inode 1): a
 * directory is entered under the first name that reaches it, so a second
 * name for it (a hard-linked directory, or a loop) is reported and not
 * followed.  An inode no live name reaches is deleted when some dirent
 * once named it (the kernel removes it at mount), else an orphan, which
 * check reports.  Newer dirents than a directory's newest inode node give it
 * their mctime as mtime and ctime, as readinode.c does. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/problems.h"
#include "jffs2/tree.h"

static int name_cmp(const char *a, size_t la, const char *b, size_t lb)
{
	int c = memcmp(a, b, la < lb ? la : lb);

	return c ? c : (la > lb) - (la < lb);
}

static int cmp_dirent_rec(const void *a, const void *b)
{
	const struct j2_dirent_rec *x = a, *y = b;
	int c;

	if (x->pino != y->pino)
		return x->pino < y->pino ? -1 : 1;
	c = name_cmp(x->name, x->nsize, y->name, y->nsize);
	if (c)
		return c;
	if (x->version != y->version)
		return x->version < y->version ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

static int bad_name(const struct j2_dirent_rec *d)
{
	if (!d->nsize || memchr(d->name, '/', d->nsize) || memchr(d->name, 0, d->nsize))
		return 1;
	return !strcmp(d->name, ".") || !strcmp(d->name, "..");
}

/* A winning dirent with a live child: where it may be listed. */
static int accept_entry(struct j2_scan *s, struct j2_tree *t, const struct j2_dirent_rec *d,
			struct j2_ino **parent)
{
	*parent = j2_tree_find(t, d->pino);
	if (bad_name(d)) {
		ff_problem_add(&s->prob, "dirent at offset %llu in directory %u: name \"%.*s\" (%u bytes) cannot be a file name",
			       (unsigned long long)d->pos, d->pino, (int)d->nsize, d->name, d->nsize);
		return 0;
	}
	if (!j2_tree_find(t, d->ino)) {
		ff_problem_add(&s->prob, "dirent \"%s\" at offset %llu in directory %u points to inode %u, which has no node",
			       d->name, (unsigned long long)d->pos, d->pino, d->ino);
		return 0;
	}
	if (!*parent || !S_ISDIR((*parent)->mode)) {
		ff_problem_add(&s->prob, "dirent \"%s\" at offset %llu: its parent inode %u is not a directory",
			       d->name, (unsigned long long)d->pos, d->pino);
		return 0;
	}
	return 1;
}

/* The newest dirent's mctime, when newer than the inode's newest node. */
static void apply_mctime(struct j2_ino *dir, const struct j2_dirent_rec *d, uint32_t *best)
{
	if (!d->mctime || d->version <= *best)
		return;
	*best = d->version;
	if (dir->meta && S_ISDIR(dir->mode) && d->version > dir->meta->version)
		dir->mtime = dir->ctime = d->mctime;
}

static int add_child(struct j2_ino *dir, const struct j2_dirent_rec *d, size_t *cap)
{
	if (dir->n_children == *cap) {
		size_t nc = *cap ? *cap * 2 : 8;
		struct j2_child *v = realloc(dir->children, nc * sizeof(*v));

		if (!v)
			return -1;
		dir->children = v;
		*cap = nc;
	}
	dir->children[dir->n_children++] = (struct j2_child){ d->name, d->nsize, d->ino, 0 };
	return 0;
}

/* Winners of each (parent, name) group become children (in name order:
 * the records are sorted so). */
static int collect(struct j2_scan *s, struct j2_tree *t)
{
	struct j2_ino *dir = NULL;
	uint32_t best = 0;
	size_t cap = 0;

	for (size_t i = 0; i < s->n_dirents; i++) {
		const struct j2_dirent_rec *d = &s->dirents[i];
		struct j2_ino *parent, *child = d->ino ? j2_tree_find(t, d->ino) : NULL;

		if (child)
			child->named = 1;
		if (i + 1 < s->n_dirents && s->dirents[i + 1].pino == d->pino &&
		    !name_cmp(d->name, d->nsize, s->dirents[i + 1].name, s->dirents[i + 1].nsize))
			continue; /* a newer version of this name follows */
		if (!dir || dir->ino != d->pino) {
			dir = j2_tree_find(t, d->pino);
			best = 0;
			cap = dir ? dir->n_children : 0;
		}
		if (dir)
			apply_mctime(dir, d, &best);
		if (!d->ino || !accept_entry(s, t, d, &parent))
			continue;
		if (add_child(parent, d, &cap))
			return -1;
	}
	return 0;
}

static void count_type(struct j2_tree *t, uint32_t mode)
{
	if (S_ISREG(mode))
		t->files++;
	else if (S_ISDIR(mode))
		t->dirs++;
	else if (S_ISLNK(mode))
		t->symlinks++;
	else if (S_ISCHR(mode) || S_ISBLK(mode))
		t->devices++;
	else if (S_ISFIFO(mode))
		t->fifos++;
	else
		t->sockets++;
}

/* Keeps dir's entries that the walk may follow; queues new directories. */
static void visit(struct j2_scan *s, struct j2_tree *t, struct j2_ino *dir, uint32_t *queue,
		  size_t *tail)
{
	size_t k = 0;

	for (size_t i = 0; i < dir->n_children; i++) {
		struct j2_child c = dir->children[i];
		struct j2_ino *in = j2_tree_find(t, c.ino);

		if (S_ISDIR(in->mode)) {
			if (in->reachable) {
				ff_problem_add(&s->prob, "directory inode %u is linked again as \"%.*s\" in directory %u (a directory hard link or loop: not followed)",
					       c.ino, (int)c.len, c.name, dir->ino);
				continue;
			}
			in->reachable = 1;
			in->parent = dir->ino;
			in->nlink = 2;
			dir->nlink++;
			queue[(*tail)++] = (uint32_t)(in - t->inos);
		} else {
			if (in->reachable)
				t->hardlinks++;
			in->reachable = 1;
			in->nlink++;
		}
		c.mode = in->mode;
		dir->children[k++] = c;
	}
	dir->n_children = k;
}

static int walk(struct j2_scan *s, struct j2_tree *t)
{
	uint32_t *queue = malloc((t->n ? t->n : 1) * sizeof(*queue));
	struct j2_ino *root = j2_tree_find(t, 1);
	size_t head = 0, tail = 0;

	if (!queue)
		return -1;
	if (!S_ISDIR(root->mode)) {
		ff_problem_add(&s->prob, "inode 1, the root, has mode 0%o, not a directory's: shown as a directory",
			       root->mode);
		root->mode = S_IFDIR | (root->mode & 07777);
	}
	root->reachable = 1;
	root->nlink = 2;
	queue[tail++] = (uint32_t)(root - t->inos);
	while (head < tail)
		visit(s, t, &t->inos[queue[head++]], queue, &tail);
	free(queue);
	return 0;
}

static void report_unreachable(struct j2_scan *s, struct j2_tree *t)
{
	for (size_t i = 0; i < t->n; i++) {
		struct j2_ino *in = &t->inos[i];

		if (in->reachable) {
			count_type(t, in->mode);
			if (in->isize_cut)
				ff_problem_add(&s->prob, "inode %u: isize %u but its data ends at %llu (the kernel reads %llu bytes)",
					       in->ino, in->isize_cut, (unsigned long long)in->size,
					       (unsigned long long)in->size);
			continue;
		}
		if (in->named || in->meta) {
			/* its names were deleted, or the collector erased the
			 * blocks of its dirents (the deleting one too): the
			 * kernel removes an inode no dirent names, silently */
			t->deleted++;
			continue;
		}
		t->unreachable++;
		if (in->meta)
			ff_problem_add(&s->prob, "inode %u (mode 0%o, %u nodes) is not reachable from the root",
				       in->ino, in->mode, in->n_recs);
		else
			ff_problem_add(&s->prob, "directory inode %u, named only as a parent by dirents, is not reachable from the root",
				       in->ino);
	}
}

int j2_dirs_build(struct j2_scan *s, struct j2_tree *t)
{
	if (s->n_dirents)
		qsort(s->dirents, s->n_dirents, sizeof(*s->dirents), cmp_dirent_rec);
	if (collect(s, t) || walk(s, t))
		return -1;
	report_unreachable(s, t);
	return 0;
}
