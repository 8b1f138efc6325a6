/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The corpus: every source read into memory once, so that each codec and
 * block size sees exactly the same bytes without touching the disk again. */
#include "bench/bench.h"
#include "image/image.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct bench_corpus *bench_corpus_new(struct ff_err *err)
{
	struct bench_corpus *c = calloc(1, sizeof(*c));
	struct bench_node root = { .name = NULL, .mode = S_IFDIR | 0755, .file = -1, .link_of = -1 };

	if (!c) {
		ff_err_set(err, ENOMEM, "bench: out of memory");
		return NULL;
	}
	root.name = strdup("");
	if (!root.name || bench_corpus_push_node(c, &root, err)) {
		free(root.name);
		bench_corpus_free(c);
		return NULL;
	}
	return c;
}

void bench_node_free(struct bench_node *n)
{
	free(n->name);
	free(n->target);
	for (uint32_t k = 0; k < n->n_xattrs; k++) {
		free(n->xattrs[k].name);
		free(n->xattrs[k].value);
	}
	free(n->xattrs);
}

void bench_corpus_free(struct bench_corpus *c)
{
	if (!c)
		return;
	ff_tree_free(c->tree);
	for (size_t i = 0; i < c->n_nodes; i++)
		bench_node_free(&c->nodes[i]);
	free(c->nodes);
	free(c->files);
	free(c->data);
	free(c);
}

static int grow(void **p, size_t *cap, size_t need, size_t elem, struct ff_err *err)
{
	size_t n = *cap ? *cap : 64;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	q = realloc(*p, n * elem);
	if (!q)
		return ff_err_set(err, ENOMEM, "bench: out of memory for %zu corpus entries", n);
	*p = q;
	*cap = n;
	return 0;
}

/* Takes ownership of n->name. */
int bench_corpus_push_node(struct bench_corpus *c, const struct bench_node *n,
			   struct ff_err *err)
{
	if (grow((void **)&c->nodes, &c->cap_nodes, c->n_nodes + 1, sizeof(*n), err))
		return -1;
	c->nodes[c->n_nodes] = *n;
	if (c->n_nodes)
		c->nodes[n->parent].n_children++;
	if (S_ISDIR(n->mode))
		c->n_dirs++;
	c->n_nodes++;
	return 0;
}

/* Room for the content of regular-file node `node`; the caller fills it. */
uint8_t *bench_corpus_reserve_file(struct bench_corpus *c, uint32_t node, uint64_t size,
				   struct ff_err *err)
{
	uint64_t cap = c->data_cap ? c->data_cap : (1u << 20);
	struct bench_file *f;

	if (grow((void **)&c->files, &c->cap_files, c->n_files + 1, sizeof(*f), err))
		return NULL;
	while (cap < c->data_len + size)
		cap *= 2;
	if (cap != c->data_cap) {
		uint8_t *d = realloc(c->data, cap);

		if (!d) {
			ff_err_set(err, ENOMEM, "bench: out of memory for %llu bytes of corpus",
				   (unsigned long long)cap);
			return NULL;
		}
		c->data = d;
		c->data_cap = cap;
	}
	f = &c->files[c->n_files];
	f->off = c->data_len;
	f->size = size;
	f->dup_of = -1;
	c->nodes[node].file = (int32_t)c->n_files++;
	c->data_len += size;
	return c->data + f->off;
}

/* Any image the registry opens (a tar archive is only detected there, so
 * it stays a tree source). */
int bench_is_image(const char *path)
{
	struct ff_open_opts o = {0};
	struct ff_err e = {0};
	struct ff_fs *fs = NULL;

	if (ff_image_open(path, &o, &fs, &e))
		return 0;
	ff_fs_close(fs);
	return 1;
}

int bench_corpus_add(struct bench_corpus *c, const char *source, int as_root,
		     struct ff_err *err)
{
	const char *base = strrchr(source, '/');
	uint32_t parent = 0;
	struct stat st;

	if (stat(source, &st))
		return ff_err_sys(err, errno, "%s", source);
	base = base ? base + 1 : source;
	if (!as_root && !*base)
		return ff_err_set(err, EINVAL, "%s: give sources without a trailing '/'", source);
	if (!S_ISDIR(st.st_mode) && bench_is_image(source))
		return bench_corpus_add_image(c, source, parent, as_root ? NULL : base, err);
	return bench_corpus_add_tree(c, source, parent, as_root ? NULL : base, err);
}

static int cmp_content(const void *a, const void *b, void *ctx)
{
	const struct bench_corpus *c = ctx;
	const struct bench_file *fa = &c->files[*(const uint32_t *)a];
	const struct bench_file *fb = &c->files[*(const uint32_t *)b];
	int r;

	if (fa->size != fb->size)
		return fa->size < fb->size ? -1 : 1;
	r = fa->size ? memcmp(c->data + fa->off, c->data + fb->off, fa->size) : 0;
	if (r)
		return r;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

static void mark_duplicates(struct bench_corpus *c, uint32_t *order)
{
	size_t i = 0;

	while (i < c->n_files) {
		size_t j = i + 1;
		const struct bench_file *fi = &c->files[order[i]];

		while (j < c->n_files && c->files[order[j]].size == fi->size &&
		       (!fi->size || !memcmp(c->data + c->files[order[j]].off, c->data + fi->off, fi->size)))
			c->files[order[j++]].dup_of = (int32_t)order[i];
		i = j;
	}
}

static uint32_t count_ids(const struct bench_corpus *c)
{
	uint32_t ids[64], n = 0;

	/* Real trees hold a handful of ids; the table is tiny either way, so
	 * more than 64 distinct ones just count as 64. */
	for (size_t i = 0; i < c->n_nodes; i++) {
		uint32_t v[2] = { c->nodes[i].uid, c->nodes[i].gid };

		for (int k = 0; k < 2; k++) {
			uint32_t j = 0;

			while (j < n && ids[j] != v[k])
				j++;
			if (j == n && n < 64)
				ids[n++] = v[k];
		}
	}
	return n;
}

int bench_corpus_finish(struct bench_corpus *c, struct ff_err *err)
{
	uint32_t *order = malloc((c->n_files + 1) * sizeof(*order));

	if (!order)
		return ff_err_set(err, ENOMEM, "bench: out of memory sorting %zu files", c->n_files);
	for (size_t i = 0; i < c->n_files; i++)
		order[i] = (uint32_t)i;
	qsort_r(order, c->n_files, sizeof(*order), cmp_content, c);
	mark_duplicates(c, order);
	free(order);
	c->unique_bytes = 0;
	for (size_t i = 0; i < c->n_files; i++)
		if (c->files[i].dup_of < 0)
			c->unique_bytes += c->files[i].size;
	c->n_ids = count_ids(c);
	ff_tree_free(c->tree);
	c->tree = bench_corpus_as_tree(c, err);
	return c->tree ? 0 : -1;
}
