/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* flashfs bench: build real images of a corpus for every file system the
 * registry can build (file system × block size × codec × layout variant),
 * read them back, model flash reads, recommend, and report (table, CSV,
 * JSON, plot).  It names no format: bench/ asks the registry.  This file is the
 * thin main: the run loop, printing and exit codes (the options are
 * bench_args.c's). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "bench/bench.h"
#include "common/outfile.h"
#include "common/progress.h"
#include "common/size.h"
#include "flashfs/bench_args.h"
#include "flashfs/commands.h"
#include "tree/build.h"

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

static int cmp_base(const void *a, const void *b)
{
	return strcmp(base_name(*(char *const *)a), base_name(*(char *const *)b));
}

/* Several sources become directories under the root, which mkfs lists
 * sorted by name: add them in that order. */
static int load_corpus(struct bench_corpus **out, char **src, int n)
{
	struct ff_err e = { 0 };
	struct bench_corpus *c = bench_corpus_new(&e);

	qsort(src, (size_t)n, sizeof(*src), cmp_base);
	for (int i = 0; c && i < n; i++) {
		if (bench_corpus_add(c, src[i], n == 1, &e)) {
			bench_corpus_free(c);
			c = NULL;
		}
	}
	if (c && bench_corpus_finish(c, &e)) {
		bench_corpus_free(c);
		c = NULL;
	}
	if (!c) {
		fprintf(stderr, "flashfs bench: %s\n", e.msg);
		return -1;
	}
	*out = c;
	return 0;
}

/* Without -c: the default set, its xz+bcj filter the corpus' machine.
 * Returns 1 (go on). */
static int default_codecs(struct bench_cfg *c, const struct bench_corpus *corpus)
{
	const char *bcj;

	if (c->n_codecs)
		return 1;
	bcj = bench_corpus_bcj(corpus, c->note, sizeof(c->note));
	c->n_codecs = c->quick ? bench_codec_quick(c->codecs, MAX_CODECS, bcj)
			       : bench_codec_defaults(c->codecs, MAX_CODECS, bcj);
	return 1;
}

static void on_warn(void *ctx, const struct ff_warning *w)
{
	char line[1536];

	(void)ctx;
	fprintf(stderr, "\nflashfs bench: skipped: %s\n", ff_warning_text(w, line, sizeof(line)));
}

static void on_progress(void *ctx, uint64_t bytes, uint64_t total)
{
	(void)total; /* set once by measure_all, with the number of runs */
	ff_progress_add(ctx, bytes, 1);
}

static int make_work_dir(const struct bench_cfg *c, char *buf, size_t cap)
{
	if (c->work_dir) {
		snprintf(buf, cap, "%s", c->work_dir);
		if (mkdir(buf, 0755) && errno != EEXIST)
			return bench_bad("--work-dir", buf, strerror(errno));
		return 0;
	}
	snprintf(buf, cap, "%s/flashfs-bench.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	return mkdtemp(buf) ? 0 : bench_bad("work directory", buf, strerror(errno));
}

/* SOURCE_DATE_EPOCH: the images' time, as the builders take it. */
static int64_t image_time(void)
{
	const char *v = getenv("SOURCE_DATE_EPOCH");
	char *end;
	long long t;

	if (!v || !*v)
		return -1;
	errno = 0;
	t = strtoll(v, &end, 10);
	return errno || *end || t < 0 ? -1 : (int64_t)t;
}

/* --flash-type, else the target preset's storage; a plain number: a block device. */
static unsigned run_medium(const struct bench_cfg *c)
{
	return c->medium ? c->medium : c->target.medium ? c->target.medium : FF_MEDIUM_BLOCK;
}

static int measure_all(const struct bench_cfg *c, const struct bench_corpus *corpus,
		       const char *work, struct bench_run *run)
{
	struct bench_run_opts o = {
		.codecs = c->codecs, .n_codecs = c->n_codecs, .block_sizes = c->block_sizes,
		.n_block_sizes = c->n_bs, .measure = c->measure,
		.fs = c->fs, .n_fs = c->n_fs, .flags = c->flags, .n_flags = c->n_flags,
		.no_variants = c->quick,
		.medium = run_medium(c),
		.erase_block = c->erase_block, .page_size = c->page_size,
		.flash_size = c->flash_size,
		.time = image_time(), .work_dir = work, .keep_images = c->work_dir || c->e2e,
		.warn = on_warn, .self_check = c->self_check,
		/* a tenth of --min-time per side and round: the 15 pairs of
		 * both phases take about six times --min-time, more for a codec
		 * whose one pass is longer */
		.check = { .round_time = c->measure.min_time / 10, .slow_direct = c->slow_direct },
	};
	struct ff_progress *p = ff_progress_new(STDERR_FILENO, "runs", 0);
	struct ff_err e = { 0 };
	int rc;

	if (p && c->progress) {
		size_t n = bench_run_count(corpus, &o);

		ff_progress_set_total(p, corpus->unique_bytes * n, n);
		o.progress = on_progress;
		o.ctx = p;
	}
	rc = bench_run(corpus, &o, run, &e);
	if (p && c->progress)
		ff_progress_finish(p);
	ff_progress_free(p);
	if (rc)
		fprintf(stderr, "flashfs bench: %s\n", e.msg);
	return rc;
}

/* An existing path that is not a regular file (/dev/null, a FIFO): renaming
 * a temporary over it would replace the device, so it is written in place. */
static int is_special(const char *path)
{
	struct stat st;

	return !stat(path, &st) && !S_ISREG(st.st_mode);
}

static int write_special(const char *path, const struct bench_report *r,
			 void (*emit)(FILE *, const struct bench_report *))
{
	FILE *f = fopen(path, "w");

	if (!f)
		return bench_bad("output", path, strerror(errno));
	emit(f, r);
	return fclose(f) ? bench_bad("output", path, strerror(errno)) : 0;
}

/* Writes what `emit` prints to PATH atomically, or to stdout for "-". */
static int write_output(const char *path, const struct bench_report *r,
			void (*emit)(FILE *, const struct bench_report *))
{
	struct ff_outfile of;
	struct ff_err e = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	if (!strcmp(path, "-")) {
		emit(stdout, r);
		return 0;
	}
	if (is_special(path))
		return write_special(path, r, emit);
	m = open_memstream(&buf, &len);
	if (!m)
		return bench_bad("output", path, "out of memory");
	emit(m, r);
	fclose(m);
	if (ff_outfile_open(&of, path, &e) || ff_outfile_write(&of, buf, len, &e) ||
	    ff_outfile_commit(&of, &e)) {
		ff_outfile_abort(&of);
		free(buf);
		fprintf(stderr, "flashfs bench: %s\n", e.msg);
		return -1;
	}
	free(buf);
	return 0;
}

/* The table fits the terminal, or 100 columns in a file or pipe. */
static unsigned table_width(int wide)
{
	struct winsize ws;

	if (wide)
		return 0;
	if (isatty(STDOUT_FILENO) && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col >= 40)
		return ws.ws_col;
	return 100;
}

static void self_check_line(const struct bench_result *x, const char *phase,
			    const struct bench_paired *p)
{
	printf("  %-12s %5uK %-6s %9.1f %9.1f %6.3f  %6.3f..%-6.3f %4ux%-3u %s\n",
	       x->codec.label, x->block_size >> 10, phase, p->harness_mbps, p->direct_mbps,
	       p->ratio.median, p->ratio.lo, p->ratio.hi, p->rounds, p->passes_per_round,
	       bench_verdict_name(p->verdict));
}

static int self_check_report(const struct bench_report *r)
{
	int bad = 0;

	printf("\nSelf-check: the harness against a plain one-thread library loop, both on one\n"
	       "CPU by turns, in pairs of interleaved measurements (rounds x passes: each\n"
	       "figure the best of its passes; MB/s: the medians of the pairs).\n"
	       "ratio = harness / direct speed per pair: the median and its distribution-free\n"
	       "%.0f%% interval.  agree: the interval within %.2f..%.2f; DIFFERS: wholly\n"
	       "outside %.2f..%.2f; inconclusive: between (noise, or a gap this shared\n"
	       "machine can make alone).\n"
	       "  %-12s %6s %-6s %9s %9s %6s  %-14s %-8s %s\n",
	       100 * BENCH_SELFCHECK_LEVEL, 1 - BENCH_SELFCHECK_BAND, 1 + BENCH_SELFCHECK_BAND,
	       1 / BENCH_SELFCHECK_DIFFERS, BENCH_SELFCHECK_DIFFERS,
	       "codec", "block", "phase", "harness", "direct", "ratio", "interval", "pairs",
	       "verdict");
	for (size_t i = 0; i < r->n; i++) {
		self_check_line(&r->res[i], "comp", &r->sc[i].comp);
		self_check_line(&r->res[i], "decomp", &r->sc[i].decomp);
		bad |= r->sc[i].comp.verdict == BENCH_DIFFERS ||
		       r->sc[i].decomp.verdict == BENCH_DIFFERS;
	}
	printf("\nKernel mounts: each image loop-mounted read-only in the host kernel and read\n"
	       "cold, against flashfs' own sequential pass (file bytes must agree).\n");
	for (size_t i = 0; i < r->n; i++) {
		const struct bench_kernel_check *k = &r->sc[i].kernel;
		const struct bench_result *x = &r->res[i];

		if (k->ran)
			printf("  %-16s %5uK: kernel %llu bytes in %.3f s, ours %.3f s: %s%s%s\n",
			       x->codec.label, x->block_size >> 10, (unsigned long long)k->bytes,
			       k->kernel_s, k->ours_s, k->same ? "same bytes" : "DIFFERS",
			       k->note[0] ? "; " : "", k->note);
		else
			printf("  %-16s %5uK: not run (%s)\n", x->codec.label, x->block_size >> 10,
			       k->note);
		bad |= k->ran && !k->same;
	}
	return bad;
}

static int outputs(const struct bench_cfg *c, const struct bench_report *r)
{
	int rc = 0;
	struct ff_err e = { 0 };

	if (!c->quiet)
		bench_report_table(stdout, r);
	if (c->csv)
		rc |= write_output(c->csv, r, bench_report_csv);
	if (c->json)
		rc |= write_output(c->json, r, bench_report_json);
	if (c->plot && bench_plot(r, c->plot, &e)) {
		fprintf(stderr, "flashfs bench: %s\n", e.msg);
		rc = -1;
	}
	return rc;
}


static void bin_dir(char *buf, size_t cap)
{
	ssize_t n = readlink("/proc/self/exe", buf, cap - 1);
	char *slash;

	buf[n > 0 ? n : 0] = '\0';
	slash = strrchr(buf, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(buf, cap, ".");
}

/* The source tree holding nandsim-tests/: $FF_TOP, else above the
 * program (build/bin or build/NAME/bin), else the working directory. */
static const char *find_top(const char *bin, char *buf, size_t cap)
{
	static const char *const up[] = { "/../..", "/../../.." };
	char probe[4300];

	if (getenv("FF_TOP"))
		return getenv("FF_TOP");
	for (size_t i = 0; i < 2; i++) {
		snprintf(buf, cap, "%s%s", bin, up[i]);
		snprintf(probe, sizeof(probe), "%s/nandsim-tests/run-guest.sh", buf);
		if (!access(probe, X_OK))
			return buf;
	}
	return ".";
}

static int earlier_goal(const struct bench_analysis *an, int g)
{
	for (int k = 0; k < g; k++)
		if (an->reco[k].index == an->reco[g].index)
			return k;
	return -1;
}

/* --e2e and --nandsim for each recommendation. */
static int end_to_end(const struct bench_cfg *c, struct bench_report *r, char **src, int n_src,
		      struct bench_e2e *e2e, struct bench_nandsim *ns)
{
	const char *work = c->work;
	char bin[4096], top[4200];
	struct bench_e2e_opts eo = { .bin_dir = bin, .sources = (const char *const *)src,
				     .n_sources = (size_t)n_src, .work_dir = work,
				     .threads = c->measure.threads };
	struct bench_nandsim_opts no = { .bin_dir = bin, .work_dir = work, .image_dir = work,
					    .page_size = c->page_size, .erase_block = c->erase_block };
	int rc = 0;

	bin_dir(bin, sizeof(bin));
	no.top = find_top(bin, top, sizeof(top));
	for (int g = 0; g < BENCH_NGOALS; g++) {
		struct ff_err e = { 0 };
		const struct bench_result *res = &r->res[r->an->reco[g].index];
		int same = earlier_goal(r->an, g);

		if (same >= 0) {
			/* one setting won several goals: measured once */
			e2e[g] = e2e[same];
			ns[g] = ns[same];
			continue;
		}
		if (bench_e2e_run(&eo, res, &e2e[g], &e)) {
			fprintf(stderr, "flashfs bench: e2e %s: %s\n", res->codec.label, e.msg);
			rc = -1;
			continue;
		}
		if (c->nandsim &&
		    bench_nandsim_run(&no, res, r->an, &e2e[g], &ns[g], &e)) {
			fprintf(stderr, "flashfs bench: nandsim %s: %s\n", res->codec.label, e.msg);
			rc = -1;
		}
	}
	r->e2e = e2e;
	r->ns = c->nandsim ? ns : NULL;
	if (!c->quiet)
		printf("Images and end-to-end files are in %s\n", work);
	return rc;
}

static void e2e_report(const struct bench_report *r)
{
	printf("\nEnd to end (recommended settings, real images):\n");
	for (int g = 0; g < BENCH_NGOALS; g++) {
		const struct bench_e2e *e = &r->e2e[g];
		const struct bench_result *x = &r->res[r->an->reco[g].index];

		if (!e->valid)
			continue;
		printf("  %-9s %-22s %4uK: built in %.2f s, image %llu B", bench_goal_name(g),
		       x->codec.label, x->block_size >> 10, e->mkfs_s,
		       (unsigned long long)e->image_size);
		if (e->fuse_read_s >= 0)
			printf(", FUSE read %.3f s", e->fuse_read_s);
		if (e->kernel_read_s >= 0)
			printf(", kernel read %.3f s", e->kernel_read_s);
		printf("%s%s\n", e->note[0] ? "; " : "", e->note);
		if (r->ns && r->ns[g].valid)
			printf("            nandsim at %.2f MB/s: measured %.3f s (no delays %.3f s), "
			       "model %.3f s, guest/host speed %.3f%s%s\n",
			       r->ns[g].flash_mbps, r->ns[g].measured_s, r->ns[g].measured_nodelay_s,
			       r->ns[g].predicted_s, r->ns[g].guest_factor,
			       r->ns[g].note[0] ? "; " : "", r->ns[g].note);
	}
}

static int bench_finish(const struct bench_cfg *c, const struct bench_corpus *corpus, char **src,
			int n_src, struct bench_run *run, const struct bench_analysis *an)
{
	struct bench_e2e e2e[BENCH_NGOALS] = { 0 };
	struct bench_nandsim ns[BENCH_NGOALS] = { 0 };
	struct bench_report r = {
		.corpus = corpus, .sources = (const char *const *)src, .n_sources = (size_t)n_src,
		.res = run->res, .n = run->n, .an = an, .flash = c->flash, .n_flash = c->n_flash,
		.mo = &c->measure, .sc = c->self_check ? run->sc : NULL, .color = c->color,
		.width = table_width(c->wide), .note = c->note[0] ? c->note : NULL,
		.medium = run_medium(c),
	};
	int problems = run->failed > 0;

	if (c->e2e && end_to_end(c, &r, src, n_src, e2e, ns))
		problems = 1;
	if (outputs(c, &r))
		return 2;
	if (r.e2e && !c->quiet)
		e2e_report(&r);
	if (r.sc && self_check_report(&r))
		problems = 1;
	return problems;
}

static int cmd_bench(int argc, char **argv)
{
	struct bench_cfg *c = malloc(sizeof(*c));
	struct bench_corpus *corpus = NULL;
	struct bench_run run = { 0 };
	struct bench_analysis an = { 0 };
	struct ff_err e = { 0 };
	int first, rc = 2;

	if (!c)
		return 2;
	first = bench_parse_args(c, argc, argv);
	if (first < 0) {
		bench_usage(first == -2 ? stdout : stderr);
		free(c);
		return first == -2 ? 0 : 2;
	}
	if (c->plot && bench_plot_check(c->plot, &e)) { /* before a run of minutes */
		fprintf(stderr, "flashfs bench: --plot: %s\n", e.msg);
		free(c);
		return 2;
	}
	if (!load_corpus(&corpus, argv + first, argc - first) && default_codecs(c, corpus) &&
	    !make_work_dir(c, c->work, sizeof(c->work)) && !measure_all(c, corpus, c->work, &run)) {
		an.cpu_scale = c->cpu_scale;
		an.target_mbps = c->target.mbps;
		an.weight = c->weight;
		if (bench_analyse(run.res, run.n, &an, &e)) {
			fprintf(stderr, "flashfs bench: %s\n", e.msg);
		} else {
			rc = bench_finish(c, corpus, argv + first, argc - first, &run, &an);
		}
	}
	if (c->work[0] && !c->work_dir && !c->e2e)
		rmdir(c->work);   /* its images were deleted once measured */
	bench_analysis_free(&an);
	bench_run_free(&run);
	bench_corpus_free(corpus);
	free(c);
	return rc;
}

const struct ff_command ff_command_bench = {"bench", cmd_bench,
	"measure codecs and recommend one"};
