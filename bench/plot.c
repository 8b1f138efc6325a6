/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* --plot: two panels drawn by gnuplot — compressed fraction against
 * decompression speed, and effective read speed against flash bandwidth
 * at the fastest recommendation's block size.  One colour per codec family
 * (gzip, lzo, xz, lz4, zstd, lzma), one marker (and line dash) per setting
 * within it, every setting labelled on the plot itself, the S/F/W picks
 * circled and lettered, and the target flash bandwidth drawn as a line.
 * Ten settings once shared eight colours and one marker, so gzip-9 and
 * zstd-15 looked alike (issue 20).  The data go inline in the script; the
 * picture (.svg, or .png on request) goes into PATH's atomic output
 * (common/outfile.h), linked into place when gnuplot succeeds; a .gp PATH
 * gets the script itself. */
#include "bench/bench.h"
#include "common/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int has_suffix(const char *path, const char *suf)
{
	size_t n = strlen(path), k = strlen(suf);

	return n > k && !strcasecmp(path + n - k, suf);
}

static const char *terminal(const char *path)
{
	/* an opaque white background: a transparent plot loses every label
	 * on a dark viewer */
	if (has_suffix(path, ".png"))
		return "pngcairo size 2400,700 font \"sans,10\" background rgb \"white\"";
	if (has_suffix(path, ".svg") || has_suffix(path, ".gp"))
		return "svg size 2400,700 dynamic font \"sans,10\" background rgb \"white\"";
	return NULL;
}

/* A colour per codec family, fixed so that plots of different runs agree. */
static const char *family_colour(const char *name)
{
	static const char *const fam[][2] = {
		{ "gzip", "#1f77b4" }, { "lzo", "#ff7f0e" }, { "xz", "#2ca02c" },
		{ "lz4", "#d62728" },  { "zstd", "#9467bd" }, { "lzma", "#8c564b" },
	};

	for (size_t i = 0; i < sizeof(fam) / sizeof(fam[0]); i++)
		if (!strcmp(name, fam[i][0]))
			return fam[i][1];
	return "#7f7f7f";
}

/* The first result with i's label (a setting is one series). */
static size_t first_of(const struct bench_report *r, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (!strcmp(r->res[k].codec.label, r->res[i].codec.label))
			return k;
	return i;
}

/* 0, 1, 2... for the settings of one family, in first-seen order. */
static int level_index(const struct bench_report *r, size_t i)
{
	int n = 0;

	i = first_of(r, i);
	for (size_t k = 0; k < i; k++)
		n += first_of(r, k) == k && !strcmp(r->res[k].codec.name, r->res[i].codec.name);
	return n;
}

static int marker(const struct bench_report *r, size_t i)
{
	static const int pt[] = { 7, 5, 9, 11, 13, 15, 4, 6, 8, 10 };

	return pt[level_index(r, i) % 10];
}

/* Colour by family; marker (points) or dash pattern (lines) by setting. */
static void style(FILE *g, const struct bench_report *r, size_t i, int points)
{
	fprintf(g, "lc rgb \"%s\" ", family_colour(r->res[i].codec.name));
	if (points)
		fprintf(g, "pt %d", marker(r, i));
	else
		fprintf(g, "dt %d", level_index(r, i) % 5 + 1);
}

/* Circles and letters on the recommended settings. */
static void picks(FILE *g, const struct bench_report *r, int panel)
{
	static const char letter[BENCH_NGOALS] = { 'S', 'F', 'W' };

	for (int k = 0; k < BENCH_NGOALS; k++) {
		const struct bench_result *x = &r->res[r->an->reco[k].index];
		double px = panel ? r->an->target_mbps : x->ratio * 100;
		double py = panel ? bench_model_speed(x->ratio, r->an->target_mbps, x->decomp_target)
				  : x->decomp.best;

		if (px <= 0 || py <= 0)
			continue;
		fprintf(g, "set object %d circle at %g,%g size screen 0.012 fs empty border lc rgb "
			   "\"black\" lw 2 front\n", 10 + k, px, py);
		fprintf(g, "set label %d \"%c\" at %g,%g offset %d,1.2 font \",13\" front\n",
			10 + k, letter[k], px, py, -1 + k);
	}
}

