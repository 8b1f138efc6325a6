/* Extraction runs in three passes: (1) one thread walks the image and
 * creates directories, symlinks, special files, hard links and empty
 * regular files, checking every name; (2) worker threads fill the regular
 * files (decompression is the expensive part, and the reader is
 * thread-safe), writing zero runs as holes and then setting owner, xattrs,
 * mode and times; (3) directories get their metadata last, deepest first,
 * so creating their contents does not disturb their times. */
#include "flashfs/extract.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "common/progress.h"
#include "flashfs/extract_safe.h"
#include "flashfs/hmap.h"

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

struct ex {
	struct ff_fs *fs;
	const struct ff_extract_opts *o;
	int root, is_root;
	struct ff_hmap links, dirs_seen;
	struct items files, dirs;
	atomic_size_t next;
	atomic_int errors;
	atomic_uint warned;
	struct ff_progress *prog;
};

static void fail(struct ex *ex, const char *rel, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void fail(struct ex *ex, const char *rel, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "flashfs extract: %s: %s: %s\n", ex->o->image, rel, msg);
	atomic_fetch_add(&ex->errors, 1);
}

static void warn_once(struct ex *ex, unsigned kind, const char *what)
{
	if (!(atomic_fetch_or(&ex->warned, kind) & kind))
		fprintf(stderr, "flashfs extract: warning: %s (not root?); skipped where needed\n",
			what);
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
	*do_chown = ex->is_root;
	if (!ex->is_root && (st->uid != geteuid() || st->gid != getegid()))
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
	if (fchmod(fd, st->mode & 07777) < 0)
		fail(ex, rel, "chmod: %s", strerror(errno));
	if (futimens(fd, ts) < 0)
		fail(ex, rel, "setting times: %s", strerror(errno));
}

/* The same for a symlink or special file just created as dirfd/name. */
static void meta_at(struct ex *ex, const char *rel, uint64_t h, const struct ff_stat *st,
		    int dirfd, const char *name)
{
	struct timespec ts[2] = {{st->atime, 0}, {st->mtime, 0}};
	char path[64 + 256];
	int own;

	set_owner_ok(ex, st, &own);
	if (own && fchownat(dirfd, name, st->uid, st->gid, AT_SYMLINK_NOFOLLOW) < 0)
		fail(ex, rel, "chown: %s", strerror(errno));
	snprintf(path, sizeof(path), "/proc/self/fd/%d/%s", dirfd, name);
	set_xattrs(ex, rel, h, -1, path);
	if (!S_ISLNK(st->mode) && fchmodat(dirfd, name, st->mode & 07777, 0) < 0)
		fail(ex, rel, "chmod: %s", strerror(errno));
	if (utimensat(dirfd, name, ts, AT_SYMLINK_NOFOLLOW) < 0)
		fail(ex, rel, "setting times: %s", strerror(errno));
}

/* ---- pass 1: the tree ---- */

/* Makes room for a new non-directory dirfd/name: refuses an existing
 * entry unless --force, and never replaces a directory. */
