/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The erase-block summary (struct jffs2_raw_summary, 32 bytes + entries),
 * written by sumtool or a kernel with CONFIG_JFFS2_SUMMARY as the last node
 * of an erase block, which then ends with an 8-byte marker: the summary's
 * offset in the block and JFFS2_SUM_MAGIC.  This reader scans every node
 * itself and uses summaries only to learn the erase-block size and to
 * count them: a summary is never trusted over the nodes it describes. */
#include "common/endian.h"
#include "jffs2/node.h"

void j2_summary_decode(const uint8_t *b, int big, struct j2_summary_node *n)
{
	n->sum_num = ff_get32(b + 12, big);
	n->cln_mkr = ff_get32(b + 16, big);
	n->padded = ff_get32(b + 20, big);
	n->sum_crc = ff_get32(b + 24, big);
	n->node_crc = ff_get32(b + 28, big);
}

/* The kernel's order (summary.c): node CRC over 24 bytes, then the CRC of
 * everything after the 32-byte head up to totlen. */
const char *j2_summary_check(const uint8_t *b, uint32_t totlen, const struct j2_summary_node *n,
			     uint32_t *want, uint32_t *calc)
{
	*want = n->node_crc;
	*calc = j2_crc(b, J2_SUMMARY_SIZE - 8);
	if (*want != *calc)
		return "bad node CRC";
	*want = n->sum_crc;
	*calc = j2_crc(b + J2_SUMMARY_SIZE, totlen - J2_SUMMARY_SIZE);
	if (*want != *calc)
		return "bad summary CRC";
	return NULL;
}

int j2_summary_marker(const uint8_t *end8, int big, uint32_t *sum_offset)
{
	if (ff_get32(end8 + 4, big) != J2_SUM_MAGIC)
		return 0;
	*sum_offset = ff_get32(end8, big);
	return 1;
}
