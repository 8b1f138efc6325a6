/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Extraction: one thread walks the image and creates directories,
 * symlinks, special files, hard links and regular files, checking every
 * name; each new regular file's fd goes through a bounded queue to worker
 * threads that fill it (decompression is the expensive part, and the reader
 * is thread-safe), writing zero runs as holes, then set owner, xattrs, mode
 * and times.  Directories get their metadata last, deepest first, so
 * creating their contents does not disturb their times. */
#include "extract/ex_state.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "common/bytes.h"
#include "extract/extract_count.h"
#include "extract/extract_safe.h"

static int push(struct ff_vec *dirs, const char *rel, uint64_t handle, const struct ff_stat *st)
{
	struct item it = {strdup(rel), handle, *st};

	if (!it.rel || ff_vec_push(dirs, &it) < 0) {
		free(it.rel);
		return -1;
	}
	return 0;
}

static void walk(struct ex *ex, struct dirref *dir, uint64_t h, const char *rel, int depth);

/* Creating a file costs the file system more than anything else the
 * walker does, so a file that needs one job is created by the worker that
 * fills it, in parallel with the others.  Hard links need their first name
 * to exist when the walker meets the next, and a directory with names that
 * collide when case is ignored keeps the walker's order, so those files
 * are created at once. */
static void make_file(struct ex *ex, const struct dst *d, uint64_t h, const struct ff_stat *st)
{
	struct file *f = calloc(1, sizeof(*f));
	int later = d->ref && st->nlink <= 1 && st->size <= SPLIT;

	if (!f || !(f->rel = strdup(d->rel)) || (later && !(f->name = strdup(d->name)))) {
		ff_ex_fail(ex, d->rel, "out of memory");
		ff_ex_file_free(f);
		ff_ex_progress(ex, st->size);
		return;
	}
	f->handle = h;
	f->st = *st;
	f->mode = ex->o->umask_cleared ? (st->mode & 0777) : 0600;
	f->fd = -1;
	if (later) {
		f->dir = d->ref;
		atomic_fetch_add(&d->ref->refs, 1);
	} else if ((f->fd = ff_ex_create_fd(ex, d, f->mode)) < 0) {
		ff_ex_file_free(f);
		ff_ex_progress(ex, st->size);
		return;
	}
	ff_ex_queue_file(ex, f);
}

static void make_dir(struct ex *ex, const struct dst *d, uint64_t h, const struct ff_stat *st,
		     int depth)
{
	struct dirref *ref;
	int fd;

	if (depth > MAX_DEPTH || ff_hmap_get(&ex->dirs_seen, h)) {
		ff_ex_fail(ex, d->rel, "directory loop or nesting deeper than %d", MAX_DEPTH);
		return;
	}
	fd = ff_ex_open_dir(ex, d, 0700);
	if (fd < 0)
		return;
	ref = ff_ex_dirref_new(fd);
	if (!ref || ff_hmap_put(&ex->dirs_seen, h, (void *)1) < 0 ||
	    push(&ex->dirs, d->rel, h, st) < 0)
		ff_ex_fail(ex, d->rel, "out of memory");
	else
		walk(ex, ref, h, d->rel, depth + 1);
	if (ref)
		ff_ex_dirref_put(ref);
	else
		close(fd);
}

static void entry(struct ex *ex, const struct dst *d, uint64_t h, int depth)
{
	struct ff_stat st;
	const char *first;
	int r;

	if (ff_ex_stopped(ex))
		return; /* the target is full: nothing more is created */
	r = ex->fs->ops->getattr(ex->fs, h, &st);
	if (r < 0) {
		ff_ex_fail(ex, d->rel, "%s", strerror(-r));
		return;
	}
	if (S_ISDIR(st.mode)) {
		ff_ex_progress(ex, 0);
		make_dir(ex, d, h, &st, depth);
		return;
	}
	first = st.nlink > 1 ? ff_hmap_get(&ex->links, h) : NULL;
	if (first) {
		ff_ex_make_link(ex, d, first);
		ff_ex_progress(ex, 0);
		return;
	}
	if (!S_ISREG(st.mode))
		ff_ex_progress(ex, 0); /* files count when written */
	if (S_ISREG(st.mode))
		make_file(ex, d, h, &st);
	else if (S_ISLNK(st.mode))
		ff_ex_make_symlink(ex, d, h, &st);
	else
		ff_ex_make_node(ex, d, h, &st);
	if (st.nlink > 1) {
		char *copy = strdup(d->rel);

		if (!copy || ff_hmap_put(&ex->links, h, copy) < 0)
			free(copy);
	}
}

