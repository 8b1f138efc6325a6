/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Directories and tar files enter the corpus through the tree/ model,
 * so the bench sees the same entries, order and metadata mkfs.squashfs
 * would put in an image. */
#include "bench/bench.h"
#include "tree/tree.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static struct ff_tree *load_tree(const char *source, struct ff_err *err)
{
	struct ff_tree_opts o = { .force_uid = -1, .force_gid = -1, .all_time = -1,
				  .clamp_time = -1 };
	struct ff_tree *t = ff_tree_new(&o, err);
	struct stat st;
	int rc;

	if (!t)
		return NULL;
	if (stat(source, &st))
		rc = ff_err_sys(err, errno, "%s", source);
	else if (S_ISDIR(st.st_mode))
		rc = ff_tree_add_dir(t, source, err);
	else
		rc = ff_tree_add_tar(t, source, err);
	if (!rc)
		rc = ff_tree_finish(t, err);
	if (rc) {
		ff_tree_free(t);
		return NULL;
	}
	return t;
}

/* Owned copies of a node's xattrs. */
static int copy_xattrs(struct bench_node *b, const struct ff_node *n, struct ff_err *err)
{
	b->xattrs = ff_node_n_xattrs(n) ? calloc(ff_node_n_xattrs(n), sizeof(*b->xattrs)) : NULL;
	b->n_xattrs = 0;
	if (ff_node_n_xattrs(n) && !b->xattrs)
		return ff_err_set(err, ENOMEM, "bench: out of memory");
	for (uint32_t k = 0; k < ff_node_n_xattrs(n); k++) {
		struct ff_xattr *x = &b->xattrs[k];

		x->name = strdup(ff_node_xattrs(n)[k].name);
		x->value = malloc(ff_node_xattrs(n)[k].len + 1);
		x->len = ff_node_xattrs(n)[k].len;
		b->n_xattrs++;
		if (!x->name || !x->value)
			return ff_err_set(err, ENOMEM, "bench: out of memory");
		memcpy(x->value, ff_node_xattrs(n)[k].value, x->len);
	}
	return 0;
}

static void fill_node(struct bench_node *b, const struct ff_node *n)
{
	b->mode = n->mode;
	b->uid = n->uid;
	b->gid = n->gid;
	b->mtime = n->mtime;
	b->size = S_ISLNK(n->mode) && n->target ? strlen(n->target) : n->size;
	if (S_ISCHR(n->mode) || S_ISBLK(n->mode)) { /* else children or target */
		b->rdev_major = n->rdev_major;
		b->rdev_minor = n->rdev_minor;
	}
	b->dense = n->dense;
	b->file = -1;
	b->link_of = -1;
}

static int read_content(struct bench_corpus *c, const struct ff_tree *t, const struct ff_node *n,
			uint32_t idx, struct ff_err *err)
{
	uint8_t *dst = bench_corpus_reserve_file(c, idx, n->size, err);
	struct ff_data *d;
	uint64_t off = 0;

	if (!dst)
		return -1;
	d = ff_tree_open_data(t, n, err);
	if (!d)
		return -1;
	while (off < n->size) {
		size_t want = n->size - off > (1u << 30) ? (1u << 30) : (size_t)(n->size - off);
		ssize_t got = ff_data_pread(d, dst + off, want, off, err);

		if (got <= 0) {
			ff_data_close(d);
			return got < 0 ? -1 : ff_err_set(err, EIO, "file shrank while reading");
		}
		off += (uint64_t)got;
	}
	ff_data_close(d);
	return 0;
}

/* Every tree node gets its corpus index in priv first, because a hard
 * link's primary may come after it in pre-order. */
static uint32_t number_nodes(struct ff_tree *t, uint32_t first, int skip_root)
{
	uint32_t k = first;

	for (struct ff_node *n = ff_tree_root(t); n; n = ff_tree_next(t, n))
		if (!(skip_root && !n->parent))
			n->priv = k++;
	return k;
}

static int push_one(struct bench_corpus *c, const struct ff_tree *t, const struct ff_node *n,
		    uint32_t top, const char *rename, struct ff_err *err)
{
	struct bench_node b = { 0 };
	uint32_t idx = (uint32_t)c->n_nodes;
	/* target shares its word with a directory's children */
	const char *target = S_ISLNK(n->mode) ? n->target : NULL;

	fill_node(&b, n);
	b.parent = n->parent ? n->parent->priv : top;
	if (ff_node_link(n))
		b.link_of = (int32_t)ff_node_link(n)->priv;
	b.name = rename ? strdup(rename) : strndup(ff_node_name(n), n->name_len);
	b.target = target ? strdup(target) : NULL;
	if ((ff_node_link(n) || copy_xattrs(&b, n, err) == 0) && b.name && (!target || b.target) &&
	    bench_corpus_push_node(c, &b, err) == 0)
		b.name = NULL;
	if (b.name) {
		/* not pushed: the node's copies are still ours */
		bench_node_free(&b);
		return err->msg[0] ? -1 : ff_err_set(err, ENOMEM, "bench: out of memory");
	}
	if (S_ISREG(n->mode) && !ff_node_link(n)) {
		char path[4096];

		if (read_content(c, t, n, idx, err)) {
			ff_node_path(n, path, sizeof(path));
			return ff_err_prefix(err, "%s", path);
		}
	}
	return 0;
}

int bench_corpus_add_tree(struct bench_corpus *c, const char *source, uint32_t parent,
			  const char *name, struct ff_err *err)
{
	struct ff_tree *t = load_tree(source, err);
	struct ff_node *root;
	int rc = 0;

	if (!t)
		return -1;
	root = ff_tree_root(t);
	if (!name) {
		/* the source's root is the corpus root: take its metadata only */
		uint32_t kids = c->nodes[parent].n_children;
		char *keep = c->nodes[parent].name;

		fill_node(&c->nodes[parent], root);
		c->nodes[parent].name = keep;
		c->nodes[parent].n_children = kids;
		rc = copy_xattrs(&c->nodes[parent], root, err);
		root->priv = parent;
		number_nodes(t, (uint32_t)c->n_nodes, 1);
	} else {
		number_nodes(t, (uint32_t)c->n_nodes, 0);
	}
	for (struct ff_node *n = root; n && !rc; n = ff_tree_next(t, n)) {
		if (!n->parent && !name)
			continue;
		rc = push_one(c, t, n, parent, n->parent ? NULL : name, err);
	}
	ff_tree_free(t);
	return rc ? ff_err_prefix(err, "%s", source) : 0;
}
