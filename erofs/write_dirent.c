/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Directory blocks: each block is an array of 12-byte dirents (nid,
 * name offset, file type) followed by their names, not NUL-terminated;
 * the first dirent's name offset / 12 is the block's entry count.  The
 * kernel looks names up by binary search, inside a block and across
 * blocks by their first names, so "." and ".." are sorted in with the
 * others by unsigned bytes (a shorter name before its extensions), and no
 * entry crosses a block.  The last block is cut at the last name's end:
 * i_size says where it ends (and it may be stored inline). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/endian.h"
#include "erofs/layout.h"
#include "erofs/write_priv.h"

struct dent {
	const char *name;
	uint32_t len;
	const struct ff_node *to;
};

static int dent_cmp(const void *a, const void *b)
{
	const struct dent *x = a, *y = b;
	int c = memcmp(x->name, y->name, x->len < y->len ? x->len : y->len);

	return c ? c : (x->len > y->len) - (x->len < y->len);
}

static uint8_t ftype(uint32_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return ER_FT_REG;
	case S_IFDIR: return ER_FT_DIR;
	case S_IFCHR: return ER_FT_CHR;
	case S_IFBLK: return ER_FT_BLK;
	case S_IFIFO: return ER_FT_FIFO;
	case S_IFSOCK: return ER_FT_SOCK;
	case S_IFLNK: return ER_FT_LNK;
	default: return ER_FT_UNKNOWN;
	}
}

static struct dent *dents_sorted(const struct ff_node *d, size_t *count)
{
	size_t n = d->n_children + 2;
	struct dent *v = calloc(n, sizeof(*v));

	if (!v)
		return NULL;
	v[0] = (struct dent){ ".", 1, d };
	v[1] = (struct dent){ "..", 2, d->parent ? d->parent : d };
	for (uint32_t i = 0; i < d->n_children; i++) {
		const struct ff_node *c = d->children[i];

		v[i + 2] = (struct dent){ ff_node_name(c), c->name_len, ff_node_primary(c) };
	}
	qsort(v, n, sizeof(*v), dent_cmp);
	*count = n;
	return v;
}

/* Writes the entries [from, to) as one block at blk. */
static void block_encode(const struct ew *w, const struct dent *v, size_t from, size_t to,
			 uint8_t *blk)
{
	uint32_t nameoff = (uint32_t)(to - from) * ER_DIRENT_SIZE;

	for (size_t i = from; i < to; i++) {
		uint8_t *de = blk + (i - from) * ER_DIRENT_SIZE;

		ff_put_le64(de, ew_ino_of(w, v[i].to)->nid);
		ff_put_le16(de + 8, (uint16_t)nameoff);
		de[10] = ftype(v[i].to->mode);
		memcpy(blk + nameoff, v[i].name, v[i].len);
		nameoff += v[i].len;
	}
}

/* Packs the sorted entries into blocks: sets e->size, and with out gives
 * the blocks' bytes there. */
int ew_dir_build(struct ew *w, struct ew_ino *e, uint8_t **out, struct ff_err *err)
{
	size_t n, from = 0, used = 0, blocks = 0;
	struct dent *v = dents_sorted(e->n, &n);
	uint8_t *buf = NULL;
	int encode = out != NULL;

	if (!v)
		return ff_err_set(err, ENOMEM, "directory: out of memory");
	if (encode && !(buf = calloc(1, ew_align(e->size ? e->size : 1, w->blksz)))) {
		free(v);
		return ff_err_set(err, ENOMEM, "directory: out of memory");
	}
	for (size_t i = 0; i <= n; i++) {
		size_t need = i < n ? ER_DIRENT_SIZE + v[i].len : 0;

		if (i < n && used + need <= w->blksz) {
			used += need;
			continue;
		}
		if (encode)
			block_encode(w, v, from, i, buf + blocks * w->blksz);
		if (i == n)
			break;
		blocks++;
		from = i;
		used = need;
	}
	e->size = (uint64_t)blocks * w->blksz + used;
	free(v);
	if (encode)
		*out = buf;
	return 0;
}
