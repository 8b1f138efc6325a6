/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Keys in the simple format (key.h in the kernel): 32 bits of inode number,
 * then 3 bits of key type over 29 bits of block number or name hash, both
 * little-endian words on flash.  Keys sort by inode number, then type,
 * then block or hash.  Directory and xattr entries are keyed by a hash of
 * their name: the "r5" hash (from reiserfs) or the test hash (the name's
 * first 4 bytes); no library offers either, so they are written here. */
#include <string.h>

#include "common/endian.h"
#include "ubifs/ubifs.h"

void ubifs_key_decode(const uint8_t *p, struct ubifs_key *k)
{
	k->inum = ff_get_le32(p);
	k->lo = ff_get_le32(p + 4);
}

int ubifs_key_cmp(const struct ubifs_key *a, const struct ubifs_key *b)
{
	if (a->inum != b->inum)
		return a->inum < b->inum ? -1 : 1;
	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	return 0;
}

struct ubifs_key ubifs_key_make(uint32_t inum, uint32_t type, uint32_t val)
{
	return (struct ubifs_key){ inum, (type << 29) | (val & UBIFS_KEY_VAL_MASK) };
}

int ubifs_key_hashed(const struct ubifs_key *k)
{
	uint32_t t = UBIFS_KEY_TYPE(*k);

	return t == UBIFS_DENT_NODE || t == UBIFS_XENT_NODE;
}

/* Each byte is taken as a signed char; a negative one shifted right
 * rounds toward minus infinity, as an arithmetic shift does. */
static uint32_t r5(const char *s, size_t len)
{
	uint32_t a = 0;

	for (size_t i = 0; i < len; i++) {
		int32_t c = (int8_t)s[i];
		int32_t down = c >= 0 ? c / 16 : -((15 - c) / 16);

		a += (uint32_t)c * 16u;
		a += (uint32_t)down;
		a *= 11u;
	}
	return a;
}

/* The first four name bytes as a little-endian word (the kernel copies
 * them into a host word; the images it makes this way are little-endian
 * hosts'). */
static uint32_t test_hash(const char *s, size_t len)
{
	uint8_t b[4] = { 0, 0, 0, 0 };

	memcpy(b, s, len < 4 ? len : 4);
	return ff_get_le32(b);
}

uint32_t ubifs_name_hash(const struct ubifs_fs *u, const char *name, size_t len)
{
	return ubifs_hash_name(u->sb.key_hash, name, len);
}

uint32_t ubifs_hash_name(int key_hash, const char *name, size_t len)
{
	uint32_t h = key_hash == 1 ? test_hash(name, len) : r5(name, len);

	/* 0, 1 and 2 are kept for ".", ".." and the end of a readdir */
	h &= UBIFS_KEY_VAL_MASK;
	return h <= 2 ? h + 3 : h;
}
