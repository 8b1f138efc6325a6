/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Extraction: one thread walks the image and creates directories,
 * symlinks, special files, hard links and regular files, checking every
 * name; each new regular file's fd goes through a bounded queue to worker
 * threads that fill it (decompression is the expensive part, and the reader
 * is thread-safe), writing zero runs as holes, then set owner, xattrs, mode
 * and times.  Directories get their metadata last, deepest first, so
 * creating their contents does not disturb their times. */
#include "extract/extract.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "common/bytes.h"
#include "common/hmap.h"
#include "common/pool.h"
#include "extract/extract_count.h"
#include "extract/extract_fold.h"
#include "extract/extract_safe.h"

#define CHUNK (256u * 1024u)
#define MAX_DEPTH 1024
#define XATTR_MAX (64u * 1024u)

enum { W_OWNER = 1, W_DEVICE = 2, W_XATTR = 4, W_SOCKET = 8 };

struct item {
	char *rel;
	uint64_t handle;
	struct ff_stat st;
};

struct items {
	struct item *v;
	size_t n, cap;
};

/* A regular file being filled.  A big file is split into several jobs so
 * that all workers can decompress it at once (one worker per file leaves
 * the others idle at the end of a tree with a few large files); the job
 * that finishes last restores the metadata, or removes the file when any
 * part failed. */
struct file {
	int fd;            /* -1: not created yet (see create_later) */
	struct dirref *dir; /* where a file not created yet goes */
	char *name;
	mode_t mode;
	char *rel;
	uint64_t handle;
	struct ff_stat st;
	atomic_int pending; /* jobs not finished */
	atomic_int failed;
	atomic_int tail_hole; /* the last bytes were not written: truncate */
};

struct job {
	struct file *f;
	uint64_t off, end;
};

#define SPLIT (4u * CHUNK) /* bytes per job */

#define QUEUE 256

struct ex {
	struct ff_fs *fs;
	struct ff_pool *pool; /* NULL: the walker does every job itself */
	uint8_t **bufs;       /* a worker's read buffer, by worker number */
	int sgid_dir; /* some target directory passes its group on */
	const struct ff_extract_opts *o;
	int root, is_root;
	uid_t uid;
	gid_t gid;
	struct ff_hmap links, dirs_seen;
	struct ff_fold *fold;
	struct items dirs;
	atomic_int errors;
	atomic_uint warned;
	/* The target is full (ENOSPC, EDQUOT): the first such error, after
	 * which nothing more is written and the result is 2.  Every later
	 * entry would fail the same way; one message says it. */
	atomic_int stop_errno;
	uint8_t *inline_buf; /* for jobs done by the walker itself */
};

/* An open target directory shared by the walker and the workers that
 * create files in it; the last one done with it closes it. */
struct dirref {
	int fd;
	atomic_int refs;
};

/* Where one entry goes: name in the open directory dirfd, rel for messages.
 * fold_first is the earlier name of the same directory that this one
 * equals when case is ignored, or NULL.  ref is dirfd's shared form, or
 * NULL when the entry must be created before the walker goes on. */
struct dst {
	int dirfd;
	const char *name, *rel, *fold_first;
	struct dirref *ref;
};

static struct dirref *dirref_new(int fd)
{
	struct dirref *d = fd >= 0 ? malloc(sizeof(*d)) : NULL;

	if (!d)
		return NULL;
	d->fd = fd;
	atomic_init(&d->refs, 1);
	return d;
}

static void dirref_put(struct dirref *d)
{
	if (d && atomic_fetch_sub(&d->refs, 1) == 1) {
		close(d->fd);
		free(d);
	}
}

