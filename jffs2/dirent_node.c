/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The directory entry node (struct jffs2_raw_dirent, 40 bytes + name): one
 * version of the name `name` in directory pino; ino 0 unlinks it. */
#include "common/endian.h"
#include "jffs2/node.h"

void j2_dirent_decode(const uint8_t *b, int big, struct j2_dirent_node *n)
{
	n->pino = ff_get32(b + 12, big);
	n->version = ff_get32(b + 16, big);
	n->ino = ff_get32(b + 20, big);
	n->mctime = ff_get32(b + 24, big);
	n->nsize = b[28];
	n->type = b[29];
	n->node_crc = ff_get32(b + 32, big);
	n->name_crc = ff_get32(b + 36, big);
	n->name = b + J2_DIRENT_SIZE;
}

/* Node CRC over 32 bytes, the name inside totlen, then the name CRC. */
const char *j2_dirent_check(const uint8_t *b, uint32_t totlen, const struct j2_dirent_node *n,
			    uint32_t *want, uint32_t *calc)
{
	*want = n->node_crc;
	*calc = j2_crc(b, J2_DIRENT_SIZE - 8);
	if (*want != *calc)
		return "bad node CRC";
	*want = totlen;
	*calc = J2_DIRENT_SIZE + n->nsize;
	if (J2_DIRENT_SIZE + n->nsize > totlen ||
	    j2_pad(J2_DIRENT_SIZE + n->nsize) != j2_pad(totlen))
		return "name size does not match totlen";
	*want = n->name_crc;
	*calc = j2_crc(n->name, n->nsize);
	if (*want != *calc)
		return "bad name CRC";
	return NULL;
}
