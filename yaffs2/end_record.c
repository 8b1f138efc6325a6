/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include "yaffs2/end_record.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define MAGIC "flashfs-yaffs2 1 "

void ff_y2_end_record_encode(const struct ff_y2_end_record *r, char *alias, size_t cap)
{
	if (r->is_end)
		snprintf(alias, cap, MAGIC "objects=%" PRIu32 " last=%" PRIu32 " seq=%" PRIu32
			 " chunks=%" PRIu64, r->objects, r->last_obj, r->seq, r->chunks);
	else
		snprintf(alias, cap, MAGIC "objects=%" PRIu32 " last=%" PRIu32, r->objects,
			 r->last_obj);
}

/* Exact round trip only: any other text is not ours. */
void ff_y2_end_record_decode(const char *alias, struct ff_y2_end_record *r)
{
	struct ff_y2_end_record t;
	char again[160];
	int n = 0;

	memset(r, 0, sizeof(*r));
	memset(&t, 0, sizeof(t));
	if (strncmp(alias, MAGIC, strlen(MAGIC)))
		return;
	if (sscanf(alias + strlen(MAGIC), "objects=%" SCNu32 " last=%" SCNu32 " seq=%" SCNu32
		   " chunks=%" SCNu64 "%n", &t.objects, &t.last_obj, &t.seq, &t.chunks, &n) == 4)
		t.is_end = 1;
	else if (sscanf(alias + strlen(MAGIC), "objects=%" SCNu32 " last=%" SCNu32, &t.objects,
			&t.last_obj) != 2)
		return;
	ff_y2_end_record_encode(&t, again, sizeof(again));
	if (strcmp(again, alias))
		return;
	t.present = 1;
	*r = t;
}