/* Label placement.  Labels at (x, y), fractions of the plot's width and
 * height, each get a vertical offset in text lines so that no two that
 * share a column (closer than LABEL_W across) overprint: from the top
 * down, each is pushed below any placed label it would touch.  gzip-6,
 * -9, -10 and -12 sit almost on one point; their names now stack. */
#define LABEL_H 0.028 /* a 10-point text line and a gap, of the 600-pixel plot area
		       * of a 700-pixel panel */
#define LABEL_W 0.2   /* a label's width, about, of the panel's plot width */
#define MAX_LABELS 128

static int touches(double xa, double ya, double xb, double yb)
{
	return fabs(xa - xb) < LABEL_W && fabs(ya - yb) < LABEL_H * 0.999;
}

static void spread_labels(const double *x, const double *y, size_t n, double *lines)
{
	size_t ord[MAX_LABELS];
	double placed[MAX_LABELS];

	n = n < MAX_LABELS ? n : MAX_LABELS;
	for (size_t i = 0; i < n; i++) { /* by height, the highest first */
		size_t k = i;

		for (; k > 0 && y[ord[k - 1]] < y[i]; k--)
			ord[k] = ord[k - 1];
		ord[k] = i;
	}
	for (size_t a = 0; a < n; a++) {
		size_t i = ord[a];
		double yy = y[i];

		for (size_t b = 0, moves = 0; b < a && moves <= n; b++)
			if (touches(x[i], yy, x[ord[b]], placed[b])) {
				yy = placed[b] - LABEL_H;
				b = (size_t)-1; /* look again from the top */
				moves++;
			}
		placed[a] = yy;
		lines[i] = yy - y[i]; /* "offset ..., graph" units */
	}
}

/* Spreads the n labels at (x, y) and gives each series its offset:
 * lines[at[k]] for label k, 0 for a series without a label; lines has
 * room for r->n + n (the tail is scratch). */
static void spread_to_series(const struct bench_report *r, const double *x, const double *y,
			     const size_t *at, size_t n, double *lines)
{
	spread_labels(x, y, n, lines + r->n);
	for (size_t k = 0; k < r->n; k++)
		lines[k] = 0;
	for (size_t k = 0; k < n; k++)
		lines[at[k]] = lines[r->n + k];
}

/* v's place in [lo, hi], 0..1 (0.5 when the range is empty). */
static double frac(double v, double lo, double hi)
{
	return hi > lo ? (v - lo) / (hi - lo) : 0.5;
}

/* Axis ranges set in the script, so that a label's place as a fraction
 * of the plot is known here: whole decades on a log axis, multiples of 5
 * on the size axis. */
struct ranges {
	double lo_x, hi_x, lo_y, hi_y; /* y: log10 */
};

static void decades(double *lo, double *hi)
{
	*lo = floor(*lo);
	*hi = ceil(*hi);
	*hi += *hi <= *lo;
}

/* The scatter's labels (one per setting, at its last block size): offsets. */
static void scatter_offsets(const struct bench_report *r, struct ranges *rg, double *lines)
{
	double x[MAX_LABELS] = { 0 }, y[MAX_LABELS] = { 0 }, lo_x = INFINITY, hi_x = -INFINITY;
	double lo_y = INFINITY, hi_y = -INFINITY;
	size_t n = 0, at[MAX_LABELS];

	for (size_t i = 0; i < r->n; i++) {
		double px = r->res[i].ratio * 100, py = log10(fmax(r->res[i].decomp.best, 1e-9));

		lo_x = fmin(lo_x, px), hi_x = fmax(hi_x, px), lo_y = fmin(lo_y, py);
		hi_y = fmax(hi_y, py);
	}
	lo_x = floor(lo_x / 5) * 5;
	hi_x = fmax(ceil(hi_x / 5) * 5, lo_x + 5);
	decades(&lo_y, &hi_y);
	*rg = (struct ranges){ lo_x, hi_x, lo_y, hi_y };
	for (size_t i = 0; i < r->n && n < MAX_LABELS; i++) {
		size_t last = i;

		if (first_of(r, i) != i)
			continue;
		for (size_t k = i; k < r->n; k++)
			last = first_of(r, k) == i ? k : last;
		x[n] = frac(r->res[last].ratio * 100, lo_x, hi_x);
		y[n] = frac(log10(fmax(r->res[last].decomp.best, 1e-9)), lo_y, hi_y);
		at[n++] = i;
	}
	spread_to_series(r, x, y, at, n, lines);
}

