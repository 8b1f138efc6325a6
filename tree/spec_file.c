/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Spec files (docs/spec-format.md): gen_init_cpio / gensquashfs style lines
 *
 *   dir PATH MODE UID GID            file PATH MODE UID GID [SOURCE]
 *   slink PATH MODE UID GID TARGET   link PATH [- - -] TARGET
 *   nod PATH MODE UID GID c|b MAJ MIN pipe|sock PATH MODE UID GID
 *   attr PATH MODE UID GID
 *
 * each optionally followed by mtime=SECONDS and xattr=NAME=VALUE words.  A
 * line for an existing path overrides it; "-" keeps a MODE/UID/GID. */
#include "tree/tree_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct spec_kind {
	const char *name;
	uint32_t type;      /* S_IFMT bits; 0 for attr */
	int min_args, max_args; /* words after GID */
};

static const struct spec_kind kinds[] = {
	{ "dir", S_IFDIR, 0, 0 },   { "file", S_IFREG, 0, 1 },  { "slink", S_IFLNK, 1, 1 },
	{ "symlink", S_IFLNK, 1, 1 }, { "nod", 0, 3, 3 },       { "pipe", S_IFIFO, 0, 0 },
	{ "fifo", S_IFIFO, 0, 0 },  { "sock", S_IFSOCK, 0, 0 }, { "socket", S_IFSOCK, 0, 0 },
	{ "attr", 0, 0, 0 },
};

struct spec_ctx {
	struct ff_tree *tree;
	char dir[4096];     /* the spec file's directory, for relative SOURCEs */
};

/* What one line asks for, fields already parsed. */
struct spec_entry {
	const struct spec_kind *kind;
	uint32_t type;
	char *path;
	int keep_mode, keep_uid, keep_gid;
	uint32_t mode, uid, gid;
	const char *const *args;
	int n_args;
	const char *const *attrs;
	int n_attrs;
};

static int is_attr(const char *w)
{
	return !strncmp(w, "mtime=", 6) || !strncmp(w, "xattr=", 6);
}

static int field(const char *w, const char *what, int base, uint32_t max, int *keep,
		 uint32_t *out, struct ff_err *err)
{
	*keep = !strcmp(w, "-");
	if (*keep || ff_parse_u32(w, base, max, out) == 0)
		return 0;
	return ff_err_set(err, EINVAL, "bad %s \"%s\"", what, w);
}

static int device_type(struct spec_entry *e, struct ff_err *err)
{
	const char *t = e->args[0];

	if (strcmp(t, "c") && strcmp(t, "b"))
		return ff_err_set(err, EINVAL, "device type \"%s\" is not c or b", t);
	e->type = t[0] == 'c' ? S_IFCHR : S_IFBLK;
	return 0;
}

static int parse_entry(struct ff_tokens *t, struct spec_entry *e, struct ff_err *err)
{
	int i;

	if (t->n < 5)
		return ff_err_set(err, EINVAL, "\"%s\" needs PATH MODE UID GID", t->v[0]);
	if (field(t->v[2], "mode", 8, 07777, &e->keep_mode, &e->mode, err) ||
	    field(t->v[3], "uid", 10, UINT32_MAX, &e->keep_uid, &e->uid, err) ||
	    field(t->v[4], "gid", 10, UINT32_MAX, &e->keep_gid, &e->gid, err))
		return -1;
	for (i = 5; i < t->n && i - 5 < e->kind->max_args; i++)
		if (i - 5 >= e->kind->min_args && is_attr(t->v[i]))
			break;
	e->args = (const char *const *)&t->v[5];
	e->n_args = i - 5;
	e->attrs = (const char *const *)&t->v[i];
	e->n_attrs = t->n - i;
	if (e->n_args < e->kind->min_args)
		return ff_err_set(err, EINVAL, "\"%s\" needs %d word%s after GID, got %d",
				  t->v[0], e->kind->min_args, e->kind->min_args == 1 ? "" : "s",
				  e->n_args);
	for (i = 0; i < e->n_attrs; i++)
		if (!is_attr(e->attrs[i]))
			return ff_err_set(err, EINVAL, "unexpected word \"%s\" (attributes are "
					  "mtime=SECONDS or xattr=NAME=VALUE)", e->attrs[i]);
	e->type = e->kind->type;
	return strcmp(e->kind->name, "nod") ? 0 : device_type(e, err);
}

static int set_attr(struct ff_node *n, const char *w, struct ff_err *err)
{
	if (strncmp(w, "mtime=", 6))
		return ff_node_set_xattr_text(n, w + 6, err);
	if (ff_parse_i64(w + 6, &n->mtime))
		return ff_err_set(err, EINVAL, "bad mtime \"%s\"", w + 6);
	return 0;
}