/* A directory's entries as extraction takes them: names that are safe to
 * create, each after the one before it (a format keeps its entries sorted
 * and unique, so anything else is damage or a hostile image; a second
 * "passwd" must never overwrite the first). */
struct dents {
	struct ex *ex;
	const char *rel;
	struct ff_dirlist all;
	char **names; /* into all */
	uint64_t *handles;
	size_t n;
};

static int keep_entry(struct dents *d, const struct ff_dirent *e)
{
	if (!ff_name_safe(e->name, e->len)) {
		ff_ex_fail(d->ex, d->rel, "refusing entry named \"%.*s\"", (int)e->len, e->name);
		return 0;
	}
	if (d->n) {
		const char *prev = d->names[d->n - 1];
		size_t plen = strlen(prev);
		int c = memcmp(prev, e->name, plen < e->len ? plen : e->len);

		if (c > 0 || (c == 0 && plen >= e->len)) {
			ff_ex_fail(d->ex, d->rel, "refusing duplicate or unsorted entry \"%.*s\"",
			     (int)e->len, e->name);
			return 0;
		}
	}
	return 1;
}

/* 0, or -errno from the format (the entries read before it are kept). */
static int list_entries(struct dents *d, struct ff_fs *fs, uint64_t h)
{
	int r = ff_fs_list_dir(fs, h, FF_LIST_PARTIAL, &d->all);
	size_t cap = d->all.n ? d->all.n : 1;

	d->names = malloc(cap * sizeof(*d->names));
	d->handles = malloc(cap * sizeof(*d->handles));
	if (!d->names || !d->handles)
		return -ENOMEM;
	for (size_t i = 0; i < d->all.n; i++) {
		if (!keep_entry(d, &d->all.v[i]))
			continue;
		d->names[d->n] = d->all.v[i].name;
		d->handles[d->n++] = d->all.v[i].handle;
	}
	return r;
}

/* Warns once per name that equals an earlier one when case is ignored
 * (extracting onto vfat, exFAT, SMB, macOS or a casefold directory keeps
 * only one of them), and returns that earlier name for each entry: NULL, or
 * NULL for all when out of memory. */
static const char **case_collisions(struct ex *ex, const struct dents *d, int dirfd)
{
	int warn = -1; /* unknown until a collision is found */

	const char **fold_first = calloc(d->n ? d->n : 1, sizeof(*fold_first));
	size_t *first = malloc((d->n ? d->n : 1) * sizeof(*first)), i;

	if (!fold_first || !first || ff_fold_collisions(ex->fold, d->names, d->n, first) < 0) {
		ff_ex_fail(ex, d->rel, "out of memory (checking names for case collisions)");
		free(first);
		free(fold_first);
		return NULL;
	}
	for (i = 0; i < d->n; i++) {
		if (first[i] == FF_FOLD_NONE)
			continue;
		fold_first[i] = d->names[first[i]];
		if (warn < 0)
			warn = ex->o->warn_case || ff_fold_target(dirfd);
		if (warn)
			ff_ex_report(ex, FF_WARN_CASE_COLLISION, strcmp(d->rel, ".") ? d->rel : "/",
			       "\"%s\" and \"%s\" are the same name when case is ignored; a "
			       "case-insensitive target keeps only one", fold_first[i], d->names[i]);
	}
	free(first);
	return fold_first;
}

static int any_collision(const char **fold_first, size_t n)
{
	for (size_t i = 0; fold_first && i < n; i++)
		if (fold_first[i])
			return 1;
	return 0;
}

