/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Xattrs: the body behind an inode (a 12-byte header, the ids of the
 * shared entries it uses, then its own entries) and the shared area
 * (entries used by more inodes than the tolerance, -x, stored once and
 * named by their offset / 4).  An entry is the name's length after its
 * prefix, the prefix index, the value's size, the name, the value, padded
 * to 4 bytes.  A name with no built-in prefix cannot be stored without
 * the long-prefix table, which mkfs.erofs 1.5 and older kernels lack: it
 * is left out with a warning. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/endian.h"
#include "erofs/layout.h"
#include "erofs/write_priv.h"

static const struct {
	const char *prefix;
	uint8_t index;
	uint8_t whole;            /* the name must equal the prefix */
} prefixes[] = {
	{ "user.", 1, 0 },
	{ "system.posix_acl_access", 2, 1 },
	{ "system.posix_acl_default", 3, 1 },
	{ "trusted.", 4, 0 },
	{ "lustre.", 5, 0 },
	{ "security.", 6, 0 },
};

/* The prefix index of name and where its suffix starts; 0 when none fits. */
static unsigned name_index(const char *name, size_t *skip)
{
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t len = strlen(prefixes[i].prefix);

		if (strncmp(name, prefixes[i].prefix, len) ||
		    (prefixes[i].whole && name[len]))
			continue;
		*skip = len;
		return prefixes[i].index;
	}
	return 0;
}

/* The encoded entry (unpadded) into buf (cap bytes); 0 when the name has
 * no prefix, -1 when it does not fit the format. */
static long entry_encode(const struct ff_xattr *x, uint8_t *buf, size_t cap,
			 struct ff_err *err)
{
	size_t skip = 0, nlen;
	unsigned idx = name_index(x->name, &skip);

	if (!idx)
		return 0;
	nlen = strlen(x->name) - skip;
	if (nlen > 255 || x->len > 0xffff)
		return ff_err_set(err, EINVAL, "xattr %s: name of %zu or value of %u bytes "
				  "(EROFS stores at most 255 and 65535)", x->name, nlen, x->len);
	if (ER_XATTR_ENTRY_SIZE + nlen + x->len > cap)
		return ff_err_set(err, EINVAL, "xattr %s: too long", x->name);
	buf[0] = (uint8_t)nlen;
	buf[1] = (uint8_t)idx;
	ff_put_le16(buf + 2, (uint16_t)x->len);
	memcpy(buf + 4, x->name + skip, nlen);
	if (x->len)
		memcpy(buf + 4 + nlen, x->value, x->len);
	return (long)(ER_XATTR_ENTRY_SIZE + nlen + x->len);
}

#define ENTRY_MAX (ER_XATTR_ENTRY_SIZE + 255 + 0xffff)

static void warn_unstored(struct ew *w, const struct ew_ino *e, const char *name)
{
	char path[4096];

	if (ff_node_path(e->n, path, sizeof(path)) < 0)
		path[0] = 0;
	ff_warnf(w->o->warn, w->o->warn_ctx, FF_WARN_IGNORED, path,
		 "xattr %s: no EROFS prefix for this name, left out", name);
}

/* Appends one entry to the shared area, never across a block. */
static int shared_add(struct ew *w, const uint8_t *ent, size_t len, uint32_t *id)
{
	size_t padded = ew_align(len, 4), at = w->shared_len;
	uint8_t *p;

	if (padded <= w->blksz && at / w->blksz != (at + padded - 1) / w->blksz)
		at = ew_align(at, w->blksz);
	p = realloc(w->shared, at + padded);
	if (!p)
		return -1;
	memset(p + w->shared_len, 0, at + padded - w->shared_len);
	memcpy(p + at, ent, len);
	w->shared = p;
	w->shared_len = at + padded;
	*id = (uint32_t)(at / 4);
	w->n_shared++;
	return 0;
}

/* Counts every (name, value) pair's users; the pairs used by more inodes
 * than the tolerance go to the shared area in the order first met. */
