/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The directory source: an lstat walk of a host directory (symlinks are
 * never followed), in sorted order so readdir order cannot change which name
 * of a hard-linked file becomes the primary. */
#include "tree/scan_priv.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "common/vec.h"

/* Default exclude mode: the (dev, ino) of every existing path an exclude
 * pattern names, so that all names of an excluded file go (mksquashfs). */
static int excluded_inodes(struct scan *s)
{
	const struct ff_tree *t = s->tree;
	char path[PATH_MAX];

	if (t->opts.exclude_mode != FF_EXCLUDE_DEFAULT || !t->n_excludes)
		return 0;
	s->gone = calloc(t->n_excludes, sizeof(*s->gone));
	if (!s->gone)
		return ff_err_set(s->err, ENOMEM, "excludes: out of memory");
	for (size_t i = 0; i < t->n_excludes; i++) {
		const char *p = t->excludes[i];
		int host = p[0] == '/' || !strncmp(p, "./", 2) || !strncmp(p, "../", 3);

		if (!host && snprintf(path, sizeof(path), "%.*s/%s", (int)s->root_len, s->path,
				      p) >= (int)sizeof(path))
			continue;
		if (lstat(host ? p : path, &s->gone[s->n_gone]) == 0)
			s->n_gone++;
	}
	return 0;
}

static int inode_excluded(const struct scan *s, const struct stat *st)
{
	for (size_t i = 0; i < s->n_gone; i++)
		if (s->gone[i].st_ino == st->st_ino && s->gone[i].st_dev == st->st_dev)
			return 1;
	return 0;
}

/* A directory's entry names (char *), sorted. */
struct names {
	struct ff_vec v;
};

static char *name_at(const struct names *nm, size_t i)
{
	return *FF_VEC_AT(&nm->v, char *, i);
}

static void free_names(struct names *nm)
{
	for (size_t i = 0; i < nm->v.len; i++)
		free(name_at(nm, i));
	ff_vec_free(&nm->v);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

const char *ff_scan_rel_path(const struct scan *s)
{
	return s->path[s->root_len] ? s->path + s->root_len + 1 : "";
}

/* A problem with one entry: an error, or a warning and a skip. */
int ff_scan_entry_problem(struct scan *s, int code, const char *what)
{
	if (s->tree->opts.ignore_errors) {
		ff_tree_warn(s->tree, FF_WARN_SKIPPED, s->path, "%s: %s (skipped)", what,
			     strerror(code));
		return 1;
	}
	ff_err_sys(s->err, code, "%s: %s", s->path, what);
	return -1;
}

/* Returns 0, 1 when the directory is unreadable and skipped, -1 on error. */
static int read_names(struct scan *s, struct names *nm)
{
	DIR *d = opendir(s->path);
	struct dirent *de;

	ff_vec_init(&nm->v, sizeof(char *));
	if (!d)
		return ff_scan_entry_problem(s, errno, "cannot open directory");
	errno = 0;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char *copy = strdup(de->d_name);

		if (!copy || ff_vec_push(&nm->v, &copy) < 0) {
			free(copy);
			goto oom;
		}
	}
	if (errno) {
		int e = errno;

		closedir(d);
		free_names(nm);
		return ff_scan_entry_problem(s, e, "cannot read directory");
	}
	closedir(d);
	if (nm->v.len > 1) /* qsort(NULL, 0) is undefined even when empty */
		qsort(nm->v.data, nm->v.len, sizeof(char *), cmp_str);
	return 0;
oom:
	closedir(d);
	free_names(nm);
	return ff_err_set(s->err, ENOMEM, "%s: out of memory", s->path);
}

/* The kernel allocates (and for values zeroes) a buffer of the size asked
 * for, so a 64 KiB request per entry costs more than the answer: the
 * length is asked first, and most entries have no xattrs at all. */
static ssize_t list_xattrs(const char *path, char *list, size_t cap)
{
	ssize_t len = llistxattr(path, NULL, 0);

	if (len <= 0)
		return len;
	len = llistxattr(path, list, (size_t)len <= cap ? (size_t)len : cap);
	if (len < 0 && errno == ERANGE) /* the list grew in between */
		len = llistxattr(path, list, cap);
	return len;
}

static ssize_t get_xattr(const char *path, const char *name, uint8_t *value, size_t cap)
{
	ssize_t len = lgetxattr(path, name, NULL, 0);

	if (len <= 0)
		return len;
	len = lgetxattr(path, name, value, (size_t)len <= cap ? (size_t)len : cap);
	if (len < 0 && errno == ERANGE)
		len = lgetxattr(path, name, value, cap);
	return len;
}

