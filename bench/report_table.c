/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The terminal table: one row per codec × block size, smallest image
 * first, the recommended rows marked (and bold on a colour terminal),
 * followed by the recommendations and the break-even bandwidths. */
#include "bench/bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_rows(const void *x, const void *y, void *ctx)
{
	const struct bench_result *res = ctx;
	const struct bench_result *a = &res[*(const size_t *)x], *b = &res[*(const size_t *)y];

	if (a->image_size != b->image_size)
		return a->image_size < b->image_size ? -1 : 1;
	if (a->decomp.best != b->decomp.best)
		return a->decomp.best > b->decomp.best ? -1 : 1;
	return *(const size_t *)x < *(const size_t *)y ? -1 : 1;
}

size_t *bench_sorted(const struct bench_result *res, size_t n)
{
	size_t *ord = malloc((n + 1) * sizeof(*ord));

	if (!ord)
		return NULL;
	for (size_t i = 0; i < n; i++)
		ord[i] = i;
	qsort_r(ord, n, sizeof(*ord), cmp_rows, (void *)res);
	return ord;
}

const char *bench_human_size(uint64_t bytes, char *buf, size_t cap)
{
	if (bytes >= 10ull << 20)
		snprintf(buf, cap, "%.1f MiB", (double)bytes / (1 << 20));
	else if (bytes >= 10ull << 10)
		snprintf(buf, cap, "%.1f KiB", (double)bytes / (1 << 10));
	else
		snprintf(buf, cap, "%llu B", (unsigned long long)bytes);
	return buf;
}

static void marks(const struct bench_report *r, size_t i, char out[4])
{
	static const char letter[BENCH_NGOALS] = { 'S', 'F', 'W' };
	int k = 0;

	for (int g = 0; g < BENCH_NGOALS; g++)
		if (r->an->reco[g].index == i)
			out[k++] = letter[g];
	out[k] = '\0';
}

#define FLASH_COL 13
/* marks to spread, and the target flash's column, always shown: it is the
 * bandwidth the question was asked for */
#define FIXED_COLS (87 + FLASH_COL)

/* How many flash columns fit in r->width (all with 0). */
static size_t flash_cols(const struct bench_report *r)
{
	size_t fit;

	if (!r->width)
		return r->n_flash;
	fit = r->width > FIXED_COLS ? (r->width - FIXED_COLS) / FLASH_COL : 0;
	return fit < r->n_flash ? fit : r->n_flash;
}

static void header(FILE *out, const struct bench_report *r)
{
	char t[32];

	snprintf(t, sizeof(t), "@%gMB/s", r->an->target_mbps);
	fprintf(out, "%-3s %-16s %5s %10s %7s %7s %7s %6s %6s %5s %5s %12s", "",
		"fs/codec", "block", "image", "ratio", "build", "seq", "spread", "rand", "amp",
		"stat", "target");
	for (size_t f = 0; f < flash_cols(r); f++) {
		char h[32];

		if (r->flash[f].name[0])
			snprintf(h, sizeof(h), "%s", r->flash[f].name);
		else
			snprintf(h, sizeof(h), "@%gMB/s", r->flash[f].mbps);
		fprintf(out, " %12s", h);
	}
	fprintf(out, "\n%-3s %-16s %5s %10s %7s %7s %7s %6s %6s %5s %5s %12s", "", "", "KiB",
		"size", "", "MB/s", "MB/s", "", "us/4K", "x", "us", t);
	for (size_t f = 0; f < flash_cols(r); f++)
		fprintf(out, " %12s", "read MB/s");
	fputc('\n', out);
}

static void row(FILE *out, const struct bench_report *r, size_t i)
{
	const struct bench_result *x = &r->res[i];
	char m[4], sz[32];
	double spread = x->decomp.best > 0 ? 100 * (1 - x->decomp.worst / x->decomp.best) : 0;

	marks(r, i, m);
	if (m[0] && r->color)
		fputs("\033[1m", out);
	fprintf(out, "%-3s %-16s %5u %10s %6.2f%% %7.1f %7.1f %5.1f%% %6.1f %5.1f %5.2f", m,
		x->codec.label, x->block_size >> 10, bench_human_size(x->image_size, sz, sizeof(sz)),
		x->ratio * 100, x->comp.best, x->decomp.best, spread, x->rand_us, x->rand_amp,
		x->stat_us);
	fprintf(out, " %12.2f", bench_model_speed(x->ratio, r->an->target_mbps, x->decomp_target));
	for (size_t f = 0; f < flash_cols(r); f++)
		fprintf(out, " %12.2f",
			bench_model_speed(x->ratio, r->flash[f].mbps, x->decomp_target));
	if (m[0] && r->color)
		fputs("\033[0m", out);
	fputc('\n', out);
}

