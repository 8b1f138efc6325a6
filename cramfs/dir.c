/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Directory listings: a directory inode's offset is where its listing
 * starts and its size how many bytes it takes; the listing is entries of
 * an inode (12 bytes) then the name, NUL-padded to its 4-byte units.
 *
 * mkfs.cramfs writes a directory's listing after the listing that holds
 * the directory's own entry, so offsets grow along every path; a listing
 * that does not start after its directory's inode is refused, which is
 * what keeps a damaged image from looping. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cramfs/reader.h"

uint64_t cr_root_handle(const struct cr_fs *c)
{
	return c->sb.start + CR_ROOT_AT;
}

int cr_node(struct cr_fs *c, uint64_t handle, struct cr_inode *in, struct ff_err *err)
{
	uint8_t b[CR_INODE_SIZE];

	if (handle == cr_root_handle(c)) {
		*in = c->sb.root;
		return 0;
	}
	if (handle < c->sb.start + CR_SUPER_SIZE || handle % 4 || handle + CR_INODE_SIZE > c->span)
		return ff_err_set(err, ENOENT, "no inode at %llu", (unsigned long long)handle);
	if (ff_bsrc_read(c->src, b, CR_INODE_SIZE, handle, err))
		return -1;
	cr_inode_decode(b, c->sb.big, in);
	return 0;
}

static int listing_bounds(struct cr_fs *c, uint64_t dh, const struct cr_inode *dir,
			  struct ff_err *err)
{
	uint64_t end = (uint64_t)dir->offset + dir->size;

	if (!dir->size)
		return 0;
	if (!dir->offset)
		return ff_err_set(err, EIO, "directory at %llu: offset 0 with size %u",
				  (unsigned long long)dh, dir->size);
	if (dir->offset <= dh)
		return ff_err_set(err, EIO, "directory at %llu: listing at %u does not come after"
				  " its inode (a loop?)", (unsigned long long)dh, dir->offset);
	if (end > c->span)
		return ff_err_set(err, EIO, "directory at %llu: listing at %u (%u bytes) past end"
				  " of image (%llu bytes)", (unsigned long long)dh, dir->offset,
				  dir->size, (unsigned long long)c->span);
	return 0;
}

/* The name as the kernel takes it: the padded bytes without their
 * trailing NULs; an empty one, one with a NUL inside, a '/', "." or ".."
 * cannot be a name. */
static int entry_name(const uint8_t *p, uint32_t units, size_t *len, uint64_t at,
		      struct ff_err *err)
{
	size_t n = units;

	while (n && !p[n - 1])
		n--;
	if (!n)
		return ff_err_set(err, EIO, "entry at %llu: empty name", (unsigned long long)at);
	if (memchr(p, 0, n) || memchr(p, '/', n) || (n == 1 && p[0] == '.') ||
	    (n == 2 && p[0] == '.' && p[1] == '.'))
		return ff_err_set(err, EIO, "entry at %llu: bad name \"%.*s\"",
				  (unsigned long long)at, (int)n, (const char *)p);
	*len = n;
	return 0;
}

static int walk_buf(struct cr_fs *c, const uint8_t *buf, const struct cr_inode *dir,
		    uint64_t pos, cr_dirent_fn fn, void *ctx, struct ff_err *err)
{
	while (pos < dir->size) {
		struct cr_dirent e;
		uint64_t at = dir->offset + pos;

		if (pos + CR_INODE_SIZE > dir->size)
			return ff_err_set(err, EIO, "entry at %llu: cut off by the listing's end",
					  (unsigned long long)at);
		cr_inode_decode(buf + pos, c->sb.big, &e.in);
		if (!e.in.name_bytes || pos + CR_INODE_SIZE + e.in.name_bytes > dir->size)
			return ff_err_set(err, EIO, "entry at %llu: name of %u bytes does not fit the"
					  " listing (%u bytes at %u)", (unsigned long long)at,
					  e.in.name_bytes, dir->size, dir->offset);
		if (entry_name(buf + pos + CR_INODE_SIZE, e.in.name_bytes, &e.len, at, err))
			return -1;
		e.handle = at;
		e.name = (const char *)buf + pos + CR_INODE_SIZE;
		e.next = pos + CR_INODE_SIZE + e.in.name_bytes;
		if (fn(ctx, &e))
			break;
		pos = e.next;
	}
	return 0;
}

int cr_dir_walk(struct cr_fs *c, uint64_t dh, const struct cr_inode *dir, uint64_t start,
		cr_dirent_fn fn, void *ctx, struct ff_err *err)
{
	uint8_t *buf;
	int r;

	if (listing_bounds(c, dh, dir, err))
		return -1;
	if (start >= dir->size)
		return 0;
	buf = malloc(dir->size);
	if (!buf)
		return ff_err_set(err, ENOMEM, "out of memory");
	r = ff_bsrc_read(c->src, buf, dir->size, dir->offset, err);
	if (!r)
		r = walk_buf(c, buf, dir, start, fn, ctx, err);
	free(buf);
	return r;
}