static void report(struct ex *ex, enum ff_warn_kind kind, const char *rel, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void report(struct ex *ex, enum ff_warn_kind kind, const char *rel, const char *fmt, ...)
{
	char msg[1024];
	struct ff_warning w = {kind, rel, msg};
	va_list ap;

	if (!ex->o->warn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ex->o->warn(ex->o->warn_ctx, &w);
}

/* Progress: every entry is one item, each file's bytes counted once. */
static void progress(struct ex *ex, uint64_t bytes)
{
	if (ex->o->progress)
		ex->o->progress(ex->o->progress_ctx, bytes, 1);
}

static void fail(struct ex *ex, const char *rel, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void fail(struct ex *ex, const char *rel, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	report(ex, FF_WARN_FAILED, rel, "%s", msg);
	atomic_fetch_add(&ex->errors, 1);
}

static int stopped(struct ex *ex)
{
	return atomic_load(&ex->stop_errno) != 0;
}

/* A system call on the target failed with e: a full target stops the
 * extraction (said once, by the result), anything else is this entry's
 * failure.  After a stop, entries still in flight fail without a word. */
static void fail_sys(struct ex *ex, const char *rel, const char *what, int e)
{
	int none = 0;

	if (e == ENOSPC || e == EDQUOT) {
		atomic_compare_exchange_strong(&ex->stop_errno, &none, e);
		return;
	}
	if (!stopped(ex))
		fail(ex, rel, "%s: %s", what, strerror(e));
}

static void warn_once(struct ex *ex, unsigned kind, const char *what)
{
	if (!(atomic_fetch_or(&ex->warned, kind) & kind))
		report(ex, FF_WARN_NOT_PERMITTED, NULL, "%s", what);
}

static int push(struct items *it, const char *rel, uint64_t handle, const struct ff_stat *st)
{
	if (it->n == it->cap) {
		size_t cap = it->cap ? it->cap * 2 : 256;
		struct item *v = realloc(it->v, cap * sizeof(*v));

		if (!v)
			return -1;
		it->v = v;
		it->cap = cap;
	}
	it->v[it->n].rel = strdup(rel);
	if (!it->v[it->n].rel)
		return -1;
	it->v[it->n].handle = handle;
	it->v[it->n].st = *st;
	it->n++;
	return 0;
}

/* ---- metadata ---- */

struct xnames {
	char *buf;
	size_t len, cap;
};

static int xattr_name(void *ctx, const char *name, size_t len)
{
	struct xnames *x = ctx;

	if (x->len + len + 1 > x->cap) {
		size_t cap = (x->cap + len + 1) * 2;
		char *b = realloc(x->buf, cap);

		if (!b)
			return 1;
		x->buf = b;
		x->cap = cap;
	}
	memcpy(x->buf + x->len, name, len);
	x->buf[x->len + len] = '\0';
	x->len += len + 1;
	return 0;
}

/* fd >= 0: set on fd; otherwise on path without following it. */
static void set_xattrs(struct ex *ex, const char *rel, uint64_t h, int fd, const char *path)
{
	struct xnames x = {0};
	uint8_t *val = NULL;
	size_t off;
	int r = ex->fs->ops->listxattr(ex->fs, h, xattr_name, &x);

	if (r < 0)
		fail(ex, rel, "reading xattrs: %s", strerror(-r));
	if (x.len)
		val = malloc(XATTR_MAX);
	for (off = 0; val && off < x.len; off += strlen(x.buf + off) + 1) {
		const char *name = x.buf + off;
		ssize_t n = ex->fs->ops->getxattr(ex->fs, h, name, val, XATTR_MAX);

		if (n < 0) {
			fail(ex, rel, "xattr %s: %s", name, strerror((int)-n));
			continue;
		}
		r = fd >= 0 ? fsetxattr(fd, name, val, (size_t)n, 0)
			    : lsetxattr(path, name, val, (size_t)n, 0);
		if (r < 0 && (errno == EPERM || errno == ENOTSUP || errno == EACCES))
			warn_once(ex, W_XATTR, "cannot set some extended attributes");
		else if (r < 0)
			fail(ex, rel, "setting xattr %s: %s", name, strerror(errno));
	}
	free(val);
	free(x.buf);
}

static void set_owner_ok(struct ex *ex, const struct ff_stat *st, int *do_chown)
{
	/* a new file is already ours unless a setgid directory gave it a group */
	*do_chown = ex->is_root &&
		    (st->uid != ex->uid || st->gid != ex->gid || ex->sgid_dir);
	if (!ex->is_root && (st->uid != ex->uid || st->gid != ex->gid))
		warn_once(ex, W_OWNER, "cannot restore file owners");
}

/* Owner, xattrs, mode, times through an open fd (files, directories). */
static void meta_fd(struct ex *ex, const char *rel, uint64_t h, const struct ff_stat *st, int fd)
{
	struct timespec ts[2] = {{st->atime, 0}, {st->mtime, 0}};
	int own;

	set_owner_ok(ex, st, &own);
	if (own && fchown(fd, st->uid, st->gid) < 0)
		fail(ex, rel, "chown: %s", strerror(errno));
	set_xattrs(ex, rel, h, fd, NULL);
	/* files are created with their permission bits when the umask is 0 */
	if ((!S_ISREG(st->mode) || !ex->o->umask_cleared || (st->mode & 07000)) &&
	    fchmod(fd, st->mode & 07777) < 0)
		fail(ex, rel, "chmod: %s", strerror(errno));
	if (futimens(fd, ts) < 0)
		fail(ex, rel, "setting times: %s", strerror(errno));
}

/* The same for a symlink or special file just created at d. */
static void meta_at(struct ex *ex, const struct dst *d, uint64_t h, const struct ff_stat *st)
{
	struct timespec ts[2] = {{st->atime, 0}, {st->mtime, 0}};
	char path[64 + 256];
	int own;

	set_owner_ok(ex, st, &own);
	if (own && fchownat(d->dirfd, d->name, st->uid, st->gid, AT_SYMLINK_NOFOLLOW) < 0)
		fail(ex, d->rel, "chown: %s", strerror(errno));
	snprintf(path, sizeof(path), "/proc/self/fd/%d/%s", d->dirfd, d->name);
	set_xattrs(ex, d->rel, h, -1, path);
	if (!S_ISLNK(st->mode) && fchmodat(d->dirfd, d->name, st->mode & 07777, 0) < 0)
		fail(ex, d->rel, "chmod: %s", strerror(errno));
	if (utimensat(d->dirfd, d->name, ts, AT_SYMLINK_NOFOLLOW) < 0)
		fail(ex, d->rel, "setting times: %s", strerror(errno));
}

/* ---- pass 1: the tree ---- */

/* Does the directory list an entry spelled exactly name?  (On a target
 * that ignores case, name can exist without being listed.) */
static int listed(int dirfd, const char *name)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;
	int found = 0;

	if (!dir) {
		if (fd >= 0)
			close(fd);
		return 1; /* cannot tell: treat it as an ordinary existing entry */
	}
	while (!found && (de = readdir(dir)))
		found = !strcmp(de->d_name, name);
	closedir(dir);
	return found;
}

/* d exists (EEXIST) and equals d->fold_first when case is ignored.  When
 * the directory does not list d under its own spelling, the target ignores
 * case and what exists is the entry just made from the other name: it is
 * neither replaced (even with --force) nor merged into.  Only names with a
 * case twin in the image get here, so the directory scan stays rare.  (The
 * inode numbers cannot tell: FUSE file systems such as fusefat give each
 * spelling its own.) */
static int folded_onto(struct ex *ex, const struct dst *d)
{
	if (!d->fold_first || listed(d->dirfd, d->name))
		return 0;
	fail(ex, d->rel, "already exists as \"%s\" (the target ignores case); not replaced",
	     d->fold_first);
	return 1;
}

/* After EEXIST, makes room for a new non-directory at d: refuses unless
 * --force, and never replaces a directory. */
static int clear_slot(struct ex *ex, const struct dst *d)
{
	struct stat st;

	if (fstatat(d->dirfd, d->name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return 0; /* gone meanwhile */
	if (folded_onto(ex, d))
		return -1;
	if (!ex->o->force || S_ISDIR(st.st_mode)) {
		fail(ex, d->rel, "already exists%s", ex->o->force ? " as a directory" :
								    " (use --force to replace)");
		return -1;
	}
	if (unlinkat(d->dirfd, d->name, 0) < 0) {
		fail(ex, d->rel, "removing the existing file: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static int open_dir(struct ex *ex, const struct dst *d, mode_t mode)
{
	struct stat st;
	int fd, made = mkdirat(d->dirfd, d->name, mode) == 0;

	if (!made && errno != EEXIST) {
		fail_sys(ex, d->rel, "mkdir", errno);
		return -1;
	}
	if (!made && folded_onto(ex, d))
		return -1;
	fd = openat(d->dirfd, d->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		fail(ex, d->rel, "%s", errno == ENOTDIR || errno == ELOOP
					       ? "exists and is not a directory"
					       : strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (st.st_mode & S_ISGID)
		ex->sgid_dir = 1;
	return fd;
}

static void walk(struct ex *ex, struct dirref *dir, uint64_t h, const char *rel, int depth);

static void make_link(struct ex *ex, const struct dst *d, const char *first)
{
	int fd = ff_open_beneath(ex->root, first, O_PATH, 0), r;
	char src[64];

	if (fd < 0) {
		fail(ex, d->rel, "hard link to %s: %s", first, strerror(errno));
		return;
	}
	snprintf(src, sizeof(src), "/proc/self/fd/%d", fd);
	r = linkat(AT_FDCWD, src, d->dirfd, d->name, AT_SYMLINK_FOLLOW);
	if (r < 0 && errno == EEXIST && clear_slot(ex, d) == 0)
		r = linkat(AT_FDCWD, src, d->dirfd, d->name, AT_SYMLINK_FOLLOW);
	else if (r < 0 && errno == EEXIST)
		r = 0; /* reported by clear_slot */
	if (r < 0 && (errno == ENOSPC || errno == EDQUOT))
		fail_sys(ex, d->rel, "hard link", errno);
	else if (r < 0)
		fail(ex, d->rel, "hard link to %s: %s", first, strerror(errno));
	close(fd);
}

static void make_symlink(struct ex *ex, const struct dst *d, uint64_t h, const struct ff_stat *st)
{
	char target[4097];
	ssize_t n = ex->fs->ops->readlink(ex->fs, h, target, sizeof(target) - 1);

	if (n < 0 || (size_t)n >= sizeof(target) || memchr(target, '\0', (size_t)n)) {
		fail(ex, d->rel, "reading symlink: %s", n < 0 ? strerror((int)-n) : "bad target");
		return;
	}
	target[n] = '\0';
	if (symlinkat(target, d->dirfd, d->name) < 0 &&
	    (errno != EEXIST || clear_slot(ex, d) < 0 || symlinkat(target, d->dirfd, d->name) < 0)) {
		if (errno == EEXIST)
			return; /* reported by clear_slot */
		fail_sys(ex, d->rel, "symlink", errno);
		return;
	}
	meta_at(ex, d, h, st);
}

static void make_node(struct ex *ex, const struct dst *d, uint64_t h, const struct ff_stat *st)
{
	dev_t dev = makedev(st->rdev_major, st->rdev_minor);
	mode_t mode = (st->mode & S_IFMT) | 0600;

	if (mknodat(d->dirfd, d->name, mode, dev) < 0 &&
	    (errno != EEXIST || clear_slot(ex, d) < 0 || mknodat(d->dirfd, d->name, mode, dev) < 0)) {
		if (errno == EEXIST)
			return; /* reported by clear_slot */
		if (errno == EPERM && !ex->is_root) {
			/* said once, but an entry left out all the same: exit 1 */
			warn_once(ex, S_ISSOCK(st->mode) ? W_SOCKET : W_DEVICE,
				  "cannot create device nodes or sockets");
			atomic_fetch_add(&ex->errors, 1);
		}
		else
			fail_sys(ex, d->rel, "mknod", errno);
		return;
	}
	meta_at(ex, d, h, st);
}

static void process(struct ex *ex, struct job *j, uint8_t *buf);
static void enqueue(struct ex *ex, struct job *j);

static void queue_file(struct ex *ex, struct file *f)
{
	uint64_t n = f->st.size ? (f->st.size + SPLIT - 1) / SPLIT : 1, i;

	if (n >= INT32_MAX) /* too many to count: one job does it all */
		n = 1;
	atomic_init(&f->pending, (int)n);
	atomic_init(&f->failed, 0);
	atomic_init(&f->tail_hole, 0);
	for (i = 0; i < n; i++) {
		struct job j = {f, i * SPLIT, i + 1 < n ? (i + 1) * SPLIT : f->st.size};

		enqueue(ex, &j);
	}
}

/* Creates name in dirfd for writing; refuses an existing entry unless
 * --force (clear_slot reports it).  Returns the fd or -1. */
static int create_fd(struct ex *ex, const struct dst *d, mode_t mode)
{
	const int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
	int fd = openat(d->dirfd, d->name, flags, mode);

	if (fd < 0 && errno == EEXIST) {
		if (clear_slot(ex, d) < 0)
			return -1;
		fd = openat(d->dirfd, d->name, flags, mode);
	}
	if (fd < 0)
		fail_sys(ex, d->rel, "create", errno);
	return fd;
}

static void file_free(struct file *f)
{
	if (f) {
		dirref_put(f->dir);
		free(f->name);
		free(f->rel);
	}
	free(f);
}

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
		fail(ex, d->rel, "out of memory");
		file_free(f);
		progress(ex, st->size);
		return;
	}
	f->handle = h;
	f->st = *st;
	f->mode = ex->o->umask_cleared ? (st->mode & 0777) : 0600;
	f->fd = -1;
	if (later) {
		f->dir = d->ref;
		atomic_fetch_add(&d->ref->refs, 1);
	} else if ((f->fd = create_fd(ex, d, f->mode)) < 0) {
		file_free(f);
		progress(ex, st->size);
		return;
	}
	queue_file(ex, f);
}

static void make_dir(struct ex *ex, const struct dst *d, uint64_t h, const struct ff_stat *st,
		     int depth)
{
	struct dirref *ref;
	int fd;

	if (depth > MAX_DEPTH || ff_hmap_get(&ex->dirs_seen, h)) {
		fail(ex, d->rel, "directory loop or nesting deeper than %d", MAX_DEPTH);
		return;
	}
	fd = open_dir(ex, d, 0700);
	if (fd < 0)
		return;
	ref = dirref_new(fd);
	if (!ref || ff_hmap_put(&ex->dirs_seen, h, (void *)1) < 0 ||
	    push(&ex->dirs, d->rel, h, st) < 0)
		fail(ex, d->rel, "out of memory");
	else
		walk(ex, ref, h, d->rel, depth + 1);
	if (ref)
		dirref_put(ref);
	else
		close(fd);
}

static void entry(struct ex *ex, const struct dst *d, uint64_t h, int depth)
{
	struct ff_stat st;
	const char *first;
	int r;

	if (stopped(ex))
		return; /* the target is full: nothing more is created */
	r = ex->fs->ops->getattr(ex->fs, h, &st);
	if (r < 0) {
		fail(ex, d->rel, "%s", strerror(-r));
		return;
	}
	if (S_ISDIR(st.mode)) {
		progress(ex, 0);
		make_dir(ex, d, h, &st, depth);
		return;
	}
	first = st.nlink > 1 ? ff_hmap_get(&ex->links, h) : NULL;
	if (first) {
		make_link(ex, d, first);
		progress(ex, 0);
		return;
	}
	if (!S_ISREG(st.mode))
		progress(ex, 0); /* files count when written */
	if (S_ISREG(st.mode))
		make_file(ex, d, h, &st);
	else if (S_ISLNK(st.mode))
		make_symlink(ex, d, h, &st);
	else
		make_node(ex, d, h, &st);
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
		fail(d->ex, d->rel, "refusing entry named \"%.*s\"", (int)e->len, e->name);
		return 0;
	}
	if (d->n) {
		const char *prev = d->names[d->n - 1];
		size_t plen = strlen(prev);
		int c = memcmp(prev, e->name, plen < e->len ? plen : e->len);

		if (c > 0 || (c == 0 && plen >= e->len)) {
			fail(d->ex, d->rel, "refusing duplicate or unsorted entry \"%.*s\"",
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
		fail(ex, d->rel, "out of memory (checking names for case collisions)");
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
			report(ex, FF_WARN_CASE_COLLISION, strcmp(d->rel, ".") ? d->rel : "/",
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
		fail(ex, rel, "reading directory: %s", strerror(-r));
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

/* ---- pass 2: file contents ---- */

/* pwrite until done: a short write (the disk filling up) is retried, so
 * the error reported is the call's own errno, never a stale one. */
static int write_at(int fd, const uint8_t *p, size_t n, uint64_t off)
{
	while (n) {
		ssize_t w = pwrite(fd, p, n, (off_t)off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		p += w;
		n -= (size_t)w;
		off += (uint64_t)w;
	}
	return 0;
}

/* Writes bytes [j->off, j->end) of the file, leaving zero runs as holes. */
static int fill(struct ex *ex, const struct job *j, uint8_t *buf)
{
	struct file *f = j->f;
	uint64_t off = j->off;

	while (off < j->end) {
		size_t want = j->end - off < CHUNK ? (size_t)(j->end - off) : CHUNK;
		ssize_t n = ex->fs->ops->read(ex->fs, f->handle, buf, want, off);

		if (n <= 0) {
			fail(ex, f->rel, "reading at %llu: %s", (unsigned long long)off,
			     n < 0 ? strerror((int)-n) : "file shorter than its size");
			return -1;
		}
		if (!ff_is_zero(buf, (size_t)n)) {
			int r = write_at(f->fd, buf, (size_t)n, off);

			if (r < 0) {
				/* several jobs of one file may fail: one message */
				if (!atomic_exchange(&f->failed, 1))
					fail_sys(ex, f->rel, "write", -r);
				return -1;
			}
		} else if (off + (uint64_t)n == f->st.size) {
			atomic_store(&f->tail_hole, 1);
		}
		off += (uint64_t)n;
	}
	return 0;
}

static void finish_file(struct ex *ex, struct file *f)
{
	int ok = !atomic_load(&f->failed);

	if (ok && atomic_load(&f->tail_hole) && ftruncate(f->fd, (off_t)f->st.size) < 0) {
		fail_sys(ex, f->rel, "truncate", errno);
		ok = 0;
	}
	if (!ok)
		unlinkat(ex->root, f->rel, 0); /* no partial files */
	else
		meta_fd(ex, f->rel, f->handle, &f->st, f->fd);
	close(f->fd);
	progress(ex, f->st.size);
	file_free(f);
}

/* Creates a file make_file left to the worker (its only job); when that
 * fails (reported), the file is dropped. */
static int create_later(struct ex *ex, struct file *f)
{
	struct dst d = {f->dir->fd, f->name, f->rel, NULL, NULL};

	f->fd = create_fd(ex, &d, f->mode);
	dirref_put(f->dir);
	f->dir = NULL;
	if (f->fd >= 0)
		return 0;
	progress(ex, f->st.size);
	file_free(f);
	return -1;
}

/* buf NULL: no buffer could be had, the job fails. */
static void process(struct ex *ex, struct job *j, uint8_t *buf)
{
	struct file *f = j->f;

	if (f->fd < 0 && create_later(ex, f) < 0)
		return;
	if (!buf)
		fail(ex, f->rel, "out of memory");
	if (!buf || stopped(ex) || (!atomic_load(&f->failed) && fill(ex, j, buf) < 0))
		atomic_store(&f->failed, 1);
	if (atomic_fetch_sub(&f->pending, 1) == 1)
		finish_file(ex, f);
}

/* When the queue is full the walker does the oldest job itself rather than
 * sleep, so it is one more decompressing thread while it has nothing else
 * to do. */
static void enqueue(struct ex *ex, struct job *j)
{
	if (!ex->pool) {
		process(ex, j, ex->inline_buf);
		return;
	}
	while (ff_pool_try_submit(ex->pool, j) < 0)
		ff_pool_help(ex->pool);
}

static void run_job(void *user, void *job, unsigned worker)
{
	struct ex *ex = user;

	if (worker == ff_pool_threads(ex->pool)) { /* the walker helping */
		process(ex, job, ex->inline_buf);
		return;
	}
	if (!ex->bufs[worker])
		ex->bufs[worker] = malloc(CHUNK); /* process() reports NULL */
	process(ex, job, ex->bufs[worker]);
}

/* No pool with -j 1, or when no thread starts: the walker does it all. */
static void start_workers(struct ex *ex)
{
	struct ff_pool_cfg cfg = {.threads = (unsigned)ex->o->jobs, .queue = QUEUE,
				  .job_size = sizeof(struct job), .run = run_job, .user = ex};

	if (ex->o->jobs > 1)
		ex->pool = ff_pool_new(&cfg, NULL);
}

static void stop_workers(struct ex *ex)
{
	if (!ex->pool)
		return;
	while (ff_pool_help(ex->pool)) /* help finish the queue */
		;
	ff_pool_free(ex->pool);
	ex->pool = NULL;
}

/* ---- image prefetch ---- */

/* A whole-image extraction reads (nearly) every byte of the image, but the
 * walker and the workers each issue small reads at scattered positions, so
 * the kernel's read-ahead never gets going and every cold block costs a
 * disk round trip.  This thread asks the kernel to stream the image's
 * source into the page cache ahead of them, a few MiB at a time so it can
 * be stopped (a hint: nothing where the source is not a file). */
#define PREFETCH_STEP (4u << 20)

struct prefetch {
	struct ff_pool *task;
	struct ff_bsrc *src;
	atomic_int stop;
};

static void prefetch_run(void *arg, void *job, unsigned worker)
{
	struct prefetch *p = arg;

	(void)job;
	(void)worker;
	for (uint64_t off = 0; off < p->src->size && !atomic_load(&p->stop); off += PREFETCH_STEP)
		ff_bsrc_advise(p->src, off, PREFETCH_STEP, POSIX_FADV_WILLNEED);
}

static void prefetch_start(struct prefetch *p, struct ff_bsrc *src)
{
	atomic_init(&p->stop, 0);
	p->task = NULL;
	p->src = src;
	if (src && src->fd >= 0)
		p->task = ff_pool_task(prefetch_run, p, NULL); /* only a hint */
}

static void prefetch_stop(struct prefetch *p)
{
	atomic_store(&p->stop, 1);
	ff_pool_free(p->task);
}

/* ---- pass 3 and the driver ---- */

static void finish_dirs(struct ex *ex)
{
	size_t i = ex->dirs.n;

	while (i--) {
		const struct item *it = &ex->dirs.v[i];
		int fd = ff_open_beneath(ex->root, it->rel, O_RDONLY | O_DIRECTORY, 0);

		if (fd < 0) {
			fail(ex, it->rel, "open: %s", strerror(errno));
			continue;
		}
		meta_fd(ex, it->rel, it->handle, &it->st, fd);
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
		fail(ex, path, "%s", strerror(-r));
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
			int fd = open_dir(ex, &to, 0755);

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
		fail(ex, "/", "%s", strerror(-r));
		return;
	}
	ff_hmap_put(&ex->dirs_seen, root, (void *)1);
	progress(ex, 0);
	top = dirref_new(dup(ex->root));
	if (!top || push(&ex->dirs, ".", root, &st) < 0)
		fail(ex, "/", "out of memory");
	else
		walk(ex, top, root, ".", 0);
	dirref_put(top);
}

static void free_items(struct items *it)
{
	size_t i;

	for (i = 0; i < it->n; i++)
		free(it->v[i].rel);
	free(it->v);
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
		report(ex, FF_WARN_FAILED, paths[i], "%s",
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
			.gid = getegid()};
	struct prefetch pf = {.src = NULL};
	int whole = n == 0, rc;
	size_t i;

	if (!paths_exist(&ex, paths, n))
		return 1;
	if ((rc = ex_init(&ex, err)) != 0)
		return rc;
	if (o->progress && o->totals)
		set_totals(&ex, paths, n);
	start_workers(&ex);
	for (i = 0; i < n; i++)
		if (!paths[i][strspn(paths[i], "/")])
			whole = 1;
	if (whole)
		prefetch_start(&pf, o->prefetch);
	for (i = 0; i < n; i++)
		if (paths[i][strspn(paths[i], "/")])
			extract_path(&ex, paths[i]);
	if (whole)
		whole_image(&ex);
	stop_workers(&ex);
	prefetch_stop(&pf);
	finish_dirs(&ex); /* also after a stop: what was made gets its modes */
	ex_free(&ex);
	if (stopped(&ex)) {
		ff_err_set(err, atomic_load(&ex.stop_errno), "%s: %s: the extraction stopped "
			   "there (what was written is incomplete)", o->dir,
			   strerror(atomic_load(&ex.stop_errno)));
		return 2;
	}
	return atomic_load(&ex.errors) ? 1 : 0;
}
