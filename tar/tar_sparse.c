/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* GNU sparse maps: old GNU 'S' headers, PAX 0.0 (offset/numbytes pairs),
 * 0.1 (GNU.sparse.map) and 1.0 (a decimal map at the start of the data).
 * A map lists the data chunks; everything between them is a hole. */
#include "tar/tar.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CHUNKS (1u << 22)

int tar_sparse_add(struct tar_sparse *m, uint64_t off, uint64_t len, struct ff_err *err)
{
	struct tar_chunk c = { .off = off, .len = len };

	if (!m->v.elem)
		ff_vec_init(&m->v, sizeof(c));
	if (m->v.len >= MAX_CHUNKS)
		return ff_err_set(err, E2BIG, "sparse map: more than %u chunks", MAX_CHUNKS);
	if (ff_vec_push(&m->v, &c) < 0)
		return ff_err_set(err, ENOMEM, "sparse map: out of memory");
	return 0;
}

void tar_sparse_free(struct tar_sparse *m)
{
	ff_vec_free(&m->v);
	memset(m, 0, sizeof(*m));
}

int tar_sparse_check(const struct tar_sparse *m, uint64_t stored, struct ff_err *err)
{
	uint64_t end = 0, data = 0;

	for (size_t i = 0; i < m->v.len; i++) {
		const struct tar_chunk *c = FF_VEC_AT(&m->v, struct tar_chunk, i);

		if (c->off < end || c->len > m->realsize || c->off > m->realsize - c->len)
			return ff_err_set(err, EINVAL,
					  "sparse map: chunk %zu (offset %llu, length %llu) overlaps or "
					  "lies outside the file (size %llu)", i,
					  (unsigned long long)c->off, (unsigned long long)c->len,
					  (unsigned long long)m->realsize);
		end = c->off + c->len;
		data += c->len;
	}
	if (data > stored)
		return ff_err_set(err, EINVAL,
				  "sparse map: chunks hold %llu bytes but the member stores %llu",
				  (unsigned long long)data, (unsigned long long)stored);
	return 0;
}

static int parse_u64(const char **p, const char *end, uint64_t *out)
{
	uint64_t v = 0;
	const char *s = *p;

	if (s == end || *s < '0' || *s > '9')
		return -1;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		if (v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*p = s;
	*out = v;
	return 0;
}

int tar_sparse_parse_map(struct tar_sparse *m, const char *text, size_t len, struct ff_err *err)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		uint64_t off, n;

		if (parse_u64(&p, end, &off) || p == end || *p++ != ',' || parse_u64(&p, end, &n))
			return ff_err_set(err, EINVAL, "GNU.sparse.map: malformed at byte %zu",
					  (size_t)(p - text));
		if (tar_sparse_add(m, off, n, err))
			return -1;
		if (p < end && *p++ != ',')
			return ff_err_set(err, EINVAL, "GNU.sparse.map: malformed at byte %zu",
					  (size_t)(p - text));
	}
	return 0;
}

/* One decimal line of the 1.0 map, reading blocks as needed. */
static int v1_number(struct tar_stream *s, uint8_t *blk, size_t *at, uint64_t *used,
		     uint64_t *out, struct ff_err *err)
{
	uint64_t v = 0;
	int digits = 0;

	for (;;) {
		uint8_t c;

		if (*at == TAR_BLOCK) {
			if (tar_stream_read(s, blk, TAR_BLOCK, 0, err))
				return -1;
			*used += TAR_BLOCK;
			*at = 0;
		}
		c = blk[(*at)++];
		if (c == '\n' && digits)
			break;
		if (c < '0' || c > '9' || digits >= 19)
			return ff_err_set(err, EINVAL, "sparse map (format 1.0): malformed number");
		v = v * 10 + (uint64_t)(c - '0');
		digits++;
	}
	*out = v;
	return 0;
}

int tar_sparse_read_v1(struct tar_sparse *m, struct tar_stream *s, uint64_t *used,
		       struct ff_err *err)
{
	uint8_t blk[TAR_BLOCK];
	size_t at = TAR_BLOCK;
	uint64_t count, off, len;

	*used = 0;
	if (v1_number(s, blk, &at, used, &count, err))
		return -1;
	if (count > MAX_CHUNKS)
		return ff_err_set(err, E2BIG, "sparse map (format 1.0): %llu chunks (max %u)",
				  (unsigned long long)count, MAX_CHUNKS);
	for (uint64_t i = 0; i < count; i++) {
		if (v1_number(s, blk, &at, used, &off, err) ||
		    v1_number(s, blk, &at, used, &len, err) || tar_sparse_add(m, off, len, err))
			return -1;
	}
	return 0;
}

static int gnu_entries(struct tar_sparse *m, const uint8_t *p, int n, struct ff_err *err)
{
	for (int i = 0; i < n; i++, p += 24) {
		int64_t off, len;

		if (!p[0])
			break;
		if (tar_parse_number(p, 12, &off) || tar_parse_number(p + 12, 12, &len) || off < 0 ||
		    len < 0)
			return ff_err_set(err, EINVAL, "GNU sparse header: entry %d is not a number", i);
		if (tar_sparse_add(m, (uint64_t)off, (uint64_t)len, err))
			return -1;
	}
	return 0;
}

int tar_sparse_read_gnu(struct tar_sparse *m, const uint8_t *hdr, struct tar_stream *s,
			struct ff_err *err)
{
	uint8_t ext[TAR_BLOCK];
	int64_t real;
	int more;

	/* old GNU header: sparse[4] at 386, isextended at 482, realsize at 483 */
	if (gnu_entries(m, hdr + 386, 4, err))
		return -1;
	if (tar_parse_number(hdr + 483, 12, &real) || real < 0)
		return ff_err_set(err, EINVAL, "GNU sparse header: real size is not a number");
	m->realsize = (uint64_t)real;
	m->has_realsize = 1;
	for (more = hdr[482]; more; more = ext[504]) {
		if (tar_stream_read(s, ext, TAR_BLOCK, 0, err) || gnu_entries(m, ext, 21, err))
			return -1;
	}
	return 0;
}