/* A series' key title, then the label at its last point, moved up by off
 * (graph units) so that labels do not overlap; dx is gnuplot's character
 * offset to the right of the point. */
static void title_and_label(FILE *g, const struct bench_report *r, size_t i, const char *dx,
			    double off)
{
	fprintf(g, " title \"%s\", '-' using 1:2:3 with labels left offset character %s, graph "
		   "%.4f tc rgb \"%s\" notitle", r->res[i].codec.label, dx, off,
		family_colour(r->res[i].codec.name));
}

static void scatter(FILE *g, const struct bench_report *r)
{
	double *off = calloc(2 * r->n + 1, sizeof(*off));
	struct ranges rg;
	int first = 1;

	if (off) {
		scatter_offsets(r, &rg, off);
		fprintf(g, "set xrange [%g:%g]\nset yrange [%g:%g]\n", rg.lo_x, rg.hi_x,
			pow(10, rg.lo_y), pow(10, rg.hi_y));
	}

	fprintf(g, "set title \"compressed size vs decompression speed (per core; S/F/W: "
		   "recommended; bigger marker = bigger block)\"\n"
		   "set xlabel \"image size / tree size (%%)\"\nset ylabel \"decompression MB/s\"\n"
		   "set logscale y\nset key outside right top\nset grid\n");
	picks(g, r, 0);
	fprintf(g, "plot ");
	for (size_t i = 0; i < r->n; i++) {
		if (first_of(r, i) != i)
			continue;
		fprintf(g, "%s'-' using 1:2:3 with linespoints lw 1 ps variable ", first ? "" : ", ");
		style(g, r, i, 1);
		title_and_label(g, r, i, "1", off ? off[i] : 0.0);
		first = 0;
	}
	free(off);
	fputc('\n', g);
	for (size_t i = 0; i < r->n; i++) {
		size_t last = i;

		if (first_of(r, i) != i)
			continue;
		for (size_t k = i; k < r->n; k++) {
			if (first_of(r, k) != i)
				continue;
			fprintf(g, "%.4f %.4f %.2f\n", r->res[k].ratio * 100, r->res[k].decomp.best,
				0.6 + 0.25 * log2((double)r->res[k].block_size / 65536 + 1));
			last = k;
		}
		fprintf(g, "e\n%.4f %.4f \"%s %uK\"\ne\n", r->res[last].ratio * 100,
			r->res[last].decomp.best, r->res[last].codec.label,
			r->res[last].block_size >> 10);
	}
}

/* The curves' labels, all at the right end (1024 MB/s): offsets, so that
 * settings reading alike there stack instead of overprinting. */
static void lines_offsets(const struct bench_report *r, uint32_t bs, struct ranges *rg,
			  double *lines)
{
	double x[MAX_LABELS] = { 0 }, y[MAX_LABELS] = { 0 }, lo = INFINITY, hi = -INFINITY;
	size_t n = 0, at[MAX_LABELS];

	for (size_t i = 0; i < r->n; i++) {
		if (r->res[i].block_size != bs)
			continue;
		/* the curve's points, then its label's at 1024, which the last
		 * point (974) stops short of */
		for (double b = 0.25; b <= 1024 * 1.25; b *= 1.25) {
			double v = log10(bench_model_speed(r->res[i].ratio, fmin(b, 1024),
							   r->res[i].decomp_target));

			lo = fmin(lo, v), hi = fmax(hi, v);
		}
	}
	decades(&lo, &hi);
	rg->lo_y = lo;
	rg->hi_y = hi;
	for (size_t i = 0; i < r->n && n < MAX_LABELS; i++) {
		if (r->res[i].block_size != bs)
			continue;
		x[n] = 1;
		y[n] = frac(log10(bench_model_speed(r->res[i].ratio, 1024,
						    r->res[i].decomp_target)), lo, hi);
		at[n++] = i;
	}
	spread_to_series(r, x, y, at, n, lines);
}

