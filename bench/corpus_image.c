/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* An existing image (any format flashfs reads) as a corpus, read through the one fs
 * interface (common/fs.h).  Hard links are found by equal handles. */
#include "bench/bench.h"
#include "common/fs.h"
#include "common/vec.h"
#include "image/image.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A hard-linked inode met already: its handle and its corpus node. */
struct link_seen {
	uint64_t handle;
	uint32_t node;
};

struct walk {
	struct bench_corpus *c;
	struct ff_fs *fs;
	struct ff_vec links;  /* struct link_seen */
	struct ff_err *err;
};

static int32_t find_link(const struct walk *w, uint64_t handle)
{
	for (size_t i = 0; i < w->links.len; i++) {
		const struct link_seen *l = FF_VEC_AT(&w->links, struct link_seen, i);

		if (l->handle == handle)
			return (int32_t)l->node;
	}
	return -1;
}

static int remember_link(struct walk *w, uint64_t handle, uint32_t idx)
{
	struct link_seen l = { .handle = handle, .node = idx };

	if (ff_vec_push(&w->links, &l) < 0)
		return ff_err_set(w->err, ENOMEM, "bench: out of memory");
	return 0;
}

static int read_file(struct walk *w, uint64_t handle, uint32_t idx, uint64_t size)
{
	uint8_t *dst = bench_corpus_reserve_file(w->c, idx, size, w->err);
	uint64_t off = 0;

	if (!dst)
		return -1;
	while (off < size) {
		size_t want = size - off > (1u << 30) ? (1u << 30) : (size_t)(size - off);
		ssize_t got = w->fs->ops->read(w->fs, handle, dst + off, want, off);

		if (got <= 0)
			return ff_err_set(w->err, got ? (int)-got : EIO,
					  "read failed at offset %llu of %llu",
					  (unsigned long long)off, (unsigned long long)size);
		off += (uint64_t)got;
	}
	return 0;
}

static int walk_dir(struct walk *w, uint64_t dir, uint32_t dir_idx);

struct xattr_names {
	struct walk *w;
	struct bench_node *b;
	uint64_t handle;
	int failed;
};

/* One xattr of the entry, copied into the corpus node. */
static int add_xattr(void *ctx, const char *name, size_t len)
{
	struct xattr_names *x = ctx;
	struct ff_fs *fs = x->w->fs;
	struct ff_xattr *tab = realloc(x->b->xattrs, (x->b->n_xattrs + 1) * sizeof(*tab));
	struct ff_xattr *e;
	ssize_t n;

	if (!tab)
		return x->failed = 1;
	x->b->xattrs = tab;
	e = &tab[x->b->n_xattrs];
	e->name = strndup(name, len);
	n = e->name ? fs->ops->getxattr(fs, x->handle, e->name, NULL, 0) : -ENOMEM;
	e->value = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (!e->value || fs->ops->getxattr(fs, x->handle, e->name, e->value, (size_t)n) != n) {
		free(e->name);
		free(e->value);
		return x->failed = 1;
	}
	e->len = (uint32_t)n;
	x->b->n_xattrs++;
	return 0;
}

static int read_xattrs(struct walk *w, uint64_t handle, struct bench_node *b)
{
	struct xattr_names x = { .w = w, .b = b, .handle = handle };
	int rc = w->fs->ops->listxattr(w->fs, handle, add_xattr, &x);

	if (rc < 0 || x.failed)
		return ff_err_set(w->err, rc < 0 ? -rc : EIO, "cannot read extended attributes");
	return 0;
}

static char *read_target(struct walk *w, uint64_t handle, uint64_t size)
{
	char *t = size < 65536 ? calloc(1, (size_t)size + 1) : NULL;

	if (t && w->fs->ops->readlink(w->fs, handle, t, (size_t)size + 1) < 0) {
		free(t);
		return NULL;
	}
	return t;
}

static int add_entry(struct walk *w, const struct ff_dirent *e, uint32_t parent)
{
	struct bench_node b = { .parent = parent, .file = -1, .link_of = -1 };
	struct ff_stat st;
	uint32_t idx = (uint32_t)w->c->n_nodes;
	int rc = w->fs->ops->getattr(w->fs, e->handle, &st);

	if (rc)
		return ff_err_set(w->err, -rc, "%s: cannot stat", e->name);
	b.mode = st.mode;
	b.uid = st.uid;
	b.gid = st.gid;
	b.mtime = st.mtime;
	b.size = st.size;
	b.rdev_major = st.rdev_major;
	b.rdev_minor = st.rdev_minor;
	if (!S_ISDIR(st.mode) && st.nlink > 1)
		b.link_of = find_link(w, e->handle);
	b.name = strdup(e->name);
	if (S_ISLNK(st.mode))
		b.target = read_target(w, e->handle, st.size);
	if (b.link_of < 0 && read_xattrs(w, e->handle, &b))
		rc = -1;
	if (rc || !b.name || (S_ISLNK(st.mode) && !b.target) ||
	    bench_corpus_push_node(w->c, &b, w->err)) {
		bench_node_free(&b);
		return rc ? ff_err_prefix(w->err, "%s", e->name)
			  : ff_err_set(w->err, ENOMEM, "bench: out of memory");
	}
	if (!S_ISDIR(st.mode) && st.nlink > 1 && b.link_of < 0 && remember_link(w, e->handle, idx))
		return -1;
	if (S_ISREG(st.mode) && b.link_of < 0 && read_file(w, e->handle, idx, st.size))
		return ff_err_prefix(w->err, "%s", e->name);
	return S_ISDIR(st.mode) ? walk_dir(w, e->handle, idx) : 0;
}

static int walk_dir(struct walk *w, uint64_t dir, uint32_t dir_idx)
{
	struct ff_dirlist l;
	int rc = ff_fs_list_dir(w->fs, dir, 0, &l);

	if (rc)
		return ff_err_set(w->err, -rc, "cannot list a directory");
	for (size_t i = 0; i < l.n && !rc; i++)
		rc = add_entry(w, &l.v[i], dir_idx);
	ff_dirlist_free(&l);
	return rc;
}

static int open_image(const char *source, struct ff_fs **fs, struct ff_err *err)
{
	struct ff_open_opts o = {0};

	return ff_image_open(source, &o, fs, err);
}

int bench_corpus_add_image(struct bench_corpus *c, const char *source, uint32_t parent,
			   const char *name, struct ff_err *err)
{
	struct walk w = { .c = c, .links = FF_VEC_INIT(struct link_seen), .err = err };
	uint32_t top = parent;
	int rc;

	if (open_image(source, &w.fs, err))
		return -1;
	if (name) {
		struct bench_node b = { .parent = parent, .mode = S_IFDIR | 0755, .file = -1,
					.link_of = -1, .name = strdup(name) };

		top = (uint32_t)c->n_nodes;
		if (!b.name || bench_corpus_push_node(c, &b, err)) {
			free(b.name);
			ff_fs_close(w.fs);
			return ff_err_set(err, ENOMEM, "bench: out of memory");
		}
	}
	rc = walk_dir(&w, w.fs->ops->root(w.fs), top);
	ff_fs_close(w.fs);
	ff_vec_free(&w.links);
	return rc ? ff_err_prefix(err, "%s", source) : 0;
}