int ew_xattr_count(struct ew *w, struct ff_err *err)
{
	uint64_t v;

	if (w->o->xattr_tolerance < 0)
		return 0;
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t i = 0; i < w->n_inos; i++) {
			const struct ff_node *n = w->inos[i].n;

			for (uint32_t k = 0; k < ff_node_n_xattrs(n); k++) {
				uint8_t buf[ENTRY_MAX];
				long len = entry_encode(&ff_node_xattrs(n)[k], buf, sizeof(buf), err);
				uint32_t id;

				if (len < 0)
					return -1;
				if (len == 0) {
					if (pass == 0)
						warn_unstored(w, &w->inos[i], ff_node_xattrs(n)[k].name);
					continue;
				}
				if (!ff_hmap_find(&w->xcount, buf, (size_t)len, &v))
					v = 0;
				if (pass == 0)
					v += 1ull << 32;
				else if ((v >> 32) > (uint64_t)w->o->xattr_tolerance &&
					 !(v & 0xffffffffu)) {
					if (shared_add(w, buf, (size_t)len, &id))
						return ff_err_set(err, ENOMEM, "shared xattrs: out of memory");
					v |= (uint64_t)id + 1;
				}
				if (ff_hmap_set(&w->xcount, buf, (size_t)len, v))
					return ff_err_set(err, ENOMEM, "xattrs: out of memory");
			}
		}
	}
	return 0;
}

/* One inode's body: header, shared ids, then its own entries (the
 * tree keeps them sorted by name, so the bytes are stable). */
int ew_xattr_body(struct ew *w, struct ew_ino *e, struct ff_err *err)
{
	const struct ff_node *n = e->n;
	uint8_t buf[ENTRY_MAX];
	size_t cap = ER_XATTR_IBODY_HEADER, len = ER_XATTR_IBODY_HEADER;
	unsigned shared = 0;
	uint8_t *body;
	uint64_t v;

	if (w->o->xattr_tolerance < 0 || !ff_node_n_xattrs(n))
		return 0;
	for (uint32_t k = 0; k < ff_node_n_xattrs(n); k++)
		cap += 4 + ew_align(ER_XATTR_ENTRY_SIZE + strlen(ff_node_xattrs(n)[k].name) +
				    ff_node_xattrs(n)[k].len, 4);
	if (!(body = calloc(1, cap)))
		return ff_err_set(err, ENOMEM, "xattrs: out of memory");
	/* shared ids first: they sit right after the header */
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t k = 0; k < ff_node_n_xattrs(n); k++) {
			long l = entry_encode(&ff_node_xattrs(n)[k], buf, sizeof(buf), err);
			int is_shared;

			if (l < 0) {
				free(body);
				return -1;
			}
			if (l == 0)
				continue;
			is_shared = ff_hmap_find(&w->xcount, buf, (size_t)l, &v) &&
				    (v & 0xffffffffu);
			if (pass == 0 && is_shared) {
				ff_put_le32(body + len, (uint32_t)(v & 0xffffffffu) - 1);
				len += 4;
				shared++;
			} else if (pass == 1 && !is_shared) {
				memcpy(body + len, buf, (size_t)l);
				len += ew_align((size_t)l, 4);
			}
		}
	}
	if (len == ER_XATTR_IBODY_HEADER || shared > 255 || len > 12 + 4 * 0xfffful) {
		free(body);
		if (len == ER_XATTR_IBODY_HEADER)
			return 0;
		return ff_err_set(err, EINVAL, "xattrs: %zu bytes, %u shared for one inode "
				  "(at most 262152 and 255)", len, shared);
	}
	body[4] = (uint8_t)shared;
	e->xattr = body;
	e->xattr_len = (uint32_t)len;
	return 0;
}

void ew_xattr_free(struct ew *w)
{
	ff_hmap_clear(&w->xcount, NULL);
	free(w->shared);
	w->shared = NULL;
}
