/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Extended attributes, stored as the kernel's xattr.c stores them: for
 * each, an xattr entry (a directory entry node keyed by the host's inode
 * number with the xattr key type, naming the attribute) and an xattr
 * inode (a regular inode flagged UBIFS_XATTR_FL whose inline data is the
 * value, so a value holds at most 4096 bytes).  The host inode counts
 * them (xattr_cnt), their names' bytes (xattr_names), and the space the
 * entries and inodes take (xattr_size), which the kernel's debug checks
 * recompute.  The tree has them sorted by name, so the bytes do not
 * depend on the source's listing order. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "ubifs/write_priv.h"

#define XATTR_LIST_MAX 65536u /* the VFS' limit on listxattr's names */
#define XATTR_MODE (S_IFREG | 0777u)

static uint32_t dent_size(uint32_t nlen)
{
	return UW_ALIGN(UBIFS_DENT_NODE_SZ + nlen + 1, 8);
}

static uint32_t xattr_bytes(uint32_t len)
{
	return UW_ALIGN(UBIFS_INO_NODE_SZ + len + 1, 8);
}

/* The kernel refuses more than fit in half a LEB of inodes (misc.h's
 * ubifs_xattr_max_cnt), and names beyond what listxattr can return. */
static int check_xattr(const struct uw *w, const struct ff_xattr *x, uint32_t nlen,
		       struct ff_err *err)
{
	uint32_t max_cnt = w->g.leb_size / 2 / UBIFS_INO_NODE_SZ;

	if (nlen == 0 || nlen > UBIFS_MAX_NLEN)
		return ff_err_set(err, ENAMETOOLONG, "xattr name of %u bytes (1 to %u)", nlen,
				  UBIFS_MAX_NLEN);
	if (x->len > UBIFS_MAX_INO_DATA)
		return ff_err_set(err, E2BIG, "xattr %s: value of %u bytes (max %u)", x->name,
				  x->len, UBIFS_MAX_INO_DATA);
	if (w->xs_cnt + 1 > max_cnt)
		return ff_err_set(err, ENOSPC, "more than %u xattrs (half a LEB of inodes)",
				  max_cnt);
	if (w->xs_names + w->xs_cnt + nlen + 1 > XATTR_LIST_MAX)
		return ff_err_set(err, ENOSPC, "xattr names of more than %u bytes",
				  XATTR_LIST_MAX);
	return 0;
}

static int put_one(struct uw *w, struct uw_job *j, const struct ff_node *host,
		   uint64_t host_inum, const struct ff_xattr *x, struct ff_err *err)
{
	uint32_t nlen = (uint32_t)strlen(x->name);
	uint64_t xinum = w->next_xinum++;
	struct uw_ino_attr a = { xinum, x->len, host->mtime, 1, host->uid, host->gid,
				 XATTR_MODE, UBIFS_XATTR_FL, (uint32_t)w->o->compr, x->value,
				 x->len, 0, 0, 0 };

	if (check_xattr(w, x, nlen, err))
		return -1;
	if (xinum > UINT32_MAX)
		return ff_err_set(err, EOVERFLOW, "more than 2^32 inodes");
	*j = (struct uw_job){ .inum = (uint32_t)host_inum, .name = x->name, .nlen = nlen };
	j->len = uw_dent_encode(w->o->key_hash, UBIFS_XENT_NODE, host_inum, x->name, nlen, xinum,
				UBIFS_ITYPE_REG, j->node, &j->lo);
	if (uw_pipe_made(w, j, UBIFS_XENT_NODE, err))
		return -1;
	*j = (struct uw_job){ .inum = (uint32_t)xinum };
	j->len = uw_ino_encode(&a, j->node);
	if (xinum > w->highest_inum)
		w->highest_inum = xinum;
	w->xs_cnt++;
	w->xs_size += dent_size(nlen) + xattr_bytes(x->len);
	w->xs_names += nlen;
	return uw_pipe_made(w, j, UBIFS_INO_NODE, err);
}

int uw_put_xattrs(struct uw *w, struct uw_job *j, const struct ff_node *host,
		  uint64_t host_inum, struct ff_err *err)
{
	w->xs_cnt = w->xs_size = w->xs_names = 0;
	for (uint32_t i = 0; i < ff_node_n_xattrs(host); i++)
		if (put_one(w, j, host, host_inum, &ff_node_xattrs(host)[i], err))
			return -1;
	return 0;
}
