/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Test driver for the mkfs source-tree model: builds a tree from the given
 * sources (in order) and prints it after ff_tree_finish, one line per node:
 *
 *   path type mode uid gid size mtime nlink target rdev link xattrs crc32
 *
 * so trees from a directory, a tar archive and a spec file can be compared
 * with diff.  Content is read back through ff_tree_open_data and summarised
 * with zlib's crc32.
 *
 *   tree_dump [options] [DIR] [--tar FILE] [--spec FILE] [--pf FILE]
 *             [-p LINE] [--sort FILE]
 *   options: --all-root --force-uid N --force-gid N --all-time N --clamp N
 *            --no-xattrs --one-file-system --ignore-errors -e PATTERN
 *            --summary --extract OUTDIR
 *
 * --extract writes the finished tree out as a real directory (contents,
 * owners, modes, mtimes, xattrs, devices, hard links) so that
 * tests/tools/manifest.py can compare it with the source. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <zlib.h>

#include "tree/tree.h"

static void warn(void *ctx, const struct ff_warning *w)
{
	char line[1536];

	(void)ctx;
	fprintf(stderr, "tree_dump: warning: %s\n", ff_warning_text(w, line, sizeof(line)));
}

static const char *kind(uint32_t m)
{
	switch (m & S_IFMT) {
	case S_IFDIR: return "dir";
	case S_IFREG: return "file";
	case S_IFLNK: return "link";
	case S_IFCHR: return "chr";
	case S_IFBLK: return "blk";
	case S_IFIFO: return "fifo";
	case S_IFSOCK: return "sock";
	}
	return "?";
}

static void print_hex(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		printf("%02x", p[i]);
}

/* Paths with blanks or unprintable bytes are printed as hex, like
 * manifest.py does, so every line keeps the same number of fields. */
static void print_path(const char *p)
{
	for (const char *q = p; *q; q++) {
		if (*q <= ' ' || *q >= 0x7f) {
			print_hex((const uint8_t *)p, strlen(p));
			return;
		}
	}
	fputs(p, stdout);
}

static int content_crc(const struct ff_tree *t, const struct ff_node *n, unsigned long *crc)
{
	static uint8_t buf[1 << 16];
	struct ff_err err = { 0 };
	struct ff_data *d = ff_tree_open_data(t, n, &err);
	uint64_t off = 0;

	*crc = crc32(0, NULL, 0);
	if (!d) {
		fprintf(stderr, "tree_dump: %s\n", err.msg);
		return -1;
	}
	while (off < n->size) {
		ssize_t r = ff_data_pread(d, buf, sizeof(buf), off, &err);

		if (r <= 0) {
			fprintf(stderr, "tree_dump: %s\n", r < 0 ? err.msg : "unexpected end of data");
			ff_data_close(d);
			return -1;
		}
		*crc = crc32(*crc, buf, (uInt)r);
		off += (uint64_t)r;
	}
	ff_data_close(d);
	return 0;
}

static int dump_node(const struct ff_tree *t, const struct ff_node *n)
{
	char path[4096], lpath[4096];
	unsigned long crc = 0;

	if (ff_node_path(n, path, sizeof(path)) < 0)
		return -1;
	print_path(*path ? path : ".");
	printf(" %s %04o %u %u %llu %lld %u ", kind(n->mode),
	       n->mode & 07777, n->uid, n->gid,
	       S_ISREG(n->mode) || S_ISLNK(n->mode) ? (unsigned long long)n->size : 0ull,
	       (long long)n->mtime, ff_node_nlink(n));
	if (S_ISLNK(n->mode) && n->target) /* a directory's word holds its children */
		print_hex((const uint8_t *)n->target, strlen(n->target));
	else
		putchar('-');
	if (S_ISCHR(n->mode) || S_ISBLK(n->mode))
		printf(" %u,%u", n->rdev_major, n->rdev_minor);
	else
		printf(" -");
	putchar(' ');
	if (ff_node_link(n) && ff_node_path(ff_node_link(n), lpath, sizeof(lpath)) >= 0)
		print_path(lpath);
	else
		putchar('-');
	putchar(' ');
	if (!ff_node_link(n) && ff_node_n_xattrs(n)) {
		for (uint32_t i = 0; i < ff_node_n_xattrs(n); i++) {
			printf("%s%s=", i ? "," : "", ff_node_xattrs(n)[i].name);
			print_hex(ff_node_xattrs(n)[i].value, ff_node_xattrs(n)[i].len);
		}
	} else {
		putchar('-');
	}
	if (S_ISREG(n->mode) && !ff_node_link(n) && content_crc(t, n, &crc))
		return -1;
	printf(" %08lx %d\n", crc, ff_tree_sort_priority(t, n));
	return 0;
}

