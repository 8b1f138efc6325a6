/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Inode nodes: attributes, and inline data (a symlink's target, a device
 * number).  All three times are the tree's mtime, so the bytes do not
 * depend on when the image is made. */
#include <string.h>

#include "common/endian.h"
#include "ubifs/write_priv.h"

#define INO_ATIME_NSEC 80

uint32_t uw_ino_encode(const struct uw_ino_attr *a, uint8_t *p)
{
	memset(p, 0, UBIFS_INO_NODE_SZ);
	uw_key_put(p + UBIFS_KEY_OFF, (uint32_t)a->inum, 0);
	ff_put_le64(p + INO_CREAT_SQNUM, 0);
	ff_put_le64(p + INO_SIZE, a->size);
	ff_put_le64(p + INO_ATIME, (uint64_t)a->mtime);
	ff_put_le64(p + INO_CTIME, (uint64_t)a->mtime);
	ff_put_le64(p + INO_MTIME, (uint64_t)a->mtime);
	ff_put_le32(p + INO_NLINK, a->nlink);
	ff_put_le32(p + INO_UID, a->uid);
	ff_put_le32(p + INO_GID, a->gid);
	ff_put_le32(p + INO_MODE, a->mode);
	ff_put_le32(p + INO_FLAGS, a->flags);
	ff_put_le32(p + INO_DATA_LEN, a->data_len);
	ff_put_le32(p + INO_XATTR_CNT, a->xattr_cnt);
	ff_put_le32(p + INO_XATTR_SIZE, a->xattr_size);
	ff_put_le32(p + INO_XATTR_NAMES, a->xattr_names);
	ff_put_le16(p + INO_COMPR, (uint16_t)a->compr);
	if (a->data_len)
		memcpy(p + UBIFS_INO_NODE_SZ, a->data, a->data_len);
	return UBIFS_INO_NODE_SZ + a->data_len;
}
