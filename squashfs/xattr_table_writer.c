/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Extended attributes: each distinct attribute set is written once as a
 * key/value list in its own metadata stream and gets one id; inodes with
 * the same set share the id.  A value longer than a reference that was
 * already stored is written out of line (a reference to the first copy).
 * Names outside user./trusted./security. cannot be stored: warned, skipped. */
#include "squashfs/xattr_table_writer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/endian.h"
#include "common/hmap.h"
#include "common/vec.h"
#include "squashfs/format.h"
#include "squashfs/meta_writer.h"
#include "squashfs/node_info.h"
#include "squashfs/table_writer.h"

#define OOL_REF_SIZE 8

struct sqfs_xattr_writer {
	struct sqfs_meta_writer kv;
	struct ff_comp_ctx *ctx;  /* the id table's compression, as the stream's */
	ff_warn_fn warn;
	void *warn_ctx;
	struct ff_hmap sets;      /* encoded set -> id */
	struct ff_hmap values;    /* value bytes -> reference of its record */
	struct ff_vec ids;        /* encoded id entries, SQFS_XATTR_ID_SIZE each */
	struct ff_vec key;        /* bytes, scratch: the set being encoded */
};

static int key_append(struct sqfs_xattr_writer *x, const void *p, size_t n,
		      struct ff_err *err)
{
	if (ff_vec_append(&x->key, p, n) < 0)
		return ff_err_set(err, ENOMEM, "xattrs: out of memory");
	return 0;
}

/* The set as bytes (type, name length, name, value length, value per pair)
 * used both as the dedup key and to write the list.  Returns pairs kept. */
static int encode_set(struct sqfs_xattr_writer *x, const struct ff_node *n, struct ff_err *err)
{
	char path[4096];
	int kept = 0;

	x->key.len = 0;
	for (uint32_t i = 0; i < ff_node_n_xattrs(n); i++) {
		const struct ff_xattr *a = &ff_node_xattrs(n)[i];
		const char *suffix;
		int type = sqfs_xattr_split(a->name, &suffix);
		uint8_t hdr[8];
		size_t slen;

		if (type < 0 || !*suffix) {
			ff_warnf(x->warn, x->warn_ctx, FF_WARN_IGNORED, NULL, "%s: xattr '%s' skipped: SquashFS stores only user., trusted. "
				  "and security. names", sqfs_node_name(n, path, sizeof(path)),
				  a->name);
			continue;
		}
		slen = strlen(suffix);
		ff_put_le16(hdr, (uint16_t)type);
		ff_put_le16(hdr + 2, (uint16_t)slen);
		ff_put_le32(hdr + 4, a->len);
		if (key_append(x, hdr, 4, err) < 0 || key_append(x, suffix, slen, err) < 0 ||
		    key_append(x, hdr + 4, 4, err) < 0 || key_append(x, a->value, a->len, err) < 0)
			return -1;
		kept++;
	}
	return kept;
}

static int write_value(struct sqfs_xattr_writer *x, const uint8_t *v, uint32_t len,
		       int *ool, struct ff_err *err)
{
	uint8_t buf[OOL_REF_SIZE + 4];
	uint64_t ref;

	if (len > OOL_REF_SIZE && ff_hmap_find(&x->values, v, len, &ref)) {
		ff_put_le32(buf, OOL_REF_SIZE);
		ff_put_le64(buf + 4, ref);
		*ool = 1;
		return sqfs_meta_write(&x->kv, buf, sizeof(buf), err);
	}
	*ool = 0;
	if (len > OOL_REF_SIZE && ff_hmap_set(&x->values, v, len, sqfs_meta_ref(&x->kv)) < 0)
		return ff_err_set(err, ENOMEM, "xattrs: out of memory");
	ff_put_le32(buf, len);
	if (sqfs_meta_write(&x->kv, buf, 4, err) < 0)
		return -1;
	return sqfs_meta_write(&x->kv, v, len, err);
}

/* Writes the pairs of the encoded set in x->key.  The out-of-line flag is
 * in the key, so each key is written after its value is decided. */