static int extract_data(const struct ff_tree *t, const struct ff_node *n, const char *out)
{
	static uint8_t buf[1 << 16];
	struct ff_err err = { 0 };
	struct ff_data *d = ff_tree_open_data(t, n, &err);
	int fd = open(out, O_WRONLY | O_CREAT | O_EXCL, 0600);
	uint64_t off = 0;
	int rc = d && fd >= 0 ? 0 : -1;

	while (!rc && off < n->size) {
		ssize_t r = ff_data_pread(d, buf, sizeof(buf), off, &err);

		if (r <= 0 || pwrite(fd, buf, (size_t)r, (off_t)off) != r)
			rc = -1;
		off += r > 0 ? (uint64_t)r : 0;
	}
	if (!rc && ftruncate(fd, (off_t)n->size))
		rc = -1;
	if (rc)
		fprintf(stderr, "tree_dump: %s: %s\n", out, err.msg[0] ? err.msg : "write failed");
	if (fd >= 0)
		close(fd);
	ff_data_close(d);
	return rc;
}

static int extract_node(const struct ff_tree *t, const struct ff_node *n, const char *out,
			const char *root)
{
	char lpath[4096], lout[8192];
	dev_t dev = makedev(n->rdev_major, n->rdev_minor);

	if (ff_node_link(n)) {
		ff_node_path(ff_node_link(n), lpath, sizeof(lpath));
		snprintf(lout, sizeof(lout), "%s/%s", root, lpath);
		return link(lout, out);
	}
	switch (n->mode & S_IFMT) {
	case S_IFDIR: return mkdir(out, 0700);
	case S_IFREG: return extract_data(t, n, out);
	case S_IFLNK: return symlink(n->target, out);
	default: return mknod(out, (n->mode & S_IFMT) | 0600, dev);
	}
}

/* Owners, modes, xattrs and times, children before parents so setting a
 * directory's mtime comes last. */
static int extract_meta(const struct ff_node *n, const char *out)
{
	struct timespec ts[2] = { { n->mtime, 0 }, { n->mtime, 0 } };
	int rc = lchown(out, n->uid, n->gid);

	for (uint32_t i = 0; !rc && i < ff_node_n_xattrs(n); i++) {
		const struct ff_xattr *x = &ff_node_xattrs(n)[i];

		rc = lsetxattr(out, x->name, x->value, x->len, 0);
	}
	if (!rc && !S_ISLNK(n->mode))
		rc = chmod(out, n->mode & 07777);
	if (!rc)
		rc = utimensat(AT_FDCWD, out, ts, AT_SYMLINK_NOFOLLOW);
	return rc;
}

static int extract(const struct ff_tree *t, const char *root)
{
	uint32_t count = ff_tree_count(t), k = 0;
	const struct ff_node **all = calloc(count, sizeof(*all));
	char path[4096], out[8192];
	int rc = 0;

	for (const struct ff_node *n = ff_tree_root(t); n && !rc; n = ff_tree_next(t, n)) {
		all[k++] = n;
		ff_node_path(n, path, sizeof(path));
		snprintf(out, sizeof(out), "%s/%s", root, path);
		if ((rc = extract_node(t, n, out, root)))
			perror(out);
	}
	while (!rc && k--) {
		if (ff_node_link(all[k]))
			continue;
		ff_node_path(all[k], path, sizeof(path));
		snprintf(out, sizeof(out), "%s/%s", root, path);
		if ((rc = extract_meta(all[k], out)))
			perror(out);
	}
	free(all);
	return rc;
}

