/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Device tables: the makedevs format Buildroot, mkfs.jffs2 -D and
 * mkfs.ubifs -D read, one entry a line,
 *
 *   NAME TYPE MODE UID GID MAJOR MINOR START INC COUNT
 *
 * TYPE d (a directory, made if missing), f (a regular file, which must
 * exist: only its mode and owner change), r (a directory and everything
 * below it), c and b (devices), p (a FIFO).  MODE is octal, the others
 * decimal; "-" stands for an unused field.  A c or b line with COUNT > 0
 * makes COUNT nodes NAME<START+i> with minor MINOR + i*INC, as
 * /dev/hda b 640 0 0 3 1 1 1 15 makes hda1..hda15. */
#include "tree/tree_priv.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* One line's fields, numbers parsed. */
struct dt_entry {
	char type;
	uint32_t mode, uid, gid, major, minor, start, inc, count;
	int has_count;
};

/* A number field, or "-" (0, *given left 0). */
static int dt_num(const char *w, const char *what, int base, uint32_t max, uint32_t *out,
		  int *given, struct ff_err *err)
{
	*out = 0;
	if (given)
		*given = 0;
	if (!strcmp(w, "-"))
		return 0;
	if (ff_parse_u32(w, base, max, out))
		return ff_err_set(err, EINVAL, "bad %s \"%s\"", what, w);
	if (given)
		*given = 1;
	return 0;
}

static int dt_parse(const struct ff_tokens *t, struct dt_entry *e, struct ff_err *err)
{
	if (t->n != 10)
		return ff_err_set(err, EINVAL, "%d fields, a device table line has 10: NAME TYPE "
				  "MODE UID GID MAJOR MINOR START INC COUNT", t->n);
	if (strlen(t->v[1]) != 1 || !strchr("dfrcbp", t->v[1][0]))
		return ff_err_set(err, EINVAL, "type \"%s\" is not d, f, r, c, b or p", t->v[1]);
	e->type = t->v[1][0];
	if (dt_num(t->v[2], "mode", 8, 07777, &e->mode, NULL, err) ||
	    dt_num(t->v[3], "uid", 10, UINT32_MAX, &e->uid, NULL, err) ||
	    dt_num(t->v[4], "gid", 10, UINT32_MAX, &e->gid, NULL, err))
		return -1;
	if (e->type != 'c' && e->type != 'b')
		return 0;
	if (dt_num(t->v[5], "major", 10, 0xfff, &e->major, NULL, err) ||
	    dt_num(t->v[6], "minor", 10, 0xfffff, &e->minor, NULL, err) ||
	    dt_num(t->v[7], "start", 10, UINT32_MAX, &e->start, NULL, err) ||
	    dt_num(t->v[8], "inc", 10, 0xfffff, &e->inc, NULL, err) ||
	    dt_num(t->v[9], "count", 10, 0xfffff, &e->count, &e->has_count, err))
		return -1;
	if (e->has_count && (uint64_t)e->minor + (uint64_t)e->inc * e->count > 0xfffff)
		return ff_err_set(err, EINVAL, "minors %u + %u x %u go past 1048575", e->minor,
				  e->inc, e->count);
	return 0;
}

static void dt_attrs(struct ff_node *n, const struct dt_entry *e)
{
	n->mode = (n->mode & S_IFMT) | e->mode;
	n->uid = e->uid;
	n->gid = e->gid;
}

/* r: the directory and everything below it (hard links share their
 * primary's attributes, set once through it). */
static void dt_recurse(struct ff_node *n, const struct dt_entry *e)
{
	if (ff_node_link(n))
		return;
	dt_attrs(n, e);
	for (uint32_t i = 0; i < n->n_children; i++)
		dt_recurse(n->children[i], e);
}

/* f, d, r: an existing entry changed (d also made); p: made. */
static int dt_plain(struct ff_tree *tree, const char *path, const struct dt_entry *e,
		    struct ff_err *err)
{
	struct ff_node *n = ff_tree_lookup(tree, path);
	uint32_t type = e->type == 'p' ? S_IFIFO : S_IFDIR;

	if (n && ff_node_link(n))
		n = ff_node_link(n);
	if (e->type == 'f' || e->type == 'r') {
		if (!n)
			return ff_err_set(err, ENOENT, "\"%s\" does not exist (type %c changes an "
					  "existing entry)", path, e->type);
		if (e->type == 'f' && !S_ISREG(n->mode))
			return ff_err_set(err, EINVAL, "\"%s\" is not a regular file", path);
		if (e->type == 'r')
			dt_recurse(n, e);
		else
			dt_attrs(n, e);
		return 0;
	}
	if (!n || (n->mode & S_IFMT) != type)
		n = ff_tree_put_path(tree, path, type, err);
	if (!n)
		return -1;
	dt_attrs(n, e);
	return 0;
}

static int dt_device(struct ff_tree *tree, const char *path, const struct dt_entry *e,
		     struct ff_err *err)
{
	uint32_t n_nodes = e->has_count ? e->count : 1;
	uint32_t type = e->type == 'c' ? S_IFCHR : S_IFBLK;

	for (uint32_t i = 0; i < n_nodes; i++) {
		char name[4096];
		struct ff_node *n;

		if (!e->has_count)
			snprintf(name, sizeof(name), "%s", path);
		else if (snprintf(name, sizeof(name), "%s%llu", path,
				  (unsigned long long)e->start + i) >= (int)sizeof(name))
			return ff_err_set(err, ENAMETOOLONG, "\"%s\": name too long", path);
		n = ff_tree_put_path(tree, name, type, err);
		if (!n)
			return -1;
		dt_attrs(n, e);
		n->rdev_major = e->major;
		n->rdev_minor = e->minor + i * e->inc;
	}
	return 0;
}

static int dt_line(void *ctx, const char *line, unsigned lineno, struct ff_err *err)
{
	struct ff_tree *tree = ctx;
	struct dt_entry e = { 0 };
	struct ff_tokens t;
	char path[4096];
	int rc = -1;

	(void)lineno;
	if (ff_tokenize(line, &t, err))
		return -1;
	if (t.n == 0)
		rc = 0;
	else if (snprintf(path, sizeof(path), "%s", t.v[0]) >= (int)sizeof(path))
		ff_err_set(err, ENAMETOOLONG, "name too long");
	else if (dt_parse(&t, &e, err) == 0 && ff_path_normalise(path, err) == 0)
		rc = e.type == 'c' || e.type == 'b' ? dt_device(tree, path, &e, err)
						    : dt_plain(tree, path, &e, err);
	if (rc < 0 && t.n > 0)
		ff_err_prefix(err, "\"%s\"", t.v[0]);
	ff_tokens_free(&t);
	return rc;
}

int ff_tree_add_device_table(struct ff_tree *tree, const char *path, struct ff_err *err)
{
	if (ff_tree_check_open(tree, err))
		return -1;
	return ff_lines_each(path, dt_line, tree, err);
}
