/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* ff_tree_finish: the global rules applied once every source is in. */
#include "tree/tree_priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int xattr_cmp(const void *a, const void *b)
{
	return strcmp(((const struct ff_xattr *)a)->name, ((const struct ff_xattr *)b)->name);
}

/* A primary may itself have been redefined as a link after others linked
 * to it; follow the chain (bounded, so a cycle cannot hang us). */
static struct ff_node *primary_of(struct ff_node *n, uint32_t limit)
{
	while (ff_node_link(n) && limit--)
		n = ff_node_link(n);
	return ff_node_link(n) ? NULL : n;
}

static int resolve_links(struct ff_tree *tree, struct ff_err *err)
{
	char path[4096];

	for (struct ff_node *n = tree->root; n; n = ff_tree_next(tree, n)) {
		struct ff_node *p;

		if (!ff_node_link(n))
			continue;
		p = primary_of(n, tree->count);
		if (!p || S_ISDIR(p->mode)) {
			ff_node_path(n, path, sizeof(path));
			return ff_err_set(err, EINVAL, "%s: hard link target is %s", path,
					  p ? "a directory" : "part of a link cycle");
		}
		ff_node_set_link(n, p); /* n has its ext: cannot fail */
	}
	return 0;
}

int ff_node_take_content(struct ff_node *to, struct ff_node *from)
{
	struct ff_node tmp = *to;
	struct ff_node_ext *te = ff_node_ext(to), *fe = ff_node_ext(from);
	struct ff_xattr *x;
	uint16_t nx;

	if (!te || !fe)
		return -1;
	to->mode = from->mode;
	to->uid = from->uid;
	to->gid = from->gid;
	to->mtime = from->mtime;
	to->size = from->size;
	to->dense = from->dense;
	to->target = from->target; /* the union: a device's rdev too */
	x = te->xattrs;
	nx = te->n_xattrs;
	te->xattrs = fe->xattrs;
	te->n_xattrs = fe->n_xattrs;
	/* the whole content union (its members are 8 bytes); never
	 * src_in_dir: a link target has its own src_path */
	to->spool_off = from->spool_off;
	to->src_kind = from->src_kind;
	te->link = NULL;
	from->target = tmp.target;
	fe->xattrs = x;
	fe->n_xattrs = nx;
	from->spool_off = tmp.spool_off;
	from->src_kind = tmp.src_kind;
	from->src_in_dir = tmp.src_in_dir;
	fe->link = to;
	return 0;
}

/* The first name of n's hard-link group (n a primary) when that is not n
 * itself, else NULL. */
static struct ff_node *first_name(const struct ff_hmap *firsts, const struct ff_node *p)
{
	uint64_t v;

	return firsts->n && ff_hmap_find(firsts, &p, sizeof(p), &v) ? (struct ff_node *)(uintptr_t)v
								    : NULL;
}

/* The primary of a hard-link group becomes its first name in pre-order, so
 * a tar archive (whose first member is the primary) and the directory it came
 * from give the same tree.  priv holds pre-order positions here and is
 * cleared afterwards; the groups whose primary is not their first name are
 * in a map (a node has no room for a pointer). */
static int canonical_primaries(struct ff_tree *tree, struct ff_err *err)
{
	struct ff_hmap firsts = {0};
	struct ff_node *n, *f, *l;
	uint32_t pos = 0;

	for (n = tree->root; n; n = ff_tree_next(tree, n))
		n->priv = ++pos;
	for (n = tree->root; n; n = ff_tree_next(tree, n))
		if ((l = ff_node_link(n)) && l->priv > n->priv && !first_name(&firsts, l) &&
		    ff_hmap_set(&firsts, &l, sizeof(l), (uint64_t)(uintptr_t)n)) {
			ff_hmap_clear(&firsts, NULL);
			return ff_err_set(err, ENOMEM, "out of memory for hard links");
		}
	for (n = tree->root; n; n = ff_tree_next(tree, n))
		if (ff_node_link(n) && (f = first_name(&firsts, ff_node_link(n))))
			ff_node_set_link(n, f); /* n has its ext */
	for (n = tree->root; n; n = ff_tree_next(tree, n))
		if (!ff_node_link(n) && (f = first_name(&firsts, n)) &&
		    ff_node_take_content(f, n)) {
			ff_hmap_clear(&firsts, NULL);
			return ff_err_set(err, ENOMEM, "out of memory for hard links");
		}
	for (n = tree->root; n; n = ff_tree_next(tree, n))
		n->priv = 0;
	ff_hmap_clear(&firsts, NULL);
	return 0;
}