static void walk(struct ex *ex, struct dirref *dir, uint64_t h, const char *rel, int depth)
{
	struct dents d = {ex, rel, {0}, NULL, NULL, 0};
	int r = list_entries(&d, ex->fs, h);
	const char **fold_first;
	struct dirref *later;
	size_t i;

	if (r < 0)
		ff_ex_fail(ex, rel, "reading directory: %s", strerror(-r));
	fold_first = case_collisions(ex, &d, dir->fd);
	later = any_collision(fold_first, d.n) ? NULL : dir;
	for (i = 0; i < d.n; i++) {
		size_t len = strlen(rel) + strlen(d.names[i]) + 2;
		char *child = malloc(len);

		if (child) {
			struct dst to = {dir->fd, d.names[i], child,
					 fold_first ? fold_first[i] : NULL, later};

			snprintf(child, len, "%s/%s", rel, d.names[i]);
			if (!strcmp(rel, "."))
				to.rel = child + 2;
			entry(ex, &to, d.handles[i], depth);
		}
		free(child);
	}
	free(fold_first);
	free(d.names);
	free(d.handles);
	ff_dirlist_free(&d.all);
}

/* ---- pass 3 and the driver ---- */

static void finish_dirs(struct ex *ex)
{
	size_t i = ex->dirs.len;

	while (i--) {
		const struct item *it = FF_VEC_AT(&ex->dirs, struct item, i);
		int fd = ff_open_beneath(ex->root, it->rel, O_RDONLY | O_DIRECTORY, 0);

		if (fd < 0) {
			ff_ex_fail(ex, it->rel, "open: %s", strerror(errno));
			continue;
		}
		ff_ex_meta_fd(ex, it->rel, it->handle, &it->st, fd);
		close(fd);
	}
}

/* Creates the parents of a PATH argument and extracts its last part. */
static void extract_path(struct ex *ex, const char *path)
{
	char *copy = strdup(path), *save = NULL, *part, *next;
	int dirfd = dup(ex->root);
	uint64_t h;
	int r = ff_fs_resolve(ex->fs, path, &h);
	char rel[4096] = ".";

	if (r < 0)
		ff_ex_fail(ex, path, "%s", strerror(-r));
	for (part = copy ? strtok_r(copy, "/", &save) : NULL; r == 0 && part && dirfd >= 0;
	     part = next) {
		struct dst to = {dirfd, part, rel + 2, NULL, NULL};

		next = strtok_r(NULL, "/", &save);
		if (!strcmp(part, "."))
			continue;
		snprintf(rel + strlen(rel), sizeof(rel) - strlen(rel), "/%s", part);
		if (!next) {
			entry(ex, &to, h, 0);
		} else {
			int fd = ff_ex_open_dir(ex, &to, 0755);

			close(dirfd);
			dirfd = fd;
		}
	}
	if (dirfd >= 0)
		close(dirfd);
	free(copy);
}

static void whole_image(struct ex *ex)
{
	uint64_t root = ex->fs->ops->root(ex->fs);
	struct dirref *top;
	struct ff_stat st;
	int r = ex->fs->ops->getattr(ex->fs, root, &st);

	if (r < 0) {
		ff_ex_fail(ex, "/", "%s", strerror(-r));
		return;
	}
	ff_hmap_put(&ex->dirs_seen, root, (void *)1);
	ff_ex_progress(ex, 0);
	top = ff_ex_dirref_new(dup(ex->root));
	if (!top || push(&ex->dirs, ".", root, &st) < 0)
		ff_ex_fail(ex, "/", "out of memory");
	else
		walk(ex, top, root, ".", 0);
	ff_ex_dirref_put(top);
}

static void free_items(struct ff_vec *dirs)
{
	for (size_t i = 0; i < dirs->len; i++)
		free(FF_VEC_AT(dirs, struct item, i)->rel);
	ff_vec_free(dirs);
}

/* With PATH arguments of which none is in the image, nothing is created
 * (not even the target directory); each is reported. */
static int paths_exist(struct ex *ex, const char *const *paths, size_t n)
{
	int found = n == 0;
	uint64_t h;

	for (size_t i = 0; i < n && !found; i++)
		found = ff_fs_resolve(ex->fs, paths[i], &h) == 0;
	for (size_t i = 0; i < n && !found; i++)
		ff_ex_report(ex, FF_WARN_FAILED, paths[i], "%s",
		       strerror(-ff_fs_resolve(ex->fs, paths[i], &h)));
	return found;
}

