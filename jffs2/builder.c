/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The tree in mkfs.jffs2's order (see writer.h): for a directory, the
 * xattr refs of the directory itself, then each entry (dirent, inode
 * node or data nodes, xattr refs; only a dirent for a later name of a
 * hard-linked file), then each subdirectory that has entries.  A
 * subdirectory's refs thus come twice when it has entries, as mkfs.jffs2
 * writes them.  Inode numbers (the root is 1), dirent versions (from 0),
 * xattr ids and xref sequence numbers (2, 4, ...) count up in this
 * order.  Times are the entry's mtime (atime and ctime too). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/endian.h"
#include "jffs2/builder.h"

#define MAX_FILE_SIZE 0xffffffffull

int j2_submit_node(struct j2_build *b, const uint8_t *node, uint32_t len, uint32_t req,
		       struct ff_err *err)
{
	struct j2_item it = { .kind = J2_ITEM_NODE, .len = len, .req = req };

	it.buf = malloc(len ? len : 1);
	if (!it.buf)
		return ff_err_set(err, ENOMEM, "out of memory");
	memcpy(it.buf, node, len);
	return j2_pipe_submit(b, &it, err);
}

static void fill_inode(const struct j2_build *b, const struct ff_node *n, uint32_t ino,
		       struct j2_inode_node *ri)
{
	uint32_t mode = n->mode;

	if (b->o->squash_perms && !S_ISLNK(mode))
		mode &= ~(uint32_t)(S_IWGRP | S_IWOTH | S_ISUID | S_ISGID);
	memset(ri, 0, sizeof(*ri));
	ri->ino = ino;
	ri->mode = mode;
	ri->uid = (uint16_t)n->uid;
	ri->gid = (uint16_t)n->gid;
	ri->atime = ri->mtime = ri->ctime = (uint32_t)n->mtime;
}

static int put_dirent(struct j2_build *b, const struct ff_node *e, const struct ff_node *meta,
		      uint32_t pino, uint32_t ino, struct ff_err *err)
{
	uint8_t node[J2_DIRENT_SIZE + 256];
	uint32_t len = j2_dirent_encode(node, pino, b->dirent_version++, ino, (uint32_t)meta->mtime,
					(uint8_t)((meta->mode & S_IFMT) >> 12),
					(const uint8_t *)ff_node_name(e), (uint8_t)e->name_len,
					b->o->big_endian);

	/* totlen counts the whole name, as mkfs.jffs2's strlen does */
	return j2_submit_node(b, node, len, J2_DIRENT_SIZE + e->name_len, err);
}

/* Directories, fifos and sockets: an inode node without data; devices
 * carry the old 16-bit (major << 8) + minor; symlinks their target (at
 * most 254 bytes). */
static int put_inode(struct j2_build *b, const struct ff_node *n, uint32_t ino,
		     struct ff_err *err)
{
	uint8_t node[J2_INODE_SIZE + J2_MAX_SYMLINK], data[J2_MAX_SYMLINK];
	struct j2_inode_node ri;
	uint32_t len;

	fill_inode(b, n, ino, &ri);
	ri.version = 1;
	if (S_ISCHR(n->mode) || S_ISBLK(n->mode)) {
		ff_put16(data, (uint16_t)((n->rdev_major << 8) + n->rdev_minor), b->o->big_endian);
		ri.csize = ri.dsize = 2;
	} else if (S_ISLNK(n->mode)) {
		size_t tl = strlen(n->target);

		ri.isize = (uint32_t)tl;
		if (tl > J2_MAX_SYMLINK) {
			ff_warnf(b->o->warn, b->o->warn_ctx, FF_WARN_CONVERTED, ff_node_name(n),
				 "symlink target of %zu bytes truncated to %u", tl, J2_MAX_SYMLINK);
			b->st->warnings++;
			tl = J2_MAX_SYMLINK;
		}
		memcpy(data, n->target, tl);
		ri.csize = ri.dsize = (uint32_t)tl;
	}
	len = j2_inode_encode(node, &ri, data, b->o->big_endian);
	memcpy(node + J2_INODE_SIZE, data, ri.csize);
	return j2_submit_node(b, node, len, len, err);
}

