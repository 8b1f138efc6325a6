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
	if (has_suffix(path, ".png"))
		return "pngcairo size 1600,700 font \"sans,10\"";
	if (has_suffix(path, ".svg") || has_suffix(path, ".gp"))
		return "svg size 1600,700 dynamic font \"sans,10\"";
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

static void scatter(FILE *g, const struct bench_report *r)
{
	int first = 1;

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
		fprintf(g, " title \"%s\", '-' using 1:2:3 with labels left offset 1,0 "
			   "tc rgb \"%s\" notitle", r->res[i].codec.label,
			family_colour(r->res[i].codec.name));
		first = 0;
	}
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

static void lines(FILE *g, const struct bench_report *r)
{
	uint32_t bs = r->res[r->an->reco[BENCH_GOAL_FASTEST].index].block_size;
	int first = 1;

	fprintf(g, "unset logscale\nunset object\nunset label\nunset arrow\n"
		   "set title \"effective read speed vs flash bandwidth (%u KiB blocks, CPU "
		   "scale %g)\"\nset xlabel \"flash read MB/s\"\nset ylabel \"uncompressed MB/s "
		   "read\"\nset logscale xy\n", bs >> 10, r->an->cpu_scale);
	fprintf(g, "set arrow 1 from %g, graph 0 to %g, graph 1 nohead lw 2 dt 2 lc rgb "
		   "\"black\"\nset label 1 \"target %.3g MB/s\" at %g, graph 0.97 left offset 0.5,0\n",
		r->an->target_mbps, r->an->target_mbps, r->an->target_mbps, r->an->target_mbps);
	picks(g, r, 1);
	fprintf(g, "plot ");
	for (size_t i = 0; i < r->n; i++) {
		if (r->res[i].block_size != bs)
			continue;
		fprintf(g, "%s'-' using 1:2 with lines lw 2 ", first ? "" : ", ");
		style(g, r, i, 0);
		fprintf(g, " title \"%s\", '-' using 1:2:3 with labels left offset 0.5,0 tc rgb "
			   "\"%s\" notitle", r->res[i].codec.label, family_colour(r->res[i].codec.name));
		first = 0;
	}
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

static void script(FILE *g, const struct bench_report *r, const char *term, const char *out)
{
	fprintf(g, "set terminal %s\nset termoption noenhanced\nset output \"%s\"\n"
		   "set multiplot layout 1,2\n", term, out);
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
	if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st))
		return ff_err_set(err, EIO, "%s: gnuplot failed (status %d)%s", path, st,
				  WIFEXITED(st) && WEXITSTATUS(st) == 127 ? ": not installed" : "");
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