static void lines(FILE *g, const struct bench_report *r)
{
	uint32_t bs = r->res[r->an->reco[BENCH_GOAL_FASTEST].index].block_size;
	double *off = calloc(2 * r->n + 1, sizeof(*off));
	struct ranges rg;
	int first = 1;

	if (off)
		lines_offsets(r, bs, &rg, off);
	fprintf(g, "unset logscale\nunset object\nunset label\nunset arrow\n"
		   "set autoscale\n"
		   "set title \"effective read speed vs flash bandwidth (%u KiB blocks, CPU "
		   "scale %g)\"\nset xlabel \"flash read MB/s\"\nset ylabel \"uncompressed MB/s "
		   "read\"\nset logscale xy\n", bs >> 10, r->an->cpu_scale);
	fprintf(g, "set arrow 1 from %g, graph 0 to %g, graph 1 nohead lw 2 dt 2 lc rgb "
		   "\"black\"\nset label 1 \"target %.3g MB/s\" at %g, graph 0.97 left offset 0.5,0\n",
		r->an->target_mbps, r->an->target_mbps, r->an->target_mbps, r->an->target_mbps);
	if (off)
		fprintf(g, "set xrange [0.1:10000]\nset yrange [%g:%g]\n", pow(10, rg.lo_y),
			pow(10, rg.hi_y));
	picks(g, r, 1);
	fprintf(g, "plot ");
	for (size_t i = 0; i < r->n; i++) {
		if (r->res[i].block_size != bs)
			continue;
		fprintf(g, "%s'-' using 1:2 with lines lw 2 ", first ? "" : ", ");
		style(g, r, i, 0);
		title_and_label(g, r, i, "0.5", off ? off[i] : 0.0);
		first = 0;
	}
	free(off);
	fputc('\n', g);
	for (size_t i = 0; i < r->n; i++) {
		if (r->res[i].block_size != bs)
			continue;
		for (double b = 0.25; b <= 1024; b *= 1.25)
			fprintf(g, "%.4f %.4f\n", b,
				bench_model_speed(r->res[i].ratio, b, r->res[i].decomp_target));
		fprintf(g, "e\n1024 %.4f \"%s\"\ne\n",
			bench_model_speed(r->res[i].ratio, 1024, r->res[i].decomp_target),
			r->res[i].codec.label);
	}
}

/* The question the bench answers, first: how much longer than the best
 * setting each one takes to read the tree at the target bandwidth, its
 * image size beside it.  The quickest ANSWER_ROWS settings, best on top. */
#define ANSWER_ROWS 30

static double target_time(const struct bench_report *r, size_t i)
{
	return bench_model_time(r->res[i].ratio, r->an->target_mbps, r->res[i].decomp_target);
}

static void answer(FILE *g, const struct bench_report *r)
{
	size_t ord[ANSWER_ROWS], n = 0;
	double best;

	for (size_t i = 0; i < r->n; i++) { /* the quickest, in order */
		size_t k = n < ANSWER_ROWS ? n++ : n;

		for (; k > 0 && target_time(r, ord[k - 1]) > target_time(r, i); k--)
			if (k < ANSWER_ROWS)
				ord[k] = ord[k - 1];
		if (k < ANSWER_ROWS)
			ord[k] = i;
	}
	best = n ? target_time(r, ord[0]) : 1;
	fprintf(g, "set title \"read time at the target flash (%.3g MB/s) / the best's; image "
		   "size beside\"\nset xlabel \"read time / best (1 = best)\"\nunset ylabel\n"
		   "set style fill solid 0.6 border -1\nset yrange [%zu.5:0.5]\nset xrange [0:*]\n"
		   "set grid x\nset ytics (", r->an->target_mbps, n);
	for (size_t k = 0; k < n; k++)
		fprintf(g, "%s\"%s %uK\" %zu", k ? ", " : "", r->res[ord[k]].codec.label,
			r->res[ord[k]].block_size >> 10, k + 1);
	fprintf(g, ") font \",9\"\nset offsets 0, graph 0.25, 0, 0\n"
		   "plot '-' using ($1/2):2:($1/2):(0.35):3 with boxxyerror lc rgb variable "
		   "notitle, '-' using 1:2:4 with labels left offset 0.5,0 font \",9\" notitle\n");
	for (int pass = 0; pass < 2; pass++) {
		for (size_t k = 0; k < n; k++) {
			const struct bench_result *x = &r->res[ord[k]];
			unsigned rgb = (unsigned)strtoul(family_colour(x->codec.name) + 1, NULL, 16);

			fprintf(g, "%.4f %zu %u \"%.1f%%, %.1f MB/s\"\n", target_time(r, ord[k]) / best,
				k + 1, rgb, x->ratio * 100, 1.0 / target_time(r, ord[k]));
		}
		fprintf(g, "e\n");
	}
	fprintf(g, "unset offsets\nunset grid\nset ytics auto\nset ytics font \",10\"\n"
		   "unset style fill\nset autoscale\n");
}

