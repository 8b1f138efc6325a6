/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Extended attributes as mkfs.jffs2 --with-xattr stores them: each name
 * of a name space the options allow becomes a datum node the first time
 * its (name space, name, value) is met, with the next xid, and an xref
 * node binding it to the inode, with the next even sequence number.
 * Names are stored without their prefix ("user.", "security.",
 * "trusted."); the POSIX ACLs have a name space each, an empty name and
 * their value in JFFS2's form (acl_write.c).  Other names are left out. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "jffs2/builder.h"

struct xprefix {
	const char *text;
	uint8_t id;
	uint8_t whole; /* the name is the prefix (the ACLs) */
};

static const struct xprefix prefixes[] = {
	{ "user.", 1, 0 },
	{ "security.", 2, 0 },
	{ "system.posix_acl_access", 3, 1 },
	{ "system.posix_acl_default", 4, 1 },
	{ "trusted.", 5, 0 },
};

static const struct xprefix *prefix_of(const char *name)
{
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		const struct xprefix *p = &prefixes[i];

		if (p->whole ? !strcmp(name, p->text) : !strncmp(name, p->text, strlen(p->text)))
			return p;
	}
	return NULL;
}

/* The datum's id, writing the datum when this is its first use. */
static int datum(struct j2_build *b, uint8_t xprefix, const char *name, const uint8_t *value,
		 size_t vlen, uint32_t *xid, struct ff_err *err)
{
	size_t nlen = strlen(name), klen = 1 + nlen + 1 + vlen;
	uint8_t *key = malloc(klen + J2_XATTR_SIZE + 4);
	uint64_t found;
	int r = 0;

	if (!key)
		return ff_err_set(err, ENOMEM, "out of memory");
	key[0] = xprefix;
	memcpy(key + 1, name, nlen + 1);
	memcpy(key + 2 + nlen, value, vlen);
	if (ff_hmap_find(&b->xattrs, key, klen, &found)) {
		*xid = (uint32_t)found;
	} else {
		uint8_t *node = malloc(J2_XATTR_SIZE + nlen + 1 + vlen + 4);
		uint32_t len;

		*xid = ++b->xid;
		if (!node || ff_hmap_set(&b->xattrs, key, klen, *xid) < 0) {
			free(node);
			free(key);
			return ff_err_set(err, ENOMEM, "out of memory");
		}
		len = j2_xattr_encode(node, *xid, xprefix, name, (uint8_t)nlen, value,
				      (uint16_t)vlen, b->o->big_endian);
		r = j2_submit_node(b, node, len, len, err);
		free(node);
	}
	free(key);
	return r;
}

static int one(struct j2_build *b, const struct ff_xattr *x, uint32_t ino, struct ff_err *err)
{
	const struct xprefix *p = prefix_of(x->name);
	const uint8_t *value = x->value;
	size_t vlen = x->len;
	uint8_t acl[65536], node[J2_XREF_SIZE];
	uint32_t xid = 0;

	if (!p || !(b->o->xattrs & (1u << p->id)))
		return 0;
	if (p->whole) {
		if (vlen > sizeof(acl) || j2_acl_to_jffs2(value, vlen, acl, &vlen, b->o->big_endian))
			return ff_err_set(err, EINVAL, "xattr %s: not a POSIX ACL this can store",
					  x->name);
		value = acl;
	}
	if (datum(b, p->id, x->name + strlen(p->text), value,
		  vlen, &xid, err))
		return -1;
	b->xseqno += 2;
	return j2_submit_node(b, node, j2_xref_encode(node, ino, xid, b->xseqno, b->o->big_endian),
			      J2_XREF_SIZE, err);
}

int j2_put_xattrs(struct j2_build *b, const struct ff_node *n, uint32_t ino, struct ff_err *err)
{
	if (!b->o->xattrs)
		return 0;
	for (uint32_t i = 0; i < ff_node_n_xattrs(n); i++)
		if (one(b, &ff_node_xattrs(n)[i], ino, err))
			return ff_err_prefix(err, "%s", ff_node_name(n));
	return 0;
}