/* Prints text from column `indent` on, broken at spaces before r->width. */
static void wrapped(FILE *out, const struct bench_report *r, const char *text, size_t col,
		    size_t indent)
{
	size_t width = r->width ? r->width : (size_t)-1;

	while (*text) {
		size_t room = width > col + 10 ? width - col : 10, n = strlen(text), cut = n;

		if (n > room) {
			cut = room;
			while (cut > 0 && text[cut] != ' ')
				cut--;
			if (!cut)
				cut = strcspn(text, " ");
		}
		fprintf(out, "%.*s\n", (int)cut, text);
		text += cut;
		text += strspn(text, " ");
		if (*text)
			fprintf(out, "%*s", (int)indent, "");
		col = indent;
	}
}

static void recommendations(FILE *out, const struct bench_report *r)
{
	static const char *const title[BENCH_NGOALS] = {
		"S smallest image", "F fastest boot read", "W weighted goal" };

	fprintf(out, "\nRecommendations (target flash %.3g MB/s, CPU scale %g, size weight %g):\n",
		r->an->target_mbps, r->an->cpu_scale, r->an->weight);
	for (int g = 0; g < BENCH_NGOALS; g++) {
		const struct bench_result *x = &r->res[r->an->reco[g].index];

		int n = fprintf(out, "  %s%-20s%s %s %uK: ", r->color ? "\033[1m" : "", title[g],
				r->color ? "\033[0m" : "", x->codec.label, x->block_size >> 10);

		wrapped(out, r, r->an->reco[g].why, (size_t)n - (r->color ? 8 : 0), 4);
	}
}

static void break_evens(FILE *out, const struct bench_report *r)
{
	if (!r->an->n_be)
		return;
	fprintf(out, "\nBreak-even flash bandwidths (below it the smaller image reads faster):\n");
	for (size_t k = 0; k < r->an->n_be; k++) {
		const struct bench_break_even *b = &r->an->be[k];

		fprintf(out, "  %-12s %4uK  vs  %-12s %4uK: %10.2f MB/s\n",
			r->res[b->a].codec.label, r->res[b->a].block_size >> 10,
			r->res[b->b].codec.label, r->res[b->b].block_size >> 10, b->flash_mbps);
	}
}

void bench_report_table(FILE *out, const struct bench_report *r)
{
	size_t *ord = bench_sorted(r->res, r->n);
	char sz[32];

	fprintf(out, "Corpus: %zu files, %u directories, %s (%s unique)\n", r->corpus->n_files,
		r->corpus->n_dirs, bench_human_size(r->corpus->data_len, sz, sizeof(sz)),
		bench_human_size(r->corpus->unique_bytes, sz + 16, 16));
	if (r->note)
		fprintf(out, "Codecs: %s.\n", r->note);
	fprintf(out, "Every row is a real image read back by flashfs: build = input MB per second\n"
		     "of its writer; seq = D, a cold sequential read of every file (MB/s per\n"
		     "core, best of passes; spread = how much slower the worst pass was);\n"
		     "rand = CPU us per random 4 KiB read, amp = image bytes fetched per byte\n"
		     "asked with cold caches; stat = us per entry of a stat walk.  read MB/s =\n"
		     "model 1/(r/B + 1/D); target = the read at --target-flash (%g MB/s).\n\n",
		r->an->target_mbps);
	header(out, r);
	for (size_t k = 0; k < r->n; k++)
		row(out, r, ord ? ord[k] : k);
	free(ord);
	if (flash_cols(r) < r->n_flash)
		fprintf(out, "(%zu more flash column%s: --wide shows every column)\n",
			r->n_flash - flash_cols(r), r->n_flash - flash_cols(r) == 1 ? "" : "s");
	recommendations(out, r);
	break_evens(out, r);
}