static void apply_opts(const struct ff_tree_opts *o, struct ff_node *n)
{
	if (o->all_root)
		n->uid = n->gid = 0;
	if (o->force_uid >= 0)
		n->uid = (uint32_t)o->force_uid;
	if (o->force_gid >= 0)
		n->gid = (uint32_t)o->force_gid;
	if (o->all_time >= 0)
		n->mtime = o->all_time;
	if (o->clamp_time >= 0 && n->mtime > o->clamp_time)
		n->mtime = o->clamp_time;
	n->uid += o->uid_gid_offset;
	n->gid += o->uid_gid_offset;
	if (o->force_file_mode && !S_ISDIR(n->mode))
		ff_node_mode_apply(o->force_file_mode, n);
	if (o->force_dir_mode && S_ISDIR(n->mode))
		ff_node_mode_apply(o->force_dir_mode, n);
}

/* -root-*: after the global rules, as mksquashfs applies them. */
static void apply_root_opts(const struct ff_tree_opts *o, struct ff_node *root)
{
	if (o->root_mode)
		ff_node_mode_apply(o->root_mode, root);
	if (o->root_set & FF_ROOT_UID)
		root->uid = (uint32_t)o->root_uid;
	if (o->root_set & FF_ROOT_GID)
		root->gid = (uint32_t)o->root_gid;
	if (o->root_set & FF_ROOT_TIME)
		root->mtime = o->root_time;
}

static void drop_xattrs(struct ff_node *n)
{
	ff_node_free_xattrs(n);
}

static void sort_dirs(struct ff_node *n)
{
	if (n->n_children > 1)
		qsort(n->children, n->n_children, sizeof(*n->children), ff_node_name_cmp);
	for (uint32_t i = 0; i < n->n_children; i++)
		sort_dirs(n->children[i]);
}

/* Pre-order numbers, which also serve the walk: each node is numbered
 * before the walk climbs out of it, so the next step's guess is right. */
static uint32_t number_nodes(struct ff_tree *tree)
{
	uint32_t index = 0;

	tree->numbered = 0;
	for (struct ff_node *n = tree->root; n; n = ff_tree_next(tree, n))
		n->index = ++index;
	return index;
}

/* Numbering, totals, hard-link counts; extra names mirror their primary's
 * metadata so a builder that ignores `link` still sees a consistent node.
 * A group's count lives in its primary's ext (ff_node_nlink), which it may
 * have to be given here: -1 when out of memory. */
static int count_and_number(struct ff_tree *tree, struct ff_err *err)
{
	uint32_t count = number_nodes(tree);
	struct ff_node *n;
	struct ff_node_ext *e;

	tree->data_bytes = 0;
	for (n = tree->root; n; n = ff_tree_next(tree, n)) {
		if ((e = ff_node_ext_of(n)))
			e->nlink = 0;
		if (!ff_node_link(n) && S_ISREG(n->mode))
			tree->data_bytes += n->size;
	}
	tree->numbered = 1;
	for (n = tree->root; n; n = ff_tree_next(tree, n)) {
		struct ff_node *p = ff_node_link(n);

		if (!p)
			continue;
		if (!(e = ff_node_ext(p)))
			return ff_err_set(err, ENOMEM, "out of memory for hard links");
		e->nlink = (e->nlink ? e->nlink : 1) + 1;
		n->mode = p->mode;
		n->uid = p->uid;
		n->gid = p->gid;
		n->mtime = p->mtime;
		n->size = p->size;
		if (S_ISCHR(p->mode) || S_ISBLK(p->mode)) { /* else a pointer's word */
			n->rdev_major = p->rdev_major;
			n->rdev_minor = p->rdev_minor;
		}
	}
	tree->count = count;
	return 0;
}

int ff_tree_finish(struct ff_tree *tree, struct ff_err *err)
{
	if (ff_tree_check_open(tree, err))
		return -1;
	/* the gathered tail of the spool reaches the file now, where a full
	 * disk is still reported as the source's problem */
	if (tree->spool && ff_spool_end_writes(tree->spool, err))
		return -1;
	sort_dirs(tree->root);
	/* numbered now (and again below, once links and actions have had
	 * their say) so that the walks in between find each node's position
	 * from its number (tree.c, child_pos) */
	number_nodes(tree);
	if (ff_actions_apply(tree, tree->opts.actions, err) || resolve_links(tree, err) ||
	    ff_xattr_filter_apply(tree, err) || ff_tree_xattrs_add(tree, err) ||
	    canonical_primaries(tree, err))
		return -1;
	for (struct ff_node *n = tree->root; n; n = ff_tree_next(tree, n)) {
		/* an appended image's objects stay as they are, as in mksquashfs */
		if (ff_node_link(n) || n->src_kind == FF_SRC_IMG)
			continue;
		apply_opts(&tree->opts, n);
		if (tree->opts.no_xattrs)
			drop_xattrs(n);
		else if (ff_node_n_xattrs(n) > 1)
			qsort(ff_node_xattrs(n), ff_node_n_xattrs(n), sizeof(*ff_node_xattrs(n)), xattr_cmp);
	}
	ff_tree_restore_owners(tree);
	apply_root_opts(&tree->opts, tree->root);
	if (count_and_number(tree, err))
		return -1;
	tree->finished = 1;
	ff_tree_drop_index(tree);
	return 0;
}