/* The progress totals, from the image's metadata before anything is
 * written, so they are fixed from the first step. */
static void set_totals(struct ex *ex, const char *const *paths, size_t n)
{
	struct ff_extract_count c = {0, 0};
	uint64_t h;
	int whole = n == 0;

	for (size_t i = 0; i < n; i++) {
		if (!paths[i][strspn(paths[i], "/")])
			whole = 1;
		else if (ff_fs_resolve(ex->fs, paths[i], &h) == 0)
			ff_extract_count(ex->fs, h, &c);
	}
	if (whole)
		ff_extract_count(ex->fs, ex->fs->ops->root(ex->fs), &c);
	ex->o->totals(ex->o->progress_ctx, c.bytes, c.items);
}

/* The walk's state; 2 with err when nothing could be set up. */
static int ex_init(struct ex *ex, struct ff_err *err)
{
	const struct ff_extract_opts *o = ex->o;

	if (mkdir(o->dir, 0755) < 0 && errno != EEXIST) {
		ff_err_set(err, errno, "%s: %s", o->dir, strerror(errno));
		return 2;
	}
	ex->root = open(o->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (ex->root < 0) {
		ff_err_set(err, errno, "%s: %s", o->dir, strerror(errno));
		return 2;
	}
	atomic_init(&ex->errors, 0);
	atomic_init(&ex->warned, 0);
	atomic_init(&ex->stop_errno, 0);
	ex->inline_buf = malloc(CHUNK);
	ex->fold = ff_fold_new();
	ex->bufs = calloc((size_t)(o->jobs > 1 ? o->jobs : 1), sizeof(*ex->bufs));
	if (!ex->inline_buf || !ex->fold || !ex->bufs) {
		ff_err_set(err, ENOMEM, "out of memory");
		free(ex->inline_buf);
		ff_fold_free(ex->fold);
		free(ex->bufs);
		close(ex->root);
		return 2;
	}
	return 0;
}

static void ex_free(struct ex *ex)
{
	ff_hmap_free(&ex->links, free);
	ff_hmap_free(&ex->dirs_seen, NULL);
	free_items(&ex->dirs);
	ff_fold_free(ex->fold);
	free(ex->inline_buf);
	for (int i = 0; i < (ex->o->jobs > 1 ? ex->o->jobs : 1); i++)
		free(ex->bufs[i]);
	free(ex->bufs);
	close(ex->root);
}

int ff_extract_fs(struct ff_fs *fs, const struct ff_extract_opts *o, const char *const *paths,
		  size_t n, struct ff_err *err)
{
	struct ex ex = {.fs = fs, .o = o, .is_root = geteuid() == 0, .uid = geteuid(),
			.gid = getegid(), .dirs = FF_VEC_INIT(struct item)};
	struct prefetch pf = {.src = NULL};
	int whole = n == 0, rc;
	size_t i;

	if (!paths_exist(&ex, paths, n))
		return 1;
	if ((rc = ex_init(&ex, err)) != 0)
		return rc;
	if (o->progress && o->totals)
		set_totals(&ex, paths, n);
	ff_ex_start_workers(&ex);
	for (i = 0; i < n; i++)
		if (!paths[i][strspn(paths[i], "/")])
			whole = 1;
	if (whole)
		ff_ex_prefetch_start(&pf, o->prefetch);
	for (i = 0; i < n; i++)
		if (paths[i][strspn(paths[i], "/")])
			extract_path(&ex, paths[i]);
	if (whole)
		whole_image(&ex);
	ff_ex_stop_workers(&ex);
	ff_ex_prefetch_stop(&pf);
	finish_dirs(&ex); /* also after a stop: what was made gets its modes */
	ex_free(&ex);
	if (ff_ex_stopped(&ex)) {
		ff_err_set(err, atomic_load(&ex.stop_errno), "%s: %s: the extraction stopped "
			   "there (what was written is incomplete)", o->dir,
			   strerror(atomic_load(&ex.stop_errno)));
		return 2;
	}
	return atomic_load(&ex.errors) ? 1 : 0;
}
