/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Inode nodes: ownership, mode, times, size, link count, flags, and the
 * inode's own data (a symlink's target, a device's number), and directory
 * and xattr entry nodes: the name, the inode it leads to and its type. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "common/endian.h"
#include "ubifs/ubifs.h"

int ubifs_ino_decode(const uint8_t *p, size_t len, struct ubifs_ino *ino)
{
	struct ubifs_key k;

	if (len < UBIFS_INO_NODE_SZ)
		return -EINVAL;
	ubifs_key_decode(p + UBIFS_KEY_OFF, &k);
	ino->inum = k.inum;
	ino->creat_sqnum = ff_get_le64(p + INO_CREAT_SQNUM);
	ino->size = ff_get_le64(p + INO_SIZE);
	ino->atime = (int64_t)ff_get_le64(p + INO_ATIME);
	ino->ctime = (int64_t)ff_get_le64(p + INO_CTIME);
	ino->mtime = (int64_t)ff_get_le64(p + INO_MTIME);
	ino->nlink = ff_get_le32(p + INO_NLINK);
	ino->uid = ff_get_le32(p + INO_UID);
	ino->gid = ff_get_le32(p + INO_GID);
	ino->mode = ff_get_le32(p + INO_MODE);
	ino->flags = ff_get_le32(p + INO_FLAGS);
	ino->data_len = ff_get_le32(p + INO_DATA_LEN);
	ino->xattr_cnt = ff_get_le32(p + INO_XATTR_CNT);
	ino->compr = ff_get_le16(p + INO_COMPR);
	if (UBIFS_KEY_TYPE(k) != UBIFS_INO_NODE || ino->data_len > UBIFS_MAX_INO_DATA ||
	    UBIFS_INO_NODE_SZ + ino->data_len != len)
		return -EINVAL;
	memcpy(ino->data, p + UBIFS_INO_NODE_SZ, ino->data_len);
	return 0;
}

int ubifs_read_inode(struct ubifs_fs *u, uint64_t inum, struct ubifs_ino *ino)
{
	uint8_t buf[UBIFS_INO_NODE_SZ + UBIFS_MAX_INO_DATA];
	struct ubifs_key k;
	struct ubifs_loc loc;
	uint64_t fixed;
	int ret;

	if (inum == 0 || inum > UINT32_MAX)
		return -ENOENT;
	if (ubifs_icache_get(u, inum, ino))
		return 0;
	k = ubifs_key_make((uint32_t)inum, UBIFS_INO_NODE, 0);
	if ((ret = ubifs_lookup(u, &k, &loc)) < 0)
		return ret;
	if ((ret = ubifs_read_node(u, &loc, UBIFS_INO_NODE, buf, sizeof(buf), "inode")) < 0)
		return ret;
	if (ubifs_ino_decode(buf, loc.len, ino) < 0 || ino->inum != inum) {
		ff_fs_log(&u->fs, "inode %llu: inode node at LEB %u:%u is malformed (key inode "
			  "%llu, %u bytes of data in %u)", (unsigned long long)inum, loc.lnum,
			  loc.offs, (unsigned long long)ino->inum, ino->data_len, loc.len);
		return -EIO;
	}
	/* a size recovered from the journal's data nodes (unclean unmount) */
	if (u->ov.sizes.n && ff_hmap_find(&u->ov.sizes, &inum, sizeof(inum), &fixed))
		ino->size = fixed - 1;
	ubifs_icache_put(u, ino);
	return 0;
}

uint32_t ubifs_ino_mode(const struct ubifs_ino *ino)
{
	return ino->mode;
}

/* Linux's "new" device encoding, in 4 bytes or (huge) 8. */
void ubifs_ino_rdev(const struct ubifs_ino *ino, uint32_t *major, uint32_t *minor)
{
	uint64_t dev = 0;

	if (ino->data_len == 4)
		dev = ff_get_le32(ino->data);
	else if (ino->data_len == 8)
		dev = ff_get_le64(ino->data);
	*major = (uint32_t)((dev & 0xfff00u) >> 8);
	*minor = (uint32_t)((dev & 0xffu) | ((dev >> 12) & 0xfff00u));
}

uint32_t ubifs_itype_mode(uint8_t type)
{
	static const uint32_t modes[UBIFS_ITYPES] = {
		S_IFREG, S_IFDIR, S_IFLNK, S_IFBLK, S_IFCHR, S_IFIFO, S_IFSOCK,
	};

	return type < UBIFS_ITYPES ? modes[type] : 0;
}

int ubifs_dent_decode(const uint8_t *p, size_t len, struct ubifs_dent *d)
{
	if (len < UBIFS_DENT_NODE_SZ + 1)
		return -EINVAL;
	ubifs_key_decode(p + UBIFS_KEY_OFF, &d->key);
	d->inum = ff_get_le64(p + DENT_INUM);
	d->type = p[DENT_TYPE];
	d->nlen = ff_get_le16(p + DENT_NLEN);
	d->cookie = ff_get_le32(p + DENT_COOKIE);
	if (d->nlen == 0 || d->nlen > UBIFS_MAX_NLEN || len != UBIFS_DENT_NODE_SZ + d->nlen + 1u ||
	    d->type >= UBIFS_ITYPES || !ubifs_key_hashed(&d->key) ||
	    memchr(p + UBIFS_DENT_NODE_SZ, 0, d->nlen))
		return -EINVAL;
	memcpy(d->name, p + UBIFS_DENT_NODE_SZ, d->nlen);
	d->name[d->nlen] = 0;
	return 0;
}

int ubifs_read_dent(struct ubifs_fs *u, const struct ubifs_loc *loc, const uint8_t *node,
		    struct ubifs_dent *d)
{
	uint8_t buf[UBIFS_DENT_NODE_SZ + UBIFS_MAX_NLEN + 1];
	int ret;

	if (!node) {
		ret = ubifs_read_node(u, loc, -1, buf, sizeof(buf), "entry");
		if (ret < 0)
			return ret;
		node = buf;
	}
	if (ubifs_dent_decode(node, loc->len, d) < 0) {
		ff_fs_log(&u->fs, "entry node at LEB %u:%u (%u bytes) is malformed", loc->lnum,
			  loc->offs, loc->len);
		return -EIO;
	}
	return 0;
}
