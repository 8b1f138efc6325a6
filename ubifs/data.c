/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* File data: one data node per 4096-byte block, keyed by the block's
 * number; each holds the block's length and its bytes, compressed with the
 * node's own compressor.  A block with no node is a hole and reads as
 * zeros, as does the part of a block past the node's length. */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "common/endian.h"
#include "ubifs/ubifs.h"

int ubifs_data_block(struct ubifs_fs *u, uint64_t inum, uint32_t block,
		     uint8_t out[UBIFS_BLOCK_SIZE], uint32_t *got)
{
	uint8_t buf[UBIFS_DATA_NODE_SZ + UBIFS_BLOCK_SIZE];
	char why[FF_ERR_MSG_MAX];
	struct ubifs_key k = ubifs_key_make((uint32_t)inum, UBIFS_DATA_NODE, block), nk;
	struct ubifs_loc loc;
	uint32_t size;
	ssize_t n;
	int ret = ubifs_lookup(u, &k, &loc);

	*got = 0;
	if (ret == -ENOENT)
		return 0;
	if (ret < 0 || (ret = ubifs_read_node(u, &loc, UBIFS_DATA_NODE, buf, sizeof(buf),
					      "data")) < 0)
		return ret;
	ubifs_key_decode(buf + UBIFS_KEY_OFF, &nk);
	size = ff_get_le32(buf + DATA_SIZE);
	if (ubifs_key_cmp(&nk, &k) || size > UBIFS_BLOCK_SIZE) {
		ff_fs_log(&u->fs, "inode %llu: block %u: data node at LEB %u:%u has key %u:%08x "
			  "and size %u", (unsigned long long)inum, block, loc.lnum, loc.offs,
			  nk.inum, nk.lo, size);
		return -EIO;
	}
	if (ubifs_lzo_missing(ff_get_le16(buf + DATA_COMPR), why, sizeof(why))) {
		ff_fs_log(&u->fs, "inode %llu: block %u: %s", (unsigned long long)inum, block, why);
		return -ENOTSUP;
	}
	n = ubifs_decompress(ff_get_le16(buf + DATA_COMPR), buf + UBIFS_DATA_NODE_SZ,
			     loc.len - UBIFS_DATA_NODE_SZ, out, UBIFS_BLOCK_SIZE);
	if (n != (ssize_t)size) {
		ff_fs_log(&u->fs, "inode %llu: block %u: data node at LEB %u:%u (%s) %s %u bytes",
			  (unsigned long long)inum, block, loc.lnum, loc.offs,
			  ubifs_compr_name(ff_get_le16(buf + DATA_COMPR)),
			  n < 0 ? "does not decompress to" : "decompresses to other than", size);
		return -EIO;
	}
	*got = size;
	return 0;
}

ssize_t ubifs_read_data(struct ubifs_fs *u, const struct ubifs_ino *ino, uint8_t *buf,
			size_t len, uint64_t off)
{
	uint8_t block[UBIFS_BLOCK_SIZE];
	size_t done = 0;

	if (off >= ino->size)
		return 0;
	if (len > ino->size - off)
		len = (size_t)(ino->size - off);
	if (len > (size_t)SSIZE_MAX)
		len = (size_t)SSIZE_MAX;
	while (done < len) {
		uint64_t pos = off + done;
		uint32_t in = (uint32_t)(pos % UBIFS_BLOCK_SIZE), got;
		size_t n = UBIFS_BLOCK_SIZE - in < len - done ? UBIFS_BLOCK_SIZE - in : len - done;
		int ret;

		if (pos / UBIFS_BLOCK_SIZE > UBIFS_KEY_VAL_MASK)
			got = 0;
		else if ((ret = ubifs_data_block(u, ino->inum, (uint32_t)(pos / UBIFS_BLOCK_SIZE),
						 block, &got)) < 0)
			return ret;
		if (got > in)
			memcpy(buf + done, block + in, got - in < n ? got - in : n);
		if (got < in + n)
			memset(buf + done + (got > in ? got - in : 0), 0,
			       n - (got > in ? got - in : 0));
		done += n;
	}
	return (ssize_t)done;
}