static int read_page(struct ff_data *d, struct j2_item *it, uint64_t off, uint32_t len,
		     uint32_t out_size, struct ff_err *err)
{
	ssize_t got;

	it->buf = malloc((size_t)len + out_size);
	if (!it->buf)
		return ff_err_set(err, ENOMEM, "out of memory");
	it->out = it->buf + len;
	got = ff_data_pread(d, it->buf, len, off, err);
	if (got != (ssize_t)len) {
		free(it->buf);
		return got < 0 ? -1 : ff_err_set(err, EIO, "file shrank while being read");
	}
	return 0;
}

static int submit_pages(struct j2_build *b, const struct ff_node *n, struct ff_data *d,
			struct j2_file *f, struct ff_err *err)
{
	uint32_t page = b->o->page_size, out_size = (uint32_t)j2_compr_out_size(page);

	for (uint64_t off = 0; off < n->size; off += page) {
		struct j2_item it = { .kind = J2_ITEM_PAGE, .f = f };

		it.len = n->size - off < page ? (uint32_t)(n->size - off) : page;
		it.last = off + it.len >= n->size;
		if (read_page(d, &it, off, it.len, out_size, err)) {
			struct j2_item end = { .kind = J2_ITEM_PAGE, .f = f, .last = 1 };

			/* the file's state goes with its last item: an empty
			 * one, never laid out since the build has failed */
			if (!off)
				free(f);
			else
				(void)j2_pipe_submit(b, &end, err);
			return -1;
		}
		if (j2_pipe_submit(b, &it, err))
			return -1;
	}
	return 0;
}

static int put_file(struct j2_build *b, const struct ff_node *n, uint32_t ino,
		    struct ff_err *err)
{
	struct j2_file *f;
	struct ff_data *d;
	int r;

	if (n->size == 0) {
		uint8_t node[J2_INODE_SIZE];
		struct j2_inode_node ri;

		fill_inode(b, n, ino, &ri);
		ri.version = 1;
		return j2_submit_node(b, node, j2_inode_encode(node, &ri, NULL, b->o->big_endian),
				   J2_INODE_SIZE, err);
	}
	f = calloc(1, sizeof(*f));
	if (!f)
		return ff_err_set(err, ENOMEM, "out of memory");
	fill_inode(b, n, ino, &f->ri);
	f->ri.isize = (uint32_t)n->size;
	d = ff_tree_open_data(b->tree, n, err);
	if (!d) {
		free(f);
		return -1;
	}
	r = submit_pages(b, n, d, f, err);
	ff_data_close(d);
	return r;
}

static int put_entry(struct j2_build *b, const struct ff_node *e, uint32_t pino,
		     struct ff_err *err)
{
	struct ff_node *p = ff_node_primary(e);
	uint32_t ino;
	int r;

	if (p->priv)
		return put_dirent(b, e, p, pino, p->priv, err);
	if (S_ISREG(p->mode) && p->size >= MAX_FILE_SIZE) {
		ff_warnf(b->o->warn, b->o->warn_ctx, FF_WARN_SKIPPED, ff_node_name(e),
			 "skipped: %llu bytes is too large for JFFS2",
			 (unsigned long long)p->size);
		b->st->warnings++;
		return 0;
	}
	ino = ++b->ino;
	p->priv = ino;
	if (put_dirent(b, e, p, pino, ino, err))
		return -1;
	r = S_ISREG(p->mode) ? put_file(b, p, ino, err) : put_inode(b, p, ino, err);
	return r ? r : j2_put_xattrs(b, p, ino, err);
}