static void script(FILE *g, const struct bench_report *r, const char *term, const char *out)
{
	fprintf(g, "set terminal %s\nset termoption noenhanced\nset output \"%s\"\n"
		   "set multiplot layout 1,3\n", term, out);
	answer(g, r);
	scatter(g, r);
	lines(g, r);
	fprintf(g, "unset multiplot\nset output\n");
}

/* gnuplot writes the plot through an inherited descriptor of our output
 * (common/outfile.h: an unnamed file until commit), so a killed bench
 * leaves no half-written plot and no temporary. */
static int run_gnuplot(const struct bench_report *r, const char *term, int fd, const char *path,
		       struct ff_err *err)
{
	char out[32];
	FILE *g;
	int st;

	g = popen("gnuplot", "w");
	if (!g)
		return ff_err_sys(err, errno, "%s: cannot run gnuplot", path);
	snprintf(out, sizeof(out), "/dev/fd/%d", fd);
	script(g, r, term, out);
	st = pclose(g);
	if (st == -1)
		return ff_err_sys(err, errno, "%s: gnuplot", path);
	if (WIFSIGNALED(st))
		return ff_err_set(err, EIO, "%s: gnuplot was killed by signal %d", path,
				  WTERMSIG(st));
	if (WEXITSTATUS(st) == 127)
		return ff_err_set(err, ENOENT, "%s: gnuplot is not installed", path);
	if (WEXITSTATUS(st))
		return ff_err_set(err, EIO, "%s: gnuplot failed with exit status %d (its message "
				  "is above)", path, WEXITSTATUS(st));
	return 0;
}

/* A .gp PATH: the script itself, drawing to bench.svg when run. */
static int write_script(const struct bench_report *r, const char *term, int fd, const char *path,
			struct ff_err *err)
{
	FILE *g = fdopen(fd, "w");

	if (!g) {
		close(fd);
		return ff_err_sys(err, errno, "%s", path);
	}
	script(g, r, term, "bench.svg");
	if (fclose(g))
		return ff_err_sys(err, errno, "%s", path);
	return 0;
}

/* gnuplot on PATH, as popen's shell would find it. */
static int have_gnuplot(void)
{
	const char *path = getenv("PATH");
	char file[4096];

	while (path && *path) {
		size_t len = strcspn(path, ":");

		if (snprintf(file, sizeof(file), "%.*s/gnuplot", (int)len, len ? path : ".") <
			    (int)sizeof(file) && access(file, X_OK) == 0)
			return 1;
		path += len + (path[len] == ':');
	}
	return 0;
}

int bench_plot_check(const char *path, struct ff_err *err)
{
	if (!terminal(path))
		return ff_err_set(err, EINVAL, "%s: plot name must end in .svg, .png or .gp", path);
	if (!has_suffix(path, ".gp") && !have_gnuplot())
		return ff_err_set(err, ENOENT, "%s: gnuplot is not installed (apt-get install "
				  "gnuplot-nox), or write the script with --plot FILE.gp", path);
	return 0;
}

int bench_plot(const struct bench_report *r, const char *path, struct ff_err *err)
{
	const char *term = terminal(path);
	struct ff_outfile of;
	int fd, ret;

	if (!term)
		return ff_err_set(err, EINVAL, "%s: plot name must end in .svg, .png or .gp", path);
	if (ff_outfile_open(&of, path, err))
		return -1;
	/* a copy without O_CLOEXEC, for gnuplot to inherit */
	fd = fcntl(of.fd, F_DUPFD, 3);
	if (fd < 0)
		ret = ff_err_sys(err, errno, "%s", path);
	else if (has_suffix(path, ".gp"))
		ret = write_script(r, term, fd, path, err);
	else {
		ret = run_gnuplot(r, term, fd, path, err);
		close(fd);
	}
	if (!ret)
		return ff_outfile_commit(&of, err);
	ff_outfile_abort(&of);
	return ret;
}