static int set_source(struct spec_ctx *c, struct ff_node *n, const char *src, struct ff_err *err)
{
	char path[4096];
	struct stat st;
	int fd;

	if (src[0] == '/')
		snprintf(path, sizeof(path), "%s", src);
	else if (snprintf(path, sizeof(path), "%s/%s", c->dir, src) >= (int)sizeof(path))
		return ff_err_set(err, ENAMETOOLONG, "source path \"%s\" too long", src);
	if (stat(path, &st))
		return ff_err_sys(err, errno, "source \"%s\"", path);
	if (!S_ISREG(st.st_mode))
		return ff_err_set(err, EINVAL, "source \"%s\" is not a regular file", path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ff_err_sys(err, errno, "source \"%s\"", path);
	close(fd);
	n->size = (uint64_t)st.st_size;
	n->dense = (uint64_t)st.st_blocks * 512 >= n->size;
	return ff_node_set_src(n, path, err);
}

static int check_new(const struct spec_entry *e, struct ff_err *err)
{
	if (e->keep_mode || e->keep_uid || e->keep_gid)
		return ff_err_set(err, EINVAL, "\"%s\" does not exist yet, so MODE UID GID cannot be \"-\"",
				  e->path);
	if (!e->type)
		return ff_err_set(err, ENOENT, "attr: \"%s\" does not exist", e->path);
	return 0;
}

/* The node for a line: found, reset to a new type, or created. */
static struct ff_node *entry_node(struct spec_ctx *c, const struct spec_entry *e, int *kept,
				  struct ff_err *err)
{
	struct ff_node *n = ff_tree_lookup(c->tree, e->path);

	*kept = 0;
	if (n && (!e->type || ((ff_node_primary(n))->mode & S_IFMT) == e->type)) {
		/* same type: dir and file-without-SOURCE keep their content */
		*kept = !e->type || e->type == S_IFDIR || (e->type == S_IFREG && !e->n_args);
		if (*kept)
			return ff_node_primary(n);
	}
	if (!n && check_new(e, err))
		return NULL;
	return ff_tree_put_path(c->tree, e->path, e->type, err);
}

static int apply_entry(struct spec_ctx *c, const struct spec_entry *e, struct ff_err *err)
{
	int kept;
	struct ff_node *n = entry_node(c, e, &kept, err);

	if (!n)
		return -1;
	if (!kept && (e->keep_mode || e->keep_uid || e->keep_gid))
		return ff_err_set(err, EINVAL, "\"%s\" changes type, so MODE UID GID cannot be \"-\"",
				  e->path);
	if (!e->keep_mode)
		n->mode = (n->mode & S_IFMT) | e->mode;
	if (!e->keep_uid)
		n->uid = e->uid;
	if (!e->keep_gid)
		n->gid = e->gid;
	if (e->type == S_IFLNK && ff_node_set_target(n, e->args[0], strlen(e->args[0]), err))
		return -1;
	if ((e->type == S_IFCHR || e->type == S_IFBLK) &&
	    (ff_parse_u32(e->args[1], 10, 0xfff, &n->rdev_major) ||
	     ff_parse_u32(e->args[2], 10, 0xfffff, &n->rdev_minor)))
		return ff_err_set(err, EINVAL, "bad device number \"%s %s\" (major 0..4095, minor "
				  "0..1048575)", e->args[1], e->args[2]);
	if (e->type == S_IFREG && e->n_args && set_source(c, n, e->args[0], err))
		return -1;
	for (int i = 0; i < e->n_attrs; i++)
		if (set_attr(n, e->attrs[i], err))
			return -1;
	return 0;
}

static int hard_link(struct spec_ctx *c, struct ff_tokens *t, const char *path,
		     struct ff_err *err)
{
	if (t->n != 3 && t->n != 6)
		return ff_err_set(err, EINVAL, "link needs PATH TARGET (or PATH - - - TARGET)");
	return ff_tree_put_link(c->tree, path, t->v[t->n - 1], err) ? 0 : -1;
}

static const struct spec_kind *find_kind(const char *name)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(kinds[i].name, name))
			return &kinds[i];
	return NULL;
}

static int spec_line(void *ctx, const char *line, unsigned lineno, struct ff_err *err)
{
	struct spec_ctx *c = ctx;
	struct spec_entry e = { 0 };
	struct ff_tokens t;
	int rc = -1;

	(void)lineno;
	if (ff_tokenize(line, &t, err))
		goto out;
	if (t.n == 0) {
		rc = 0;
		goto out;
	}
	if (!(e.kind = find_kind(t.v[0])) && strcmp(t.v[0], "link")) {
		ff_err_set(err, EINVAL, "unknown line kind \"%s\"", t.v[0]);
		goto out;
	}
	if (t.n < 2 || !(e.path = strdup(t.v[1]))) {
		ff_err_set(err, EINVAL, "\"%s\" needs a PATH", t.v[0]);
		goto out;
	}
	if (ff_path_normalise(e.path, err))
		ff_err_prefix(err, "\"%s\"", t.v[1]);
	else if (!e.kind)
		rc = hard_link(c, &t, e.path, err);
	else if (parse_entry(&t, &e, err) == 0)
		rc = apply_entry(c, &e, err);
out:
	free(e.path);
	ff_tokens_free(&t);
	return rc;
}

int ff_tree_add_spec(struct ff_tree *tree, const char *spec_path, struct ff_err *err)
{
	struct spec_ctx c = { .tree = tree };
	const char *slash = strrchr(spec_path, '/');

	if (ff_tree_check_open(tree, err))
		return -1;
	if (!slash)
		snprintf(c.dir, sizeof(c.dir), ".");
	else if (slash == spec_path)
		snprintf(c.dir, sizeof(c.dir), "/");
	else
		snprintf(c.dir, sizeof(c.dir), "%.*s", (int)(slash - spec_path), spec_path);
	return ff_lines_each(spec_path, spec_line, &c, err);
}