static int populate(struct j2_build *b, const struct ff_node *dir, uint32_t dir_ino,
		    struct ff_err *err)
{
	if (j2_put_xattrs(b, dir, dir_ino, err))
		return -1;
	for (uint32_t i = 0; i < dir->n_children; i++)
		if (put_entry(b, dir->children[i], dir_ino, err))
			return -1;
	for (uint32_t i = 0; i < dir->n_children; i++) {
		const struct ff_node *c = dir->children[i];

		if (!ff_node_link(c) && S_ISDIR(c->mode) && c->n_children &&
		    populate(b, c, c->priv, err))
			return -1;
	}
	return 0;
}

static void clear_priv(const struct ff_tree *t)
{
	for (struct ff_node *n = ff_tree_root(t); n; n = ff_tree_next(t, n))
		n->priv = 0;
}

static int build(struct j2_build *b, struct ff_outfile *of, struct ff_err *err)
{
	int r;

	if (j2_lay_init(&b->lay, b->o, of, err))
		return -1;
	r = j2_pipe_start(b, err);
	b->ino = 1;
	if (r == 0) {
		struct ff_node *root = ff_tree_root(b->tree);

		clear_priv(b->tree);
		root->priv = 1;
		r = populate(b, root, 1, err);
	}
	r = j2_pipe_drain(b, r != 0, err);
	j2_pipe_stop(b);
	if (r == 0)
		r = j2_lay_finish(&b->lay, err);
	b->st->bytes = b->lay.ofs;
	j2_lay_free(&b->lay);
	ff_hmap_clear(&b->xattrs, NULL);
	clear_priv(b->tree);
	b->st->inodes = b->ino;
	return r;
}

/* Without a path the image goes to out_fd, but only once it is whole:
 * it is built in an unnamed file in TMPDIR first. */
static int copy_out(struct ff_outfile *of, int out_fd, struct ff_err *err)
{
	struct ff_outfile_kept k;
	uint8_t buf[65536];
	uint64_t off = 0;
	int r = 0;

	if (ff_outfile_detach(of, &k, err))
		return -1;
	for (;;) {
		ssize_t n = pread(k.fd, buf, sizeof(buf), (off_t)off);

		if (n <= 0) {
			if (n < 0)
				r = ff_err_sys(err, errno, "cannot read the image back");
			break;
		}
		for (ssize_t w = 0, m; w < n; w += m)
			if ((m = write(out_fd, buf + w, (size_t)(n - w))) <= 0) {
				r = ff_err_sys(err, errno, "cannot write the image to standard output");
				goto out;
			}
		off += (uint64_t)n;
	}
out:
	close(k.fd);
	if (k.name)
		unlink(k.name);
	free(k.name);
	return r;
}

int ff_jffs2_write(const struct ff_tree *tree, const struct ff_jffs2_write_opts *o,
		   const char *path, int out_fd, struct ff_jffs2_write_stats *st,
		   struct ff_err *err)
{
	struct j2_build b;
	struct ff_outfile of;
	char tmp[4096];
	const char *dir = getenv("TMPDIR");

	memset(&b, 0, sizeof(b));
	memset(st, 0, sizeof(*st));
	b.tree = tree;
	b.o = o;
	b.st = st;
	if (!path)
		snprintf(tmp, sizeof(tmp), "%s/ffmkfs.jffs2.img", dir && *dir ? dir : "/tmp");
	if (ff_outfile_open(&of, path ? path : tmp, err))
		return -1;
	if (build(&b, &of, err)) {
		ff_outfile_abort(&of);
		return -1;
	}
	return path ? ff_outfile_commit(&of, err) : copy_out(&of, out_fd, err);
}

void ff_jffs2_write_opts_init(struct ff_jffs2_write_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->erase_size = 65536;
	o->page_size = 4096;
	o->cleanmarkers = 1;
	o->cleanmarker_size = J2_HDR_SIZE;
	o->threads = 1;
	ff_jffs2_compr_init(&o->compr);
}
