/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Flat data: a file's whole blocks go to the data area at the next free
 * block; its last partial block either follows them, padded with zeros
 * (flat plain), or goes behind its inode (flat inline): on its way there
 * (write_tails.c) when the inode is placed already, else (a late inode,
 * stored flat after compression gained nothing) kept until its place is
 * known.
 * EROFS's flat layouts have no holes, so a sparse file's zeros are
 * stored. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "erofs/write_priv.h"

#define CHUNK (1u << 20)

/* Directory blocks and symlink targets, from memory. */
static int write_mem(struct ew *w, struct ew_ino *e, const uint8_t *mem, struct ff_err *err)
{
	uint64_t len = (uint64_t)e->nblocks << w->blkbits;
	uint64_t have = e->size - e->inline_len;

	if (have > len)
		have = len;
	return ff_outfile_write(&w->out, mem, (size_t)have, err) ||
	       ff_outfile_pad(&w->out, w->blksz, err) ||
	       (e->inline_len && ew_tail_put(w, e, mem + have, err)) ? -1 : 0;
}

int ew_read_at(struct ff_data *d, const struct ew_ino *e, uint8_t *buf, size_t len,
	       uint64_t off, struct ff_err *err)
{
	ssize_t got = ff_data_pread(d, buf, len, off, err);
	char path[4096];

	if (got == (ssize_t)len)
		return 0;
	if (got >= 0) {
		if (ff_node_path(e->n, path, sizeof(path)) < 0)
			path[0] = 0;
		ff_err_set(err, EIO, "%s: file shrank (%zd of %zu bytes at %llu)", path, got, len,
			   (unsigned long long)off);
	}
	return -1;
}

/* A late inode's tail, until ew_write_late places it. */
static int keep_tail(struct ff_data *d, struct ew_ino *e, uint64_t body, struct ff_err *err)
{
	if (!(e->ztail = malloc(e->inline_len)))
		return ff_err_set(err, ENOMEM, "file data: out of memory");
	return ew_read_at(d, e, e->ztail, e->inline_len, body, err);
}

static int write_file(struct ew *w, struct ew_ino *e, struct ff_err *err)
{
	struct ff_data *d = ff_tree_open_data(w->tree, e->n, err);
	uint64_t body = e->size - e->inline_len;
	/* no more than the file needs: most are small, and a 1 MiB buffer per
	 * file is an mmap and munmap each (glibc's threshold, ASan's always);
	 * the tail (less than a block) is read into it too */
	uint8_t *buf = malloc(body < CHUNK ? (size_t)body + e->inline_len + 1 : CHUNK);
	int r = 0;

	if (!d || !buf) {
		free(buf);
		ff_data_close(d);
		return d ? ff_err_set(err, ENOMEM, "file data: out of memory") : -1;
	}
	for (uint64_t off = 0; off < body && !r; off += CHUNK) {
		size_t len = body - off < CHUNK ? (size_t)(body - off) : CHUNK;

		r = ew_read_at(d, e, buf, len, off, err) || ff_outfile_write(&w->out, buf, len, err);
	}
	if (!r)
		r = ff_outfile_pad(&w->out, w->blksz, err);
	if (!r && e->inline_len && !e->late)
		r = ew_read_at(d, e, buf, e->inline_len, body, err) || ew_tail_put(w, e, buf, err);
	if (!r && e->inline_len && e->late)
		r = keep_tail(d, e, body, err);
	free(buf);
	ff_data_close(d);
	return r ? -1 : 0;
}

int ew_write_flat(struct ew *w, struct ew_ino *e, const uint8_t *mem, struct ff_err *err)
{
	int r;

	if (!e->nblocks && !e->inline_len)
		return 0;
	e->blkaddr = w->next_blk;
	if (S_ISREG(e->n->mode))
		r = write_file(w, e, err);
	else
		r = write_mem(w, e, mem, err);
	w->next_blk += e->nblocks;
	return r;
}
