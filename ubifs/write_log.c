/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The log of a new file system: one commit-start node for commit 0 at the
 * start of the first log LEB and nothing else, so the kernel finds no buds
 * to replay; the other log LEBs and the orphan area stay erased. */
#include <string.h>

#include "common/endian.h"
#include "ubifs/write_priv.h"

uint32_t uw_cs_encode(uint8_t *p)
{
	memset(p, 0, UBIFS_CS_NODE_SZ);
	ff_put_le64(p + CS_CMT_NO, 0);
	return UBIFS_CS_NODE_SZ;
}
