/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The fragment map, built by a sweep over the range boundaries: between
 * two consecutive boundaries the winner is the highest-priority node
 * covering them, kept on top of a max-heap of the nodes that have started
 * (ended ones leave it lazily).  n log n for any overlaps, where inserting
 * into a list would be quadratic for a hostile image. */
#include <stdlib.h>
#include <string.h>

#include "jffs2/frag.h"

struct sweep {
	const struct j2_frag_in *in;
	uint32_t *heap;
	size_t n;
};

/* Higher version first; between equal versions the one found first. */
static int above(const struct j2_frag_in *a, const struct j2_frag_in *b)
{
	if (a->version != b->version)
		return a->version > b->version;
	return a->seq < b->seq;
}

static void heap_push(struct sweep *s, uint32_t idx)
{
	size_t i = s->n++;

	while (i) {
		size_t p = (i - 1) / 2;

		if (!above(&s->in[idx], &s->in[s->heap[p]]))
			break;
		s->heap[i] = s->heap[p];
		i = p;
	}
	s->heap[i] = idx;
}

static void heap_pop(struct sweep *s)
{
	uint32_t last = s->heap[--s->n];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= s->n)
			break;
		if (c + 1 < s->n && above(&s->in[s->heap[c + 1]], &s->in[s->heap[c]]))
			c++;
		if (!above(&s->in[s->heap[c]], &s->in[last]))
			break;
		s->heap[i] = s->heap[c];
		i = c;
	}
	if (s->n)
		s->heap[i] = last;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Appends [a, b) from node idx, merged with the previous fragment when it
 * continues it. */
static void emit(struct j2_frag *f, size_t *nf, const struct j2_frag_in *in, uint32_t idx,
		 uint64_t a, uint64_t b)
{
	if (*nf && f[*nf - 1].node == in[idx].node && f[*nf - 1].end == a &&
	    f[*nf - 1].start - f[*nf - 1].node_ofs == in[idx].ofs) {
		f[*nf - 1].end = (uint32_t)b;
		return;
	}
	f[*nf] = (struct j2_frag){ (uint32_t)a, (uint32_t)b, in[idx].node,
				   (uint32_t)(a - in[idx].ofs) };
	(*nf)++;
}

/* Node indices sorted by start, and the distinct boundaries. */
static int prepare(const struct j2_frag_in *in, size_t n, uint64_t **order, uint64_t **bounds,
		   size_t *nb)
{
	size_t k = 0;

	*order = malloc(n * sizeof(**order));
	*bounds = malloc(2 * n * sizeof(**bounds));
	if (!*order || !*bounds)
		return -1;
	for (size_t i = 0; i < n; i++) {
		(*order)[i] = ((uint64_t)in[i].ofs << 32) | i;
		(*bounds)[2 * i] = in[i].ofs;
		(*bounds)[2 * i + 1] = (uint64_t)in[i].ofs + in[i].len;
	}
	qsort(*order, n, sizeof(**order), cmp_u64);
	qsort(*bounds, 2 * n, sizeof(**bounds), cmp_u64);
	for (size_t i = 0; i < 2 * n; i++)
		if (!k || (*bounds)[k - 1] != (*bounds)[i])
			(*bounds)[k++] = (*bounds)[i];
	*nb = k;
	return 0;
}

int j2_frag_build(const struct j2_frag_in *in, size_t n, struct j2_frag **out, size_t *n_out)
{
	struct sweep s = { in, NULL, 0 };
	uint64_t *order = NULL, *bounds = NULL;
	struct j2_frag *f = NULL;
	size_t nb = 0, next = 0, nf = 0;
	int ret = -1;

	*out = NULL;
	*n_out = 0;
	if (!n)
		return 0;
	s.heap = malloc(n * sizeof(*s.heap));
	f = malloc(2 * n * sizeof(*f));
	if (!s.heap || !f || prepare(in, n, &order, &bounds, &nb))
		goto out;
	for (size_t k = 0; k + 1 < nb; k++) {
		while (next < n && (order[next] >> 32) <= bounds[k])
			heap_push(&s, (uint32_t)order[next++]);
		while (s.n && (uint64_t)in[s.heap[0]].ofs + in[s.heap[0]].len <= bounds[k])
			heap_pop(&s);
		if (s.n)
			emit(f, &nf, in, s.heap[0], bounds[k], bounds[k + 1]);
	}
	*out = nf ? f : NULL;
	*n_out = nf;
	if (!nf)
		free(f);
	f = NULL;
	ret = 0;
out:
	free(f);
	free(s.heap);
	free(order);
	free(bounds);
	return ret;
}

void j2_frag_truncate(struct j2_frag *f, size_t *n, uint32_t size)
{
	while (*n && f[*n - 1].start >= size)
		(*n)--;
	if (*n && f[*n - 1].end > size)
		f[*n - 1].end = size;
}

size_t j2_frag_find(const struct j2_frag *f, size_t n, uint64_t off)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f[mid].end <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}