/* A file system without xattrs (vfat, many FUSE ones) answers ENOTSUP
 * for every file: after the first, its other files are not asked, which
 * saves a system call a file.  One device is remembered, the last such,
 * which is all a scan of one source tree usually meets. */
static int read_xattrs(struct scan *s, struct ff_node *n, const struct stat *st)
{
	char list[65536];
	uint8_t value[65536];
	ssize_t len;

	if (s->no_xattr_seen && s->no_xattr_dev == st->st_dev)
		return 0;
	len = list_xattrs(s->path, list, sizeof(list));
	if (len < 0) {
		if (errno == ENOTSUP || errno == ENOSYS) {
			s->no_xattr_dev = st->st_dev;
			s->no_xattr_seen = 1;
			return 0;
		}
		return ff_err_sys(s->err, errno, "%s: cannot list xattrs", s->path);
	}
	for (ssize_t i = 0; i < len; i += (ssize_t)strlen(list + i) + 1) {
		ssize_t vlen = get_xattr(s->path, list + i, value, sizeof(value));

		if (vlen < 0 && errno == ENODATA)
			continue; /* removed while we looked */
		if (vlen < 0)
			return ff_err_sys(s->err, errno, "%s: cannot read xattr %s", s->path, list + i);
		if (ff_node_set_xattr(n, list + i, value, (size_t)vlen, s->err))
			return ff_err_prefix(s->err, "%s", s->path);
	}
	return 0;
}

static struct ff_node **ino_slot(struct scan *s, dev_t dev, ino_t ino)
{
	size_t j = (size_t)((ino * 0x9E3779B97F4A7C15ull) ^ dev) & (s->ino_cap - 1);

	while (s->inos[j].node && (s->inos[j].dev != dev || s->inos[j].ino != ino))
		j = (j + 1) & (s->ino_cap - 1);
	s->inos[j].dev = dev;
	s->inos[j].ino = ino;
	return &s->inos[j].node;
}

static int grow_inos(struct scan *s)
{
	struct ino_ent *old = s->inos;
	size_t old_cap = s->ino_cap;

	s->ino_cap = old_cap ? old_cap * 2 : 256;
	s->inos = calloc(s->ino_cap, sizeof(*s->inos));
	if (!s->inos) {
		s->inos = old;
		s->ino_cap = old_cap;
		return ff_err_set(s->err, ENOMEM, "%s: out of memory", s->path);
	}
	for (size_t i = 0; i < old_cap; i++)
		if (old[i].node)
			*ino_slot(s, old[i].dev, old[i].ino) = old[i].node;
	free(old);
	return 0;
}

/* Hard links: the first name seen (in sorted walk order) is the primary. */
static struct ff_node **hardlink_slot(struct scan *s, const struct stat *st)
{
	if ((s->ino_used + 1) * 2 > s->ino_cap && grow_inos(s))
		return NULL;
	return ino_slot(s, st->st_dev, st->st_ino);
}

/* Whether n's host path (s->path) is its parent's src_path and its name. */
static int in_dir(const struct scan *s, const struct ff_node *n)
{
	const char *d = n->parent->src_kind == FF_SRC_HOST ? n->parent->src_path : NULL;
	size_t len = d ? strlen(d) : 0;

	return d && !strncmp(s->path, d, len) && s->path[len] == '/' &&
	       !strcmp(s->path + len + 1, ff_node_name(n));
}

static int set_content(struct scan *s, struct ff_node *n, const struct stat *st)
{
	char target[PATH_MAX];
	ssize_t len;

	if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode)) { /* else children or target */
		n->rdev_major = major(st->st_rdev);
		n->rdev_minor = minor(st->st_rdev);
	}
	if (S_ISLNK(st->st_mode)) {
		len = readlink(s->path, target, sizeof(target));
		if (len < 0)
			return ff_err_sys(s->err, errno, "%s: cannot read symlink", s->path);
		if ((size_t)len >= sizeof(target))
			return ff_err_set(s->err, ENAMETOOLONG, "%s: symlink target longer than %zu bytes",
					  s->path, sizeof(target) - 1);
		return ff_node_set_target(n, target, (size_t)len, s->err);
	}
	if (!S_ISREG(st->st_mode))
		return 0;
	n->size = (uint64_t)st->st_size;
	n->dense = (uint64_t)st->st_blocks * 512 >= n->size;
	if (st->st_nlink == 1 && in_dir(s, n)) {
		ff_node_clear_src(n);
		n->src_kind = FF_SRC_HOST;
		n->src_path = NULL;
		n->src_in_dir = 1;
		return 0;
	}
	return ff_node_set_src(n, s->path, s->err);
}

