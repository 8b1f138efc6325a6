/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Fragments (-E fragments, all-fragments): the packed inode, a regular
 * file no directory names (the superblock's packed_nid), holds the last
 * extent's input of compressed files and small or (all-fragments) every
 * compressed file whole, back to back in pre-order; a file's map header
 * gives where its part starts.  The packed inode is then compressed like
 * any file, so many small tails share pclusters.  Until then the bytes
 * wait in a temporary file: memory stays one window per worker.
 *
 * A fragment is not stored again when its bytes are there already:
 * equal to an earlier one (the same small file, licence or tail in many
 * places: length and two CRCs, then byte for byte), or the last bytes of
 * an earlier one (a program built twice with another name, a table whose
 * end another's repeats): its offset then points into that one.  Those
 * are found by a crc32c of their last TAIL bytes, then compared from the
 * end.  With all-fragments a file whose tail only is the end of an
 * earlier fragment keeps its head as its own extents (compressed by a
 * worker, from a block boundary on) and points its fragment into the
 * earlier bytes, as mkfs.erofs 1.9.3 does; it is decided in the plan,
 * where every whole file is copied in pre-order, because the file's job
 * and its inode's size depend on it, and the bytes compared depend on
 * the earlier files' bytes alone, not on -j. */
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

/* The last bytes a fragment is found by as an earlier one's end (one
 * this short or shorter is found only when equal to an earlier one). */
#define TAIL 64
/* Earlier fragments with the same last TAIL bytes tried, newest first:
 * a bound on the work when many end alike. */
#define TAIL_TRIES 64
/* all-fragments: a head of the file's own when the tail found leaves
 * this many blocks or more out of the packed inode (see head_pays). */
#define HEAD_MIN_TAIL_BLOCKS 1

/* A fragment stored: where it ends in the packed inode, its length, and
 * the one before it with the same tail key (its index + 1, 0 none). */
struct ew_fitem {
	uint64_t end, len;
	uint32_t prev;
};

int ew_frag_open(struct ew *w, struct ff_err *err)
{
	if (!w->o->fragments || w->frag_file)
		return 0;
	ff_vec_init(&w->frag_items, sizeof(struct ew_fitem));
	if (!(w->frag_file = tmpfile()))
		return ff_err_set(err, errno, "fragments: temporary file: %s", strerror(errno));
	return 0;
}

void ew_frag_close(struct ew *w)
{
	ff_hmap_clear(&w->frag_seen, NULL);
	ff_hmap_clear(&w->frag_tails, NULL);
	ff_vec_free(&w->frag_items);
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

/* Bytes compared from their end: [0, len) of a file of the tree (d), or
 * of the fragments' temporary file from base on (d NULL). */
struct side {
	struct ff_data *d;
	const struct ew_ino *e;
	uint64_t base, len;
};

static int side_read(struct ew *w, const struct side *s, uint8_t *buf, size_t n, uint64_t off,
		     struct ff_err *err)
{
	if (s->d)
		return ew_read_at(s->d, s->e, buf, n, off, err);
	if (pread(fileno(w->frag_file), buf, n, (off_t)(s->base + off)) != (ssize_t)n)
		return ff_err_set(err, EIO, "fragments: read back of %zu bytes at %llu failed", n,
				  (unsigned long long)(s->base + off));
	return 0;
}

/* *n: how many last bytes a and b have in common (the shorter's length
 * at most). */
static int common_tail(struct ew *w, const struct side *a, const struct side *b, uint64_t *n,
		       struct ff_err *err)
{
	uint8_t x[4096], y[4096];
	uint64_t most = a->len < b->len ? a->len : b->len;

	for (*n = 0; *n < most;) {
		size_t k = most - *n < sizeof(x) ? (size_t)(most - *n) : sizeof(x), i = k;

		if (side_read(w, a, x, k, a->len - *n - k, err) ||
		    side_read(w, b, y, k, b->len - *n - k, err))
			return -1;
		if (memcmp(x, y, k))
			while (x[i - 1] == y[i - 1])
				i--;
		else
			i = 0;
		*n += k - i;
		if (i)
			break;
	}
	return 0;
}

/* The key s (longer than TAIL) is found by: a crc32c of its last bytes. */
static int tail_key(struct ew *w, const struct side *s, uint8_t key[4], struct ff_err *err)
{
	uint8_t b[TAIL];

	if (side_read(w, s, b, TAIL, s->len - TAIL, err))
		return -1;
	ff_put_le32(key, ff_crc32c(0, b, TAIL));
	return 0;
}

/* The longest tail of s that ends an earlier fragment: *n its length
 * (0: none), *end where that fragment ends.  The first found of the
 * longest wins, so the result follows the order fragments came in. */
static int tail_find(struct ew *w, const struct side *s, const uint8_t key[4], uint64_t *n,
		     uint64_t *end, struct ff_err *err)
{
	uint64_t v = 0, got;

	*n = 0;
	if (!ff_hmap_find(&w->frag_tails, key, 4, &v))
		return 0;
	for (int t = 0; v && t < TAIL_TRIES && *n < s->len; t++) {
		const struct ew_fitem *it = ff_vec_at(&w->frag_items, (size_t)(v - 1));
		struct side o = { NULL, NULL, it->end - it->len, it->len };

		if (common_tail(w, s, &o, &got, err))
			return -1;
		if (got > *n) {
			*n = got;
			*end = it->end;
		}
		v = it->prev;
	}
	return 0;
}

/* A fragment stored at [end - len, end), findable by its tail key. */
static int tail_remember(struct ew *w, uint64_t end, uint64_t len, const uint8_t key[4],
			 struct ff_err *err)
{
	struct ew_fitem it = { end, len, 0 };
	uint64_t v;

	if (ff_hmap_find(&w->frag_tails, key, 4, &v))
		it.prev = (uint32_t)v;
	if (w->frag_items.len >= UINT32_MAX || ff_vec_push(&w->frag_items, &it) ||
	    ff_hmap_set(&w->frag_tails, key, 4, w->frag_items.len))
		return ff_err_set(err, ENOMEM, "fragments: out of memory");
	return 0;
}

/* The fragment just written at e->fragoff (sum s): when its bytes are
 * there already (an equal fragment, or the end of a longer one) it is
 * dropped and points there; else it is remembered.  tails 0: its tail
 * was looked for already (ew_frag_plan), in vain. */
static int frag_dedupe(struct ew *w, struct ew_ino *e, const struct ew_fsum *s, int tails,
		       struct ff_err *err)
{
	struct side me = { NULL, NULL, e->fragoff, s->len };
	uint8_t key[16], tkey[4];
	uint64_t prev, n = 0, end = 0;

	ew_fsum_key(s, key);
	if (ff_hmap_find(&w->frag_seen, key, sizeof(key), &prev)) {
		struct side o = { NULL, NULL, prev, s->len };

		if (common_tail(w, &me, &o, &n, err))
			return -1;
		end = prev + s->len;
	}
	if (n < s->len && s->len > TAIL &&
	    (tail_key(w, &me, tkey, err) || (tails && tail_find(w, &me, tkey, &n, &end, err))))
		return -1;
	if (n == s->len) {
		w->frag_len = e->fragoff;
		e->fragoff = end - n;
		return 0;
	}
	if (ff_hmap_set(&w->frag_seen, key, sizeof(key), e->fragoff))
		return ff_err_set(err, ENOMEM, "fragments: out of memory");
	return s->len > TAIL ? tail_remember(w, e->fragoff + s->len, s->len, tkey, err) : 0;
}

int ew_frag_append(struct ew *w, struct ew_ino *e, const uint8_t *b, size_t len,
		   struct ff_err *err)
{
	struct ew_fsum s = { 0, 0, 0 };

	e->fragoff = w->frag_len;
	ew_fsum_add(&s, b, len);
	return frag_put(w, b, len, err) || frag_dedupe(w, e, &s, 1, err) ? -1 : 0;
}

/* A whole file, streamed through a small buffer. */
static int frag_copy(struct ew *w, struct ew_ino *e, int tails, struct ff_err *err)
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
		r = frag_dedupe(w, e, &s, tails, err);
	ff_data_close(d);
	free(buf);
	return r;
}

int ew_frag_copy(struct ew *w, struct ew_ino *e, struct ff_err *err)
{
	return frag_copy(w, e, 1, err);
}

/* A head of its own is worth it when the rest it leaves out of the
 * packed inode is a block or more: the head's last pcluster ends part
 * used, where the packed inode's stream would have gone on (README). */
static int head_pays(const struct ew *w, uint64_t rest)
{
	return rest >= HEAD_MIN_TAIL_BLOCKS * (uint64_t)w->blksz;
}

int ew_frag_plan(struct ew *w, struct ew_ino *e, struct ff_err *err)
{
	struct side me = { NULL, e, 0, e->size };
	uint8_t key[4];
	uint64_t n = 0, end = 0, head, off;
	int r = 0;

	if (ew_frag_open(w, err))
		return -1;
	if (e->size > TAIL) {
		if (!(me.d = ff_tree_open_data(w->tree, e->n, err)))
			return -1;
		r = tail_key(w, &me, key, err) || tail_find(w, &me, key, &n, &end, err);
		ff_data_close(me.d);
		if (r)
			return -1;
	}
	if (n == e->size) {
		e->fragoff = end - n;
		return 0;
	}
	/* the fragment from a block boundary on: the head's last extent
	 * then crosses one, as every extent but the last must (an
	 * lcluster holds one head); and no longer than an extent's input
	 * (the map's lookback distances are sized for that), the rest of
	 * a longer tail in the head */
	head = ew_align(e->size - n, w->blksz);
	if (e->size - head > w->ext_cap)
		head = ew_align(e->size - w->ext_cap, w->blksz);
	off = end - (e->size - head);
	/* (compact indexes keep a tail fragment's offset in 32 bits: a
	 * file past 4 GiB of fragments is copied whole instead) */
	if (n && head < e->size && !w->o->dedupe && head_pays(w, e->size - head) &&
	    !(off >> 32 && ew_zmap_compact_ok(w))) {
		e->frag = 1;
		e->fraghead = head;
		e->fragoff = off;
		return 0;
	}
	return frag_copy(w, e, 0, err);
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
	e->compressed = 1;
	e->late = 1;
	e->ext = (uint8_t)ew_inode_pick_form(w, e);
	e->layout = ew_zmap_compact_ok(w) ? ER_COMPRESSED_COMPACT : ER_COMPRESSED_FULL;
	e->zmeta_len = ew_zmap_len(w, e);
	e->slot = (uint32_t)ew_align(e->ext ? ER_INODE_EXTENDED_SIZE : ER_INODE_COMPACT_SIZE, 8) +
		  e->zmeta_len;
}