static int write_set(struct sqfs_xattr_writer *x, uint32_t count, struct ff_err *err)
{
	uint64_t ref = sqfs_meta_ref(&x->kv), start = x->kv.raw_pos;
	const uint8_t *p = x->key.data;
	uint8_t entry[SQFS_XATTR_ID_SIZE];

	for (uint32_t i = 0; i < count; i++) {
		struct sqfs_xattr_key k = { ff_get_le16(p), ff_get_le16(p + 2) };
		uint32_t vlen = ff_get_le32(p + 4 + k.name_len);
		const uint8_t *v = p + 8 + k.name_len;
		uint8_t kb[SQFS_XATTR_KEY_SIZE];
		int ool = vlen > OOL_REF_SIZE && ff_hmap_find(&x->values, v, vlen, &(uint64_t){0});

		k.type |= ool ? SQFS_XATTR_VALUE_OOL : 0;
		sqfs_xattr_key_encode(&k, kb);
		if (sqfs_meta_write(&x->kv, kb, sizeof(kb), err) < 0 ||
		    sqfs_meta_write(&x->kv, p + 4, k.name_len, err) < 0 ||
		    write_value(x, v, vlen, &ool, err) < 0)
			return -1;
		p = v + vlen;
	}
	sqfs_xattr_id_encode(&(struct sqfs_xattr_id){ ref, count, (uint32_t)(x->kv.raw_pos - start) },
			     entry);
	if (ff_vec_push(&x->ids, entry) < 0)
		return ff_err_set(err, ENOMEM, "xattrs: out of memory");
	return 0;
}

int sqfs_xattr_writer_add(struct sqfs_xattr_writer *x, const struct ff_node *n, uint32_t *idx,
			  struct ff_err *err)
{
	int count = encode_set(x, n, err);
	uint64_t id;

	*idx = SQFS_INVALID_XATTR;
	if (count <= 0)
		return count;
	if (ff_hmap_find(&x->sets, x->key.data, x->key.len, &id)) {
		*idx = (uint32_t)id;
		return 0;
	}
	id = x->ids.len;
	if (ff_hmap_set(&x->sets, x->key.data, x->key.len, id) < 0)
		return ff_err_set(err, ENOMEM, "xattrs: out of memory");
	*idx = (uint32_t)id;
	return write_set(x, (uint32_t)count, err);
}

struct sqfs_xattr_writer *sqfs_xattr_writer_new(struct ff_comp_ctx *ctx, ff_warn_fn warn,
						void *warn_ctx, struct ff_err *err)
{
	struct sqfs_xattr_writer *x = calloc(1, sizeof(*x));

	if (!x) {
		ff_err_set(err, ENOMEM, "xattrs: out of memory");
		return NULL;
	}
	ff_vec_init(&x->ids, SQFS_XATTR_ID_SIZE);
	ff_vec_init(&x->key, 1);
	sqfs_meta_init(&x->kv, ctx);
	x->ctx = ctx;
	x->warn = warn;
	x->warn_ctx = warn_ctx;
	return x;
}

uint32_t sqfs_xattr_writer_count(const struct sqfs_xattr_writer *x)
{
	return (uint32_t)x->ids.len;
}

int sqfs_xattr_writer_write(struct sqfs_xattr_writer *x, struct sqfs_sink *s, uint64_t *pos,
			    struct ff_err *err)
{
	uint8_t hdr[SQFS_XATTR_TABLE_HEADER];
	uint64_t kv_start;

	*pos = SQFS_INVALID_BLK;
	if (!x->ids.len)
		return 0;
	if (sqfs_meta_emit(s, &x->kv, &kv_start, err) < 0)
		return -1;
	ff_put_le64(hdr, kv_start);
	ff_put_le32(hdr + 8, (uint32_t)x->ids.len);
	ff_put_le32(hdr + 12, 0);
	return sqfs_table_write(s, x->ctx, x->ids.data, x->ids.len * SQFS_XATTR_ID_SIZE, hdr,
				sizeof(hdr), pos, err);
}

void sqfs_xattr_writer_free(struct sqfs_xattr_writer *x)
{
	if (!x)
		return;
	sqfs_meta_free(&x->kv);
	ff_hmap_clear(&x->sets, NULL);
	ff_hmap_clear(&x->values, NULL);
	ff_vec_free(&x->ids);
	ff_vec_free(&x->key);
	free(x);
}