/* Whether a regular file is opened now, to see that it can be read.
 * --ignore-errors must leave an unreadable file out of the tree, which
 * only the scan can do, and an empty file is never opened later.  Any
 * other file is opened by the builder's data pass, which reports it by
 * name; the image is an unnamed file until complete (common/outfile.h),
 * so a build failing there leaves nothing behind either.  Opening every
 * file here as well cost two system calls a file, a fifth of a
 * small-file build's (docs/bench.md). */
static int needs_open_check(const struct scan *s, const struct stat *st)
{
	return S_ISREG(st->st_mode) && (s->tree->opts.ignore_errors || st->st_size == 0);
}

static int check_readable(struct scan *s, const struct stat *st)
{
	int fd;

	if (!needs_open_check(s, st))
		return 0;
	fd = open(s->path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return ff_scan_entry_problem(s, errno, "cannot open file");
	close(fd);
	return 0;
}

int ff_scan_set_meta(struct scan *s, struct ff_node *n, const struct stat *st)
{
	n->mode = st->st_mode;
	n->uid = st->st_uid;
	n->gid = st->st_gid;
	n->mtime = st->st_mtime;
	if (s->tree->opts.no_xattrs)
		return 0;
	return read_xattrs(s, n, st);
}

/* Find or create the node for the current entry, as type `mode`. */
struct ff_node *ff_scan_entry_node(struct scan *s, struct ff_node *dir, const char *name,
					 uint32_t mode)
{
	/* an unindexed directory is one this scan is filling from empty: its
	 * names are readdir's, each new */
	struct ff_node *n = dir->unindexed
		? ff_tree_add_child(s->tree, dir, name, strlen(name), mode, s->err)
		: ff_tree_put_child(s->tree, dir, name, strlen(name), mode, s->err);

	if (!n)
		ff_err_prefix(s->err, "%s", s->path);
	return n;
}

static int scan_entries(struct scan *s, struct ff_node *dir, struct names *nm);

/* -max-depth: is a directory one level below the current one too deep? */
static int too_deep(const struct scan *s)
{
	return s->tree->opts.has_max_depth && s->depth + 1 > s->tree->opts.max_depth;
}

int ff_scan_subdir(struct scan *s, struct ff_node *dir, const char *name,
		   const struct stat *st)
{
	struct names nm = { 0 };
	struct ff_node *n;
	int crosses = s->tree->opts.one_file_system && st->st_dev != s->root_dev;
	int empty = crosses || too_deep(s);
	int rc = 0;

	/* -one-file-system-x leaves a mount point out altogether */
	if (crosses && s->tree->opts.one_file_system > 1)
		return 0;
	/* a mount point (or a directory below -max-depth) is kept as an empty
	 * directory, like mksquashfs does */
	if (!empty && (rc = read_names(s, &nm)) != 0)
		return rc < 0 ? -1 : 0;
	n = ff_scan_entry_node(s, dir, name, st->st_mode);
	if (!n || ff_scan_set_meta(s, n, st)) {
		rc = -1;
	} else if (!empty) {
		s->depth++;
		rc = scan_entries(s, n, &nm);
		s->depth--;
	}
	free_names(&nm);
	return rc;
}

int ff_scan_leaf(struct scan *s, struct ff_node *dir, const char *name,
		 const struct stat *st)
{
	struct ff_node **slot = NULL, *n;
	int rc = check_readable(s, st);

	if (rc)
		return rc < 0 ? -1 : 0;
	/* --no-hardlinks (mksquashfs -no-hardlinks): every name its own file */
	if (st->st_nlink > 1 && !s->tree->opts.no_hardlinks && !(slot = hardlink_slot(s, st)))
		return -1;
	if (!(n = ff_scan_entry_node(s, dir, name, st->st_mode)))
		return -1;
	if (slot && *slot) {
		if (ff_node_make_link(n, *slot, s->err))
			return ff_err_prefix(s->err, "%s", s->path);
		return 0;
	}
	if (slot) {
		*slot = n;
		s->ino_used++;
	}
	if (ff_scan_set_meta(s, n, st) || set_content(s, n, st))
		return -1;
	return 0;
}

static int scan_one(struct scan *s, struct ff_node *dir, const char *name)
{
	size_t save = strlen(s->path), len = strlen(name);
	struct stat st;
	int rc = 0;

	if (save + 1 + len >= sizeof(s->path))
		return ff_err_set(s->err, ENAMETOOLONG, "%s/%s: path too long", s->path, name);
	if (len > FF_NAME_MAX)
		return ff_err_set(s->err, ENAMETOOLONG, "%s/%s: name is %zu bytes (max %d)",
				  s->path, name, len, FF_NAME_MAX);
	s->path[save] = '/';
	memcpy(s->path + save + 1, name, len + 1);
	if (ff_tree_excluded(s->tree, ff_scan_rel_path(s)))
		goto out;
	if (lstat(s->path, &st)) {
		rc = ff_scan_entry_problem(s, errno, "cannot stat");
		rc = rc < 0 ? -1 : 0;
		goto out;
	}
	if (inode_excluded(s, &st))
		goto out;
	/* -one-file-system: a file on another filesystem is left out */
	if (s->tree->opts.one_file_system && !S_ISDIR(st.st_mode) && st.st_dev != s->root_dev)
		goto out;
	if (S_ISDIR(st.st_mode))
		rc = ff_scan_subdir(s, dir, name, &st);
	else
		rc = ff_scan_leaf(s, dir, name, &st);
out:
	s->path[save] = '\0';
	return rc;
}

static int scan_entries(struct scan *s, struct ff_node *dir, struct names *nm)
{
	/* a directory no earlier source filled: its entries skip the tree's
	 * name map (ff_tree_child indexes them if a later source asks) */
	if (!dir->n_children) {
		dir->unindexed = 1;
		/* its files' host paths are this one and their names */
		if (ff_node_set_src(dir, s->path, s->err))
			return -1;
	}
	for (size_t i = 0; i < nm->v.len; i++)
		if (scan_one(s, dir, name_at(nm, i)))
			return -1;
	return 0;
}

/* Set up s for the host path `path`; ff_scan_rel_path() then starts at the path's
 * own name when `named` (the path is one entry of the image root). */
static int scan_begin(struct scan *s, const char *path, int named, struct stat *st)
{
	size_t len = strlen(path);
	char *slash;

	while (len > 1 && path[len - 1] == '/')
		len--;
	if (len + 2 >= sizeof(s->path))
		return ff_err_set(s->err, ENAMETOOLONG, "%s: path too long", path);
	memcpy(s->path, path, len);
	s->path[len] = '\0';
	s->root_len = len;
	if (named) {
		slash = strrchr(s->path, '/');
		s->root_len = slash ? (size_t)(slash - s->path) : 0;
		if (!slash) {
			/* rel_path skips one byte after root_len: give it a "./" */
			memmove(s->path + 2, s->path, len + 1);
			memcpy(s->path, "./", 2);
			s->root_len = 1;
		}
	}
	if (lstat(s->path, st))
		return ff_err_sys(s->err, errno, "%s: cannot stat source", path);
	s->root_dev = st->st_dev;
	return 0;
}

int ff_tree_add_entry(struct ff_tree *tree, const char *path, const char *name,
		      struct ff_err *err)
{
	struct scan s = { .tree = tree, .err = err, .depth = 1 };
	struct stat st;
	int rc;

	if (ff_tree_check_open(tree, err) || scan_begin(&s, path, 1, &st))
		return -1;
	if (S_ISDIR(st.st_mode))
		rc = ff_scan_subdir(&s, tree->root, name, &st);
	else
		rc = ff_scan_leaf(&s, tree->root, name, &st);
	free(s.inos);
	return rc;
}

int ff_tree_add_dir(struct ff_tree *tree, const char *host_dir, struct ff_err *err)
{
	struct scan s = { .tree = tree, .err = err, .depth = 1 };
	struct names nm = { 0 };
	struct stat st;
	int rc;

	if (ff_tree_check_open(tree, err))
		return -1;
	s.root_len = strlen(host_dir);
	while (s.root_len > 1 && host_dir[s.root_len - 1] == '/')
		s.root_len--;
	if (s.root_len >= sizeof(s.path))
		return ff_err_set(err, ENAMETOOLONG, "%s: path too long", host_dir);
	memcpy(s.path, host_dir, s.root_len);
	s.path[s.root_len] = '\0';
	if (stat(s.path, &st))
		return ff_err_sys(err, errno, "%s: cannot stat source directory", host_dir);
	if (!S_ISDIR(st.st_mode))
		return ff_err_set(err, ENOTDIR, "%s: source is not a directory", host_dir);
	s.root_dev = st.st_dev;
	/* -max-depth 0: the root stays empty */
	if (!(tree->opts.has_max_depth && !tree->opts.max_depth) && (rc = read_names(&s, &nm)) != 0)
		return rc < 0 ? -1 : ff_err_set(err, EACCES, "%s: cannot read source directory",
						 host_dir);
	/* the source directory's own metadata becomes the root's */
	rc = ff_scan_set_meta(&s, tree->root, &st);
	tree->root->mode = S_IFDIR | (st.st_mode & 07777);
	if (s.root_len == 1 && s.path[0] == '/')
		s.root_len = 0, s.path[0] = '\0'; /* "/" + "/name" would double the slash */
	if (!rc)
		rc = excluded_inodes(&s);
	if (!rc)
		rc = scan_entries(&s, tree->root, &nm);
	free_names(&nm);
	free(s.inos);
	free(s.gone);
	return rc;
}