static int clear_slot(struct ex *ex, int dirfd, const char *name, const char *rel)
{
	struct stat st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return 0;
	if (!ex->o->force || S_ISDIR(st.st_mode)) {
		fail(ex, rel, "already exists%s", ex->o->force ? " as a directory" :
								 " (use --force to replace)");
		return -1;
	}
	if (unlinkat(dirfd, name, 0) < 0) {
		fail(ex, rel, "removing the existing file: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static int open_dir(struct ex *ex, int dirfd, const char *name, const char *rel, mode_t mode)
{
	struct stat st;
	int fd;

	if (mkdirat(dirfd, name, mode) < 0 && errno != EEXIST) {
		fail(ex, rel, "mkdir: %s", strerror(errno));
		return -1;
	}
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		fail(ex, rel, "%s", errno == ENOTDIR || errno == ELOOP
					    ? "exists and is not a directory"
					    : strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

static void walk(struct ex *ex, int dirfd, uint64_t dir, const char *rel, int depth);

static void make_link(struct ex *ex, int dirfd, const char *name, const char *rel,
		      const char *first)
{
	int fd = ff_open_beneath(ex->root, first, O_PATH, 0);
	char src[64];

	if (fd < 0) {
		fail(ex, rel, "hard link to %s: %s", first, strerror(errno));
		return;
	}
	snprintf(src, sizeof(src), "/proc/self/fd/%d", fd);
	if (clear_slot(ex, dirfd, name, rel) == 0 &&
	    linkat(AT_FDCWD, src, dirfd, name, AT_SYMLINK_FOLLOW) < 0)
		fail(ex, rel, "hard link to %s: %s", first, strerror(errno));
	close(fd);
}

static void make_symlink(struct ex *ex, int dirfd, const char *name, const char *rel,
			 uint64_t h, const struct ff_stat *st)
{
	char target[4097];
	ssize_t n = ex->fs->ops->readlink(ex->fs, h, target, sizeof(target) - 1);

	if (n < 0 || (size_t)n >= sizeof(target) || memchr(target, '\0', (size_t)n)) {
		fail(ex, rel, "reading symlink: %s", n < 0 ? strerror((int)-n) : "bad target");
		return;
	}
	target[n] = '\0';
	if (clear_slot(ex, dirfd, name, rel) < 0)
		return;
	if (symlinkat(target, dirfd, name) < 0) {
		fail(ex, rel, "symlink: %s", strerror(errno));
		return;
	}
	meta_at(ex, rel, h, st, dirfd, name);
}

static void make_node(struct ex *ex, int dirfd, const char *name, const char *rel, uint64_t h,
		      const struct ff_stat *st)
{
	dev_t dev = makedev(st->rdev_major, st->rdev_minor);

	if (clear_slot(ex, dirfd, name, rel) < 0)
		return;
	if (mknodat(dirfd, name, (st->mode & S_IFMT) | 0600, dev) < 0) {
		if (errno == EPERM && !ex->is_root)
			warn_once(ex, S_ISSOCK(st->mode) ? W_SOCKET : W_DEVICE,
				  "cannot create device nodes or sockets");
		else
			fail(ex, rel, "mknod: %s", strerror(errno));
		return;
	}
	meta_at(ex, rel, h, st, dirfd, name);
}

static void make_file(struct ex *ex, int dirfd, const char *name, const char *rel, uint64_t h,
		      const struct ff_stat *st)
{
	int fd;

	if (clear_slot(ex, dirfd, name, rel) < 0)
		return;
	fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		fail(ex, rel, "create: %s", strerror(errno));
		return;
	}
	close(fd);
	if (push(&ex->files, rel, h, st) < 0)
		fail(ex, rel, "out of memory");
}

static void make_dir(struct ex *ex, int dirfd, const char *name, const char *rel, uint64_t h,
		     const struct ff_stat *st, int depth)
{
	int fd;

	if (depth > MAX_DEPTH || ff_hmap_get(&ex->dirs_seen, h)) {
		fail(ex, rel, "directory loop or nesting deeper than %d", MAX_DEPTH);
		return;
	}
	fd = open_dir(ex, dirfd, name, rel, 0700);
	if (fd < 0)
		return;
	if (ff_hmap_put(&ex->dirs_seen, h, (void *)1) < 0 || push(&ex->dirs, rel, h, st) < 0)
		fail(ex, rel, "out of memory");
	else
		walk(ex, fd, h, rel, depth + 1);
	close(fd);
}

static void entry(struct ex *ex, int dirfd, const char *name, const char *rel, uint64_t h,
		  int depth)
{
	struct ff_stat st;
	const char *first;
	int r = ex->fs->ops->getattr(ex->fs, h, &st);

	if (r < 0) {
		fail(ex, rel, "%s", strerror(-r));
		return;
	}
	if (S_ISDIR(st.mode)) {
		make_dir(ex, dirfd, name, rel, h, &st, depth);
		return;
	}
	first = st.nlink > 1 ? ff_hmap_get(&ex->links, h) : NULL;
	if (first) {
		make_link(ex, dirfd, name, rel, first);
		return;
	}
	if (S_ISREG(st.mode))
		make_file(ex, dirfd, name, rel, h, &st);
	else if (S_ISLNK(st.mode))
		make_symlink(ex, dirfd, name, rel, h, &st);
	else
		make_node(ex, dirfd, name, rel, h, &st);
	if (st.nlink > 1) {
		char *copy = strdup(rel);

		if (!copy || ff_hmap_put(&ex->links, h, copy) < 0)
			free(copy);
	}
}

struct dents {
	struct ex *ex;
	const char *rel;
	char **names;
	uint64_t *handles;
	size_t n, cap;
};

static int collect(void *ctx, const char *name, size_t len, uint64_t h, uint32_t mode,
		   uint64_t cookie)
{
	struct dents *d = ctx;
	char *copy;

	(void)mode, (void)cookie;
	if (!ff_name_safe(name, len)) {
		fail(d->ex, d->rel, "refusing entry named \"%.*s\"", (int)len, name);
		return 0;
	}
	if (d->n) {
		const char *prev = d->names[d->n - 1];
		size_t plen = strlen(prev);
		int c = memcmp(prev, name, plen < len ? plen : len);

		if (c > 0 || (c == 0 && plen >= len)) {
			fail(d->ex, d->rel, "refusing duplicate or unsorted entry \"%.*s\"", (int)len,
			     name);
			return 0;
		}
	}
	if (d->n == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 64;
		char **nv = realloc(d->names, cap * sizeof(*nv));
		uint64_t *hv = nv ? realloc(d->handles, cap * sizeof(*hv)) : NULL;

		if (nv)
			d->names = nv;
		if (!hv)
			return 1;
		d->handles = hv;
		d->cap = cap;
	}
	copy = strndup(name, len);
	if (!copy)
		return 1;
	d->names[d->n] = copy;
	d->handles[d->n++] = h;
	return 0;
}

static void walk(struct ex *ex, int dirfd, uint64_t dir, const char *rel, int depth)
{
	struct dents d = {ex, rel, NULL, NULL, 0, 0};
	int r = ex->fs->ops->readdir(ex->fs, dir, 0, collect, &d);
	size_t i;

	if (r < 0)
		fail(ex, rel, "reading directory: %s", strerror(-r));
	for (i = 0; i < d.n; i++) {
		size_t len = strlen(rel) + strlen(d.names[i]) + 2;
		char *child = malloc(len);

		if (child) {
			snprintf(child, len, "%s/%s", rel, d.names[i]);
			entry(ex, dirfd, d.names[i], strcmp(rel, ".") ? child : child + 2,
			      d.handles[i], depth);
		}
		free(child);
		free(d.names[i]);
	}
	free(d.names);
	free(d.handles);
}

/* ---- pass 2: file contents ---- */

static int is_zero(const uint8_t *p, size_t n)
{
	return n == 0 || (p[0] == 0 && !memcmp(p, p + 1, n - 1));
}

static int fill(struct ex *ex, const struct item *it, int fd, uint8_t *buf)
{
	uint64_t off = 0;

	while (off < it->st.size) {
		ssize_t n = ex->fs->ops->read(ex->fs, it->handle, buf, CHUNK, off);

		if (n <= 0) {
			fail(ex, it->rel, "reading at %llu: %s", (unsigned long long)off,
			     n < 0 ? strerror((int)-n) : "file shorter than its size");
			return -1;
		}
		if (!is_zero(buf, (size_t)n) && pwrite(fd, buf, (size_t)n, (off_t)off) != n) {
			fail(ex, it->rel, "write: %s", strerror(errno));
			return -1;
		}
		off += (uint64_t)n;
	}
	if (ftruncate(fd, (off_t)it->st.size) < 0) {
		fail(ex, it->rel, "truncate: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static void *worker(void *arg)
{
	struct ex *ex = arg;
	uint8_t *buf = malloc(CHUNK);
	size_t i;

	while (buf && (i = atomic_fetch_add(&ex->next, 1)) < ex->files.n) {
		const struct item *it = &ex->files.v[i];
		int fd = ff_open_beneath(ex->root, it->rel, O_WRONLY, 0);

		if (fd < 0) {
			fail(ex, it->rel, "open: %s", strerror(errno));
			continue;
		}
		if (fill(ex, it, fd, buf) < 0) {
			close(fd);
			unlinkat(ex->root, it->rel, 0); /* no partial files */
			continue;
		}
		meta_fd(ex, it->rel, it->handle, &it->st, fd);
		close(fd);
		if (ex->prog)
			ff_progress_add(ex->prog, it->st.size, 1);
	}
	if (!buf)
		fail(ex, ".", "out of memory");
	free(buf);
	return NULL;
}

static void fill_files(struct ex *ex)
{
	int n = ex->o->jobs < 1 ? 1 : ex->o->jobs, i, started = 0;
	pthread_t *t = calloc((size_t)n, sizeof(*t));
	uint64_t bytes = 0;
	size_t k;

	for (k = 0; k < ex->files.n; k++)
		bytes += ex->files.v[k].st.size;
	if (ex->prog)
		ff_progress_set_total(ex->prog, bytes, ex->files.n);
	for (i = 0; t && i + 1 < n && (size_t)i < ex->files.n; i++)
		started += pthread_create(&t[i], NULL, worker, ex) == 0;
	worker(ex);
	for (i = 0; i < started; i++)
		pthread_join(t[i], NULL);
	free(t);
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
		next = strtok_r(NULL, "/", &save);
		if (!strcmp(part, "."))
			continue;
		snprintf(rel + strlen(rel), sizeof(rel) - strlen(rel), "/%s", part);
		if (!next) {
			entry(ex, dirfd, part, rel + 2, h, 0);
		} else {
			int fd = open_dir(ex, dirfd, part, rel + 2, 0755);

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
	struct ff_stat st;
	int r = ex->fs->ops->getattr(ex->fs, root, &st);

	if (r < 0) {
		fail(ex, "/", "%s", strerror(-r));
		return;
	}
	ff_hmap_put(&ex->dirs_seen, root, (void *)1);
	if (push(&ex->dirs, ".", root, &st) < 0)
		fail(ex, "/", "out of memory");
	walk(ex, ex->root, root, ".", 0);
}

static void free_items(struct items *it)
{
	size_t i;

	for (i = 0; i < it->n; i++)
		free(it->v[i].rel);
	free(it->v);
}

int ff_extract(struct ff_fs *fs, const struct ff_extract_opts *o, char **paths, int n)
{
	struct ex ex = {.fs = fs, .o = o, .is_root = geteuid() == 0};
	int i, whole = n == 0;

	if (mkdir(o->dir, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "flashfs extract: %s: %s\n", o->dir, strerror(errno));
		return 2;
	}
	ex.root = open(o->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (ex.root < 0) {
		fprintf(stderr, "flashfs extract: %s: %s\n", o->dir, strerror(errno));
		return 2;
	}
	atomic_init(&ex.next, 0);
	atomic_init(&ex.errors, 0);
	atomic_init(&ex.warned, 0);
	if (o->progress && isatty(2))
		ex.prog = ff_progress_new(2, "files", 0);
	for (i = 0; i < n; i++) {
		const char *p = paths[i] + strspn(paths[i], "/");

		if (!*p)
			whole = 1;
		else
			extract_path(&ex, paths[i]);
	}
	if (whole)
		whole_image(&ex);
	fill_files(&ex);
	finish_dirs(&ex);
	if (ex.prog) {
		ff_progress_finish(ex.prog);
		ff_progress_free(ex.prog);
	}
	ff_hmap_free(&ex.links, free);
	ff_hmap_free(&ex.dirs_seen, NULL);
	free_items(&ex.files);
	free_items(&ex.dirs);
	close(ex.root);
	return atomic_load(&ex.errors) ? 1 : 0;
}
