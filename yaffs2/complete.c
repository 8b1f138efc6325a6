/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Completeness of an image that carries our end record (end_record.h).
 * The checks run only while the image is as our writer left it: a later
 * writer (the kernel's driver, garbage collection) writes blocks with
 * higher sequence numbers, and then nothing here is asserted. */
#include <stdio.h>
#include <string.h>

#include "common/problems.h"
#include "yaffs2/scan.h"
#include "yaffs2/tags.h"

/* "/dir/name" of a live object, or "object N" when its parents are lost. */
static void obj_path(const struct ff_y2_scan *s, const struct ff_y2_obj *o, char *buf,
		     size_t cap)
{
	char tmp[4096] = "";
	unsigned depth = 0;

	while (o && o->id != FF_Y2_OBJID_ROOT && depth++ < 256) {
		char next[4096];

		snprintf(next, sizeof(next), "/%s%s", o->name ? o->name : "?", tmp);
		memcpy(tmp, next, sizeof(tmp));
		o = o->parent <= FF_Y2_OBJID_MAX ? s->objs[o->parent] : NULL;
	}
	if (o)
		snprintf(buf, cap, "%s", tmp);
	else
		snprintf(buf, cap, "%s (object whose parent is lost)", tmp);
}

/* Sequence numbers from the lowest to `last` that no page carries. */
static void missing_blocks(struct ff_y2_scan *s, const uint32_t *seqs, size_t n, uint32_t last)
{
	uint32_t want = FF_Y2_SEQ_LOWEST;

	for (size_t i = 0; i <= n; i++) {
		uint32_t have = i < n ? seqs[i] : last + 1;

		if (have > want && want <= last) {
			uint32_t to = (have <= last ? have : last + 1) - 1;

			if (to == want)
				ff_problem_add(&s->problems,
					       "the block with sequence number 0x%x is"
					       " missing (1 erase block lost)", want);
			else
				ff_problem_add(&s->problems,
					       "blocks with sequence numbers 0x%x..0x%x"
					       " are missing (%u erase blocks lost)", want,
					       to, to - want + 1);
		}
		if (have >= want)
			want = have + 1;
	}
}

static void missing_objects(struct ff_y2_scan *s)
{
	uint32_t have = 0;

	for (uint32_t id = FF_Y2_OBJID_FIRST; id <= s->rec.last_obj && id <= FF_Y2_OBJID_MAX; id++)
		have += s->objs[id] && s->objs[id]->has_header;
	if (have < s->rec.objects)
		ff_problem_add(&s->problems, "%u of the %u objects written are missing (no header"
			       " found), and so are their names",
			       s->rec.objects - have, s->rec.objects);
}

/* Our writer always writes a file's last chunk. */
static void files_cut_short(struct ff_y2_scan *s)
{
	uint32_t cb = s->lay.chunk_bytes;

	for (uint32_t id = FF_Y2_OBJID_FIRST; id <= FF_Y2_OBJID_MAX; id++) {
		const struct ff_y2_obj *o = s->objs[id];
		uint64_t last, have;
		char path[4096];

		if (!o || !o->visible || o->type != FF_Y2_TYPE_FILE || !o->size)
			continue;
		last = (o->size - 1) / cb + 1;
		if (ff_y2_obj_chunk(o, (uint32_t)last))
			continue;
		have = o->n_chunks ? (uint64_t)(o->chunks[o->n_chunks - 1].chunk_id - 1) * cb +
					     o->chunks[o->n_chunks - 1].n_bytes : 0;
		obj_path(s, o, path, sizeof(path));
		ff_problem_add(&s->problems, "%s: file cut short: data ends at byte %llu of %llu"
			       " (chunk %llu, the last, is missing); read as zeros after",
			       path, (unsigned long long)have, (unsigned long long)o->size,
			       (unsigned long long)last);
	}
}

void ff_y2_check_complete(struct ff_y2_scan *s, const uint32_t *seqs, size_t n)
{
	const struct ff_y2_end_record *r = &s->rec;

	if (r->is_end && s->st.seq_max > r->seq)
		return; /* written to since: our counts no longer hold */
	if (!r->is_end)
		ff_problem_add(&s->problems,
			       "image cut short: the end record written after the last"
			       " object is missing; the last block present has sequence"
			       " number 0x%x", s->st.seq_max);
	missing_blocks(s, seqs, n, r->is_end ? r->seq : s->st.seq_max);
	missing_objects(s);
	if (r->is_end && s->st.used_pages < r->chunks)
		ff_problem_add(&s->problems, "%llu of the %llu chunks written are missing",
			       (unsigned long long)(r->chunks - s->st.used_pages),
			       (unsigned long long)r->chunks);
	files_cut_short(s);
}
