/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Fragments (-E fragments, all-fragments): the packed inode, a regular
 * file no directory names (the superblock's packed_nid), holds the last
 * extent's input of compressed files and small or (all-fragments) every
 * compressed file whole, back to back in pre-order; a file's map header
 * gives where its part starts.  The packed inode is then compressed like
 * any file, so many small tails share pclusters.  Until then the bytes
 * wait in a temporary file: memory stays one window per worker.
 * A fragment equal to one already there (the same small file, licence
 * or tail in many places) is not stored again: its offset is the first's
 * (found by length and two CRCs, then compared byte for byte). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "common/crc.h"
#include "common/endian.h"

#include "erofs/layout.h"
#include "erofs/write_priv.h"

int ew_frag_open(struct ew *w, struct ff_err *err)
{
	if (!w->o->fragments || w->frag_file)
		return 0;
	if (!(w->frag_file = tmpfile()))
		return ff_err_set(err, errno, "fragments: temporary file: %s", strerror(errno));
	return 0;
}

void ew_frag_close(struct ew *w)
{
	ff_hmap_clear(&w->frag_seen, NULL);
	if (w->frag_file)
		fclose(w->frag_file);
	w->frag_file = NULL;
}

static int frag_put(struct ew *w, const uint8_t *b, size_t len, struct ff_err *err)
{
	while (len) {
		ssize_t n = pwrite(fileno(w->frag_file), b, len, (off_t)w->frag_len);

		if (n <= 0)
			return ff_err_set(err, n < 0 ? errno : EIO, "fragments: write of %zu bytes "
					  "at %llu: %s", len, (unsigned long long)w->frag_len,
					  strerror(n < 0 ? errno : EIO));
		b += n;
		len -= (size_t)n;
		w->frag_len += (uint64_t)n;
	}
	return 0;
}

void ew_fsum_key(const struct ew_fsum *s, uint8_t key[16])
{
	ff_put_le64(key, s->len);
	ff_put_le32(key + 8, s->c1);
	ff_put_le32(key + 12, s->c2);
}

void ew_fsum_add(struct ew_fsum *s, const uint8_t *b, size_t len)
{
	s->c1 = ff_crc32c(s->c1, b, len);
	s->c2 = (uint32_t)crc32(s->c2, b, (uInt)len);
	s->len += len;
}

/* 1 when the fragment's bytes at a and b (len each) are equal. */
static int same_bytes(struct ew *w, uint64_t a, uint64_t b, uint64_t len, struct ff_err *err)
{
	uint8_t x[4096], y[4096];
	int fd = fileno(w->frag_file);

	for (uint64_t at = 0; at < len;) {
		size_t n = len - at < sizeof(x) ? (size_t)(len - at) : sizeof(x);

		if (pread(fd, x, n, (off_t)(a + at)) != (ssize_t)n ||
		    pread(fd, y, n, (off_t)(b + at)) != (ssize_t)n)
			return ff_err_set(err, EIO, "fragments: read back at %llu failed",
					  (unsigned long long)(a + at));
		if (memcmp(x, y, n))
			return 0;
		at += n;
	}
	return 1;
}

/* The fragment just written at e->fragoff: an earlier equal one takes
 * its place (the bytes are dropped), else it is remembered. */
static int frag_dedupe(struct ew *w, struct ew_ino *e, const struct ew_fsum *s, struct ff_err *err)
{
	uint8_t key[16];
	uint64_t prev;
	int r;

	ew_fsum_key(s, key);
	if (ff_hmap_find(&w->frag_seen, key, sizeof(key), &prev)) {
		if ((r = same_bytes(w, prev, e->fragoff, s->len, err)) < 0)
			return -1;
		if (r) {
			w->frag_len = e->fragoff;
			e->fragoff = prev;
			return 0;
		}
	}
	if (ff_hmap_set(&w->frag_seen, key, sizeof(key), e->fragoff))
		return ff_err_set(err, ENOMEM, "fragments: out of memory");
	return 0;
}

int ew_frag_append(struct ew *w, struct ew_ino *e, const uint8_t *b, size_t len,
		   struct ff_err *err)
{
	struct ew_fsum s = { 0, 0, 0 };

	e->fragoff = w->frag_len;
	ew_fsum_add(&s, b, len);
	return frag_put(w, b, len, err) || frag_dedupe(w, e, &s, err) ? -1 : 0;
}

/* A whole file, streamed through a small buffer. */
int ew_frag_copy(struct ew *w, struct ew_ino *e, struct ff_err *err)
{
	size_t cap = 65536;
	uint8_t *buf = malloc(cap);
	struct ff_data *d = buf ? ff_tree_open_data(w->tree, e->n, err) : NULL;
	uint64_t off = 0;
	struct ew_fsum s = { 0, 0, 0 };
	int r = 0;

	if (!buf) {
		return ff_err_set(err, ENOMEM, "fragments: out of memory");
	} else if (!d) {
		free(buf);
		return -1;
	}
	e->fragoff = w->frag_len;
	while (off < e->size && !r) {
		size_t n = e->size - off < cap ? (size_t)(e->size - off) : cap;

		r = ew_read_at(d, e, buf, n, off, err) || frag_put(w, buf, n, err) ? -1 : 0;
		ew_fsum_add(&s, buf, n);
		off += n;
	}
	if (!r)
		r = frag_dedupe(w, e, &s, err);
	ff_data_close(d);
	free(buf);
	return r;
}

/* The packed inode's record once every fragment is in: a compressed
 * regular file of mode 0644, placed with the late inodes. */
void ew_frag_packed_setup(struct ew *w)
{
	struct ew_ino *e = &w->packed;
	struct ff_node *n = &w->packed_node;

	memset(n, 0, sizeof(*n));
	n->mode = S_IFREG | 0644;
	n->mtime = w->o->build_time;
	n->size = w->frag_len;
	memset(e, 0, sizeof(*e));
	e->n = n;
	e->size = w->frag_len;
	e->ino = w->n_inos + 1;
	e->compressed = 1;
	e->late = 1;
	e->ext = (uint8_t)ew_inode_pick_form(w, e);
	e->layout = ew_zmap_compact_ok(w) ? ER_COMPRESSED_COMPACT : ER_COMPRESSED_FULL;
	e->zmeta_len = ew_zmap_len(w, e);
	e->slot = (uint32_t)ew_align(e->ext ? ER_INODE_EXTENDED_SIZE : ER_INODE_COMPACT_SIZE, 8) +
		  e->zmeta_len;
}