static int add_source(struct ff_tree *t, const char *kind_, const char *arg, struct ff_err *err)
{
	if (!strcmp(kind_, "dir"))
		return ff_tree_add_dir(t, arg, err);
	if (!strcmp(kind_, "--tar"))
		return ff_tree_add_tar(t, arg, err);
	if (!strcmp(kind_, "--spec"))
		return ff_tree_add_spec(t, arg, err);
	if (!strcmp(kind_, "--pf"))
		return ff_tree_add_pseudo_file(t, arg, err);
	if (!strcmp(kind_, "-p"))
		return ff_tree_add_pseudo_line(t, arg, err);
	return ff_tree_load_sort(t, arg, err);
}

static int is_source(const char *a)
{
	return !strcmp(a, "--tar") || !strcmp(a, "--spec") || !strcmp(a, "--pf") ||
	       !strcmp(a, "-p") || !strcmp(a, "--sort");
}

/* Options come first (they shape the tree object), then sources. */
static int parse_opts(int argc, char **argv, struct ff_tree_opts *o, const char **ex,
		      int *summary, const char **extract_to)
{
	int i, n_ex = 0;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--all-root"))
			o->all_root = 1;
		else if (!strcmp(a, "--no-xattrs"))
			o->no_xattrs = 1;
		else if (!strcmp(a, "--one-file-system"))
			o->one_file_system = 1;
		else if (!strcmp(a, "--ignore-errors"))
			o->ignore_errors = 1;
		else if (!strcmp(a, "--summary"))
			*summary = 1;
		else if (v && !strcmp(a, "--force-uid"))
			o->force_uid = atoll(v), i++;
		else if (v && !strcmp(a, "--force-gid"))
			o->force_gid = atoll(v), i++;
		else if (v && !strcmp(a, "--all-time"))
			o->all_time = atoll(v), i++;
		else if (v && !strcmp(a, "--clamp"))
			o->clamp_time = atoll(v), i++;
		else if (v && !strcmp(a, "--extract"))
			*extract_to = v, i++;
		else if (v && !strcmp(a, "-e") && n_ex < 63)
			ex[n_ex++] = v, i++;
		else
			break;
	}
	ex[n_ex] = NULL;
	o->excludes = ex;
	o->n_excludes = (size_t)n_ex;
	return i;
}

int main(int argc, char **argv)
{
	struct ff_tree_opts o = { .force_uid = -1, .force_gid = -1, .all_time = -1,
				  .clamp_time = -1, .warn = warn };
	const char *ex[64], *extract_to = NULL;
	struct ff_err err = { 0 };
	struct ff_tree *t;
	int i, summary = 0, rc = 0;

	i = parse_opts(argc, argv, &o, ex, &summary, &extract_to);
	if (!(t = ff_tree_new(&o, &err)))
		goto fail;
	for (; i < argc; i++) {
		int src = is_source(argv[i]);

		if (src && i + 1 >= argc) {
			fprintf(stderr, "tree_dump: %s needs an argument\n", argv[i]);
			return 2;
		}
		if (add_source(t, src ? argv[i] : "dir", src ? argv[i + 1] : argv[i], &err))
			goto fail;
		i += src;
	}
	if (ff_tree_finish(t, &err))
		goto fail;
	if (extract_to) {
		rc = extract(t, extract_to);
	} else if (summary) {
		printf("nodes %u bytes %llu\n", ff_tree_count(t),
		       (unsigned long long)ff_tree_data_bytes(t));
	} else {
		for (struct ff_node *n = ff_tree_root(t); n && !rc; n = ff_tree_next(t, n))
			rc = dump_node(t, n);
	}
	ff_tree_free(t);
	return rc ? 1 : 0;
fail:
	fprintf(stderr, "tree_dump: %s\n", err.msg);
	ff_tree_free(t);
	return 1;
}
