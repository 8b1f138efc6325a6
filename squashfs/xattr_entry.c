/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Extended attribute key and id entries.  Names are stored without their
 * namespace prefix; the prefix is a small type number. */
#include <errno.h>
#include <string.h>

#include "common/endian.h"
#include "squashfs/format.h"

static const char *const prefixes[] = {"user.", "trusted.", "security."};

void sqfs_xattr_key_encode(const struct sqfs_xattr_key *k, uint8_t out[SQFS_XATTR_KEY_SIZE])
{
	ff_put_le16(out, k->type);
	ff_put_le16(out + 2, k->name_len);
}

int sqfs_xattr_key_decode(const uint8_t in[SQFS_XATTR_KEY_SIZE], enum sqfs_order o,
			  struct sqfs_xattr_key *k, struct ff_err *err)
{
	k->type = sqfs_get16(in, o);
	k->name_len = sqfs_get16(in + 2, o);
	if ((k->type & ~SQFS_XATTR_VALUE_OOL) > SQFS_XATTR_SECURITY)
		return ff_err_set(err, EINVAL, "xattr key: unknown type 0x%x", k->type);
	return 0;
}

void sqfs_xattr_id_encode(const struct sqfs_xattr_id *x, uint8_t out[SQFS_XATTR_ID_SIZE])
{
	ff_put_le64(out, x->ref);
	ff_put_le32(out + 8, x->count);
	ff_put_le32(out + 12, x->size);
}

void sqfs_xattr_id_decode(const uint8_t in[SQFS_XATTR_ID_SIZE], enum sqfs_order o,
			  struct sqfs_xattr_id *x)
{
	x->ref = sqfs_get64(in, o);
	x->count = sqfs_get32(in + 8, o);
	x->size = sqfs_get32(in + 12, o);
}

const char *sqfs_xattr_prefix(int type)
{
	type &= ~SQFS_XATTR_VALUE_OOL;
	return type >= 0 && type <= SQFS_XATTR_SECURITY ? prefixes[type] : NULL;
}

int sqfs_xattr_split(const char *name, const char **suffix)
{
	int i;

	for (i = 0; i <= SQFS_XATTR_SECURITY; i++) {
		size_t n = strlen(prefixes[i]);

		if (!strncmp(name, prefixes[i], n)) {
			*suffix = name + n;
			return i;
		}
	}
	return -1;
}
