/* --plot: two panels drawn by gnuplot — compressed fraction against
 * decompression speed (one point series per codec), and effective read
 * speed against flash bandwidth (one line per setting at the fastest
 * recommendation's block size).  The data go inline in the script, the
 * picture into PATH's atomic output (common/outfile.h), linked into place
 * when gnuplot succeeds. */
#include "bench/bench.h"
#include "common/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *terminal(const char *path)
{
	size_t n = strlen(path);

	if (n > 4 && !strcasecmp(path + n - 4, ".png"))
		return "pngcairo size 1400,600 font \"sans,10\"";
	if (n > 4 && !strcasecmp(path + n - 4, ".svg"))
		return "svg size 1400,600 dynamic font \"sans,10\"";
	return NULL;
}

/* Same colour for a codec setting, a point shape per block size. */
static int colour_of(const struct bench_report *r, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (!strcmp(r->res[k].codec.label, r->res[i].codec.label))
			return colour_of(r, k);
	return (int)i + 1;
}

static int shape_of(uint32_t block_size)
{
	static const int filled[] = { 7, 5, 9, 11, 13, 15, 4, 6, 8, 10 };
	int log = 0;

	while ((1u << log) < block_size)
		log++;
	return filled[(log - 12 + 10) % 10];
}

static void scatter(FILE *g, const struct bench_report *r)
{
	fprintf(g, "set title \"compressed size vs decompression speed (per core)\"\n"
		   "set xlabel \"image size / tree size (%%)\"\nset ylabel \"decompression MB/s\"\n"
		   "set logscale y\nset key outside right top\nset grid\n");
	fprintf(g, "plot ");
	for (size_t i = 0; i < r->n; i++) {
		fprintf(g, "%s'-' using 1:2 with points lc %d pt %d ps 1.4 title \"%s %uK\"",
			i ? ", " : "", colour_of(r, i), shape_of(r->res[i].block_size),
			r->res[i].codec.label, r->res[i].block_size >> 10);
	}
	fputc('\n', g);
	for (size_t i = 0; i < r->n; i++)
		fprintf(g, "%.4f %.4f\ne\n", r->res[i].ratio * 100, r->res[i].decomp.best);
}

static void lines(FILE *g, const struct bench_report *r)
{
	uint32_t bs = r->res[r->an->reco[BENCH_GOAL_FASTEST].index].block_size;
	int first = 1;

	fprintf(g, "unset logscale\nset title \"effective read speed vs flash bandwidth "
		   "(%u KiB blocks, CPU scale %g)\"\n"
		   "set xlabel \"flash read MB/s\"\nset ylabel \"uncompressed MB/s read\"\n"
		   "set logscale xy\n", bs >> 10, r->an->cpu_scale);
	fprintf(g, "plot ");
	for (size_t i = 0; i < r->n; i++) {
		if (r->res[i].block_size != bs)
			continue;
		fprintf(g, "%s'-' using 1:2 with lines lw 2 lc %d title \"%s\"", first ? "" : ", ",
			colour_of(r, i), r->res[i].codec.label);
		first = 0;
	}
	fputc('\n', g);
	for (size_t i = 0; i < r->n; i++) {
		if (r->res[i].block_size != bs)
			continue;
		for (double b = 0.25; b <= 1024; b *= 1.25)
			fprintf(g, "%.4f %.4f\n", b,
				bench_model_speed(r->res[i].ratio, b, r->res[i].decomp_target));
		fprintf(g, "e\n");
	}
}

/* gnuplot writes the plot through an inherited descriptor of our output
 * (common/outfile.h: an unnamed file until commit), so a killed bench
 * leaves no half-written plot and no temporary. */
static int run_gnuplot(const struct bench_report *r, const char *term, int fd, const char *path,
		       struct ff_err *err)
{
	FILE *g;
	int st;

	g = popen("gnuplot", "w");
	if (!g)
		return ff_err_sys(err, errno, "%s: cannot run gnuplot", path);
	fprintf(g, "set terminal %s\nset termoption noenhanced\nset output \"/dev/fd/%d\"\n"
		   "set multiplot layout 1,2\n", term, fd);
	scatter(g, r);
	lines(g, r);
	fprintf(g, "unset multiplot\nset output\n");
	st = pclose(g);
	if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st))
		return ff_err_set(err, EIO, "%s: gnuplot failed (status %d)%s", path, st,
				  WIFEXITED(st) && WEXITSTATUS(st) == 127 ? ": not installed" : "");
	return 0;
}

int bench_plot(const struct bench_report *r, const char *path, struct ff_err *err)
{
	const char *term = terminal(path);
	struct ff_outfile of;
	int fd, ret;

	if (!term)
		return ff_err_set(err, EINVAL, "%s: plot name must end in .svg or .png", path);
	if (ff_outfile_open(&of, path, err))
		return -1;
	/* a copy without O_CLOEXEC, for gnuplot to inherit */
	fd = fcntl(of.fd, F_DUPFD, 3);
	if (fd < 0) {
		ret = ff_err_sys(err, errno, "%s", path);
	} else {
		ret = run_gnuplot(r, term, fd, path, err);
		close(fd);
	}
	if (!ret)
		return ff_outfile_commit(&of, err);
	ff_outfile_abort(&of);
	return ret;
}
