/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The benchmark harness behind `flashfs bench`.
 *
 *   corpus    every source (directory, tar, an image flashfs reads) read
 *             into memory once, as a flat pre-order list of nodes plus one
 *             data buffer, and handed to tree/ as a finished source tree
 *   run       for every format of the registry with a build hook
 *             (tree/build.h), every block size × codec × layout variant:
 *             a real image built by the format's own writer (its size exact
 *             to the byte), then read back through image/ (readcost.c):
 *             sequential, random 4 KiB and stat costs.  No format is named
 *             here: the registry says which can build, and the hooks say
 *             which codecs, sizes and flags they take.
 *   layout    the corpus cut into blocks (the codec harness's input for
 *             the self-check: measure.c times the codec per block,
 *             lzbench style)
 *   model     reading one uncompressed MB costs t = r/B + 1/D, D the
 *             sequential read speed of the real image
 *   report    table, CSV, JSON, gnuplot plot
 *
 * Nothing here prints: cmd_bench.c owns the terminal. */
#ifndef FF_BENCH_BENCH_H
#define FF_BENCH_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/error.h"
#include "tree/tree.h"
#include "common/warn.h"

struct ff_comp;
struct bench_e2e;
struct bench_nandsim;

/* ---- corpus (corpus.c, corpus_tree.c, corpus_image.c) ---- */

struct bench_node {
	char *name;         /* one component; "" for the root */
	uint32_t parent;    /* index of the directory holding it (root: 0) */
	uint32_t mode, uid, gid;
	int64_t mtime;
	uint64_t size;      /* files: content length; symlinks: target length */
	uint32_t rdev_major, rdev_minor;
	int dense;          /* a file without holes (ff_node.dense): its inode
			     * reports no sparse bytes, as the writer's would */
	int32_t file;       /* regular files: index into files[], else -1 */
	int32_t link_of;    /* extra hard-link name: index of the primary, else -1 */
	struct ff_xattr *xattrs; /* owned copies */
	uint32_t n_xattrs;
	uint32_t n_children;
	char *target;       /* symlinks */
};

struct bench_file {
	uint64_t off;       /* into corpus data */
	uint64_t size;
	int32_t dup_of;     /* identical earlier file, or -1 */
};

struct bench_corpus {
	struct bench_node *nodes;  /* pre-order, children sorted by name */
	size_t n_nodes, cap_nodes;
	struct bench_file *files;  /* in node order */
	size_t n_files, cap_files;
	uint8_t *data;
	uint64_t data_len, data_cap;
	uint64_t unique_bytes;     /* data of files that are not duplicates */
	uint32_t n_dirs, n_ids;
	struct ff_tree *tree;      /* after finish: the corpus as the writer sees it,
				      contents referencing data[] */
};

struct bench_corpus *bench_corpus_new(struct ff_err *err);
void bench_corpus_free(struct bench_corpus *c);
/* Adds SOURCE: a directory, a tar file or a SquashFS image.  With several
 * sources each becomes a directory named after it under the root (as
 * mksquashfs does); `as_root` says this is the only source. */
int bench_corpus_add(struct bench_corpus *c, const char *source, int as_root,
		     struct ff_err *err);
/* Marks duplicates, counts ids and builds c->tree; call once after the
 * last add. */
int bench_corpus_finish(struct bench_corpus *c, struct ff_err *err);

/* Frees what a node owns (name, target, xattrs), not the node itself. */
void bench_node_free(struct bench_node *n);

/* Used by the loaders. */
int bench_corpus_push_node(struct bench_corpus *c, const struct bench_node *n,
			   struct ff_err *err);
uint8_t *bench_corpus_reserve_file(struct bench_corpus *c, uint32_t node, uint64_t size,
				   struct ff_err *err);
int bench_corpus_add_tree(struct bench_corpus *c, const char *source, uint32_t parent,
			  const char *name, struct ff_err *err);
int bench_corpus_add_image(struct bench_corpus *c, const char *source, uint32_t parent,
			   const char *name, struct ff_err *err);
/* Is the file an image flashfs opens (any format of the registry)? */
int bench_is_image(const char *path);

/* The corpus as a finished tree for the writers (corpus_tree.c's
 * counterpart: bench nodes back into tree nodes, contents referenced). */
struct ff_tree *bench_corpus_as_tree(const struct bench_corpus *c, struct ff_err *err);

/* ---- layout (layout.c): the corpus in blocks, for the codec harness ---- */

enum bench_block_kind { BENCH_BLOCK_DATA, BENCH_BLOCK_FRAG, BENCH_BLOCK_ZERO };

struct bench_block {
	const uint8_t *p;
	uint32_t len;
	uint32_t kind;
};

struct bench_layout_opts {
	uint32_t block_size;
	int no_fragments;       /* every tail becomes a short block */
	int always_fragments;   /* tails of large files are packed too */
	int no_sparse;
	int no_dedup;
};

struct bench_layout {
	struct bench_layout_opts opts;
	struct bench_block *blocks;  /* in image order; p points into arena */
	size_t n_blocks, cap_blocks;
	uint32_t n_frag_blocks;
	uint64_t bytes;              /* uncompressed bytes in blocks */
	uint8_t *arena;
	uint64_t arena_len, arena_cap;
};

/* The unique files cut into block_size blocks, tails packed together
 * (each on its own with no_fragments); jobs is unused. */
int bench_layout_build(const struct bench_corpus *c, const struct bench_layout_opts *o,
		       unsigned jobs, struct bench_layout *l, struct ff_err *err);
void bench_layout_free(struct bench_layout *l);

/* ---- codec configurations (codec_spec.c) ---- */

struct bench_codec {
	char label[48];   /* "gzip-9", "zstd-19", "xz+bcj" */
	char name[16];    /* compress/ codec name */
	char opts[96];    /* "key=value:key=value" as given, may be "" */
};

/* The default set: gzip-6/9/10/12 (libdeflate), gzip-zlib9, lzo1x_999,
 * lzo1x_1, xz, xz+bcj (with the filter bcj names; none when NULL), lz4,
 * lz4hc, zstd-3/15/19. */
size_t bench_codec_defaults(struct bench_codec *out, size_t cap, const char *bcj);
/* --quick's set: gzip-9, lz4, lz4hc, zstd-3 and xz+bcj (xz when bcj is
 * NULL). */
size_t bench_codec_quick(struct bench_codec *out, size_t cap, const char *bcj);
/* "NAME[:key=value...][@LABEL]" */
int bench_codec_parse(const char *text, struct bench_codec *out, struct ff_err *err);
/* A configured compressor for a block size; NULL with err when the codec
 * or an option is not available in this build. */
struct ff_comp *bench_codec_open(const struct bench_codec *bc, uint32_t block_size,
				 struct ff_err *err);
/* The xz BCJ filter for the machine most of the corpus' ELF bytes are for
 * (corpus_bcj.c), or NULL; note says which and why, for the report. */
const char *bench_corpus_bcj(const struct bench_corpus *c, char *note, size_t cap);

/* ---- measurement (measure.c) ---- */

struct bench_measure_opts {
	unsigned threads;
	double min_time;         /* seconds per phase */
	unsigned min_repeats;    /* decompression passes at least */
};

struct bench_speed {
	double best, median, worst; /* MB/s (1e6 bytes) of uncompressed data */
	unsigned passes;
};

struct bench_result {
	char fs[16];               /* the format's registry name */
	char fs_title[24];         /* its title, for messages */
	char block_name[16];       /* what block_size is: "block size", "pcluster size" */
	char flags[96];            /* the format flags built with, ","-joined, or "" */
	char image[512];           /* the image when kept, else "" */
	double build_s;            /* wall seconds its writer took */
	uint64_t read_bytes;       /* file bytes one sequential pass reads */
	uint64_t entries;          /* entries the stat walk visited */
	double rand_us;            /* CPU microseconds per random 4 KiB read */
	double rand_amp;           /* image bytes fetched per byte asked, each random
				      read on a freshly opened image (cold caches) */
	double stat_us;            /* CPU microseconds per entry, stat walk */
	struct bench_codec codec;
	char options[128];         /* canonical, from ff_comp_describe */
	uint32_t block_size;
	uint64_t input_bytes;      /* every file byte of the corpus */
	uint64_t data_size;        /* compressed data + fragment blocks */
	uint64_t meta_size;        /* superblock, tables, padding */
	uint64_t bytes_used;       /* the superblock's: image_size before padding */
	uint64_t image_size;
	uint32_t blocks, fragment_blocks;
	double ratio;              /* image_size / input_bytes: the model's r */
	/* comp: the writer's speed (input MB per wall second, one build);
	 * decomp: the sequential read of the real image (file MB per CPU
	 * second, best, median and worst of the passes) */
	struct bench_speed comp, decomp;
	/* filled by the model */
	double decomp_target;      /* decomp.best * cpu_scale */
};

/* Read costs of the image at path (any format image/ opens) into res:
 * decomp (sequential passes until o's minimum time and repeats), rand_us,
 * rand_amp, stat_us, entries, read_bytes. */
int bench_read_cost(const char *path, const struct bench_measure_opts *o,
		    struct bench_result *res, struct ff_err *err);
/* Thread CPU time in seconds: immune to other load on a shared machine. */
double bench_cpu_now(void);
double bench_wall_now(void);

/* One pass of the harness at a time (the self-check interleaves them
 * with its own loop): the workers of bench_measure, kept between passes.
 * A decompression pass reads what the last compression pass wrote. */
struct bench_harness;
struct bench_harness *bench_harness_new(const struct bench_layout *l, const struct ff_comp *comp,
					unsigned threads, struct ff_err *err);
/* *mbps per core, *secs CPU time summed over the workers. */
int bench_harness_pass(struct bench_harness *h, int decompress, double *mbps, double *secs,
		       struct ff_err *err);
void bench_harness_free(struct bench_harness *h);

/* ---- --self-check (selfcheck.c): the harness against a plain loop ---- */

/* A median and its distribution-free interval: the order statistics
 * v(k) and v(n+1-k), which hold the true median with probability
 * coverage = 1 - 2 P(Binomial(n, 1/2) < k) whatever the distribution. */
struct bench_interval {
	double lo, median, hi;
	double coverage;
};
/* Sorts v[0..n) and fills *ci with the narrowest such interval whose
 * coverage is at least level; -1 when n is too small for level (then
 * the whole range, with its coverage). */
int bench_median_interval(double *v, unsigned n, double level, struct bench_interval *ci);

enum bench_verdict { BENCH_AGREE, BENCH_INCONCLUSIVE, BENCH_DIFFERS };
#define BENCH_SELFCHECK_BAND 0.10   /* harness/direct ratio within 1 +- this agrees */
/* Only a ratio wholly beyond this factor, either way, differs: on a shared
 * 2-vCPU machine the pair read 0.63..0.76 with nothing wrong (docs/bench.md). */
#define BENCH_SELFCHECK_DIFFERS 1.5
#define BENCH_SELFCHECK_LEVEL 0.95
#define BENCH_SELFCHECK_ROUNDS 15   /* the least giving a 95% interval is 6 */

/* Agree: the ratio's interval lies within 1 +- band; differs: wholly
 * outside 1/factor..factor; inconclusive: anything between (noise, or a
 * gap no larger than the machine alone can make). */
enum bench_verdict bench_selfcheck_verdict(const struct bench_interval *ci, double band,
					   double factor);
const char *bench_verdict_name(enum bench_verdict v);

struct bench_selfcheck_opts {
	unsigned threads;       /* the harness's workers, as in bench_measure */
	unsigned rounds;        /* pairs of measurements per phase; 0: the default */
	double round_time;      /* CPU seconds each side spends per round, about */
	/* Test hook (FLASHFS_BENCH_SLOW_DIRECT): the plain loop does each of
	 * its passes this many times and counts the bytes once, so it reads
	 * that many times slower than it is.  0 or 1: off. */
	unsigned slow_direct;
};

/* One phase (compression or decompression): rounds of paired
 * measurements, harness then loop or loop then harness in turn, each the
 * best of passes_per_round passes; ratio = harness / direct speed of a
 * pair. */
struct bench_paired {
	double harness_mbps, direct_mbps;   /* medians of the rounds' figures */
	double direct_best;                 /* fastest pass of the loop */
	struct bench_interval ratio;
	unsigned rounds, passes_per_round;
	enum bench_verdict verdict;
};

/* The image against the host kernel: loop-mounted (as root), every file
 * read cold through it, and the bytes compared with what our reader read;
 * the time against the model's sequential read. */
struct bench_kernel_check {
	int ran;                /* 0: not run (note says why) */
	int same;               /* the kernel read as many file bytes as ours */
	uint64_t bytes;         /* file bytes the kernel read */
	double kernel_s;        /* cold read of the tree through the mount */
	double ours_s;          /* our sequential pass (best), for comparison */
	char note[160];
};

struct bench_selfcheck {
	struct bench_paired comp, decomp;
	struct bench_kernel_check kernel;
};

int bench_selfcheck(const struct bench_layout *l, const struct bench_codec *bc,
		    const struct bench_selfcheck_opts *o, struct bench_selfcheck *sc,
		    struct ff_err *err);
struct bench_run_opts;
/* For one measured setting whose image is at path: the codec harness
 * against the plain loop on the corpus in r's blocks, then the kernel
 * check (sc->kernel; mounts under o->work_dir). */
int bench_selfcheck_result(const struct bench_corpus *c, const struct bench_result *r,
			   const char *path, const struct bench_run_opts *o,
			   struct bench_selfcheck *sc, struct ff_err *err);

/* ---- the run loop (run.c) ---- */

struct bench_run_opts {
	const struct bench_codec *codecs;
	size_t n_codecs;
	/* the sizes to try; n_block_sizes 0: each format's defaults.  A size
	 * outside a format's range is left out for that format. */
	const uint32_t *block_sizes;
	size_t n_block_sizes;
	/* registry names to run (NULL: every format with a build hook) */
	const char *const *fs;
	size_t n_fs;
	/* -O: "key[=value]" flags, each given to the formats that take it */
	const char *const *flags;
	size_t n_flags;
	int no_variants;                   /* only each format's plain layout (--quick) */
	/* The target's storage, FF_MEDIUM_* of tree/build.h (0: a block
	 * device): without fs, the formats whose images suit it run.  Its
	 * geometry for the flash file systems; 0: their defaults. */
	unsigned medium;
	uint32_t erase_block, page_size;
	uint64_t flash_size;
	int64_t time;                      /* the images' time (< 0: now) */
	const char *work_dir;              /* where images are built */
	int keep_images;                   /* else deleted once measured */
	struct bench_layout_opts layout;   /* block_size is set per run */
	struct bench_measure_opts measure;
	/* Optional: after each codec × block size (bytes = its input). */
	void (*progress)(void *ctx, uint64_t bytes, uint64_t total_bytes);
	/* Optional: a setting that could not be measured; the run goes on. */
	ff_warn_fn warn;
	void *ctx;
	int self_check;                    /* also fill selfcheck[] */
	struct bench_selfcheck_opts check;
};

struct bench_run {
	struct bench_result *res;
	struct bench_selfcheck *sc;        /* per result with self_check */
	size_t n;
	unsigned failed;                   /* settings skipped with a warning */
	unsigned not_applicable;           /* codec settings a format cannot store */
};

/* The run's plan: how many settings (for progress), without running. */
size_t bench_run_count(const struct bench_corpus *c, const struct bench_run_opts *o);
/* Every -O flag is taken by at least one format run: 0, or -1 with err
 * naming the flag. */
int bench_run_check_flags(const struct bench_run_opts *o, struct ff_err *err);

int bench_run(const struct bench_corpus *c, const struct bench_run_opts *o,
	      struct bench_run *out, struct ff_err *err);
/* FF_MEDIUM_* the registry's format fs suits (all three for a read-only
 * image): without FF_MEDIUM_BLOCK the host kernel cannot loop-mount it. */
unsigned bench_fs_media(const char *fs);
void bench_run_free(struct bench_run *r);

/* ---- flash model (model.c, flash_speed.c, recommend.c) ---- */

struct bench_flash {
	char name[24];   /* "slc-nand", or "" for a plain number */
	double mbps;
	unsigned medium; /* a preset's FF_MEDIUM_* (tree/build.h); 0 for a number */
};

/* "0.5,2,8MB/s,slc-nand,500KB/s" -> list.  Units: B/s, KB/s, MB/s, GB/s
 * (decimal), KiB/s, MiB/s; bare numbers are MB/s. */
int bench_flash_parse(const char *text, struct bench_flash *out, size_t cap, size_t *n,
		      struct ff_err *err);
/* Preset list for --help: one per line, "name  speed  what". */
const char *bench_flash_presets_help(void);

/* Seconds to read one uncompressed MB: r/B + 1/D. */
double bench_model_time(double r, double flash_mbps, double decomp_mbps);
/* Effective read speed, uncompressed MB/s: 1 / time. */
double bench_model_speed(double r, double flash_mbps, double decomp_mbps);
/* Flash bandwidth at which two choices read equally fast; 0 when they never
 * tie at a positive bandwidth (one is better everywhere). */
double bench_model_break_even(double r1, double d1, double r2, double d2);

enum bench_goal { BENCH_GOAL_SMALLEST, BENCH_GOAL_FASTEST, BENCH_GOAL_WEIGHTED, BENCH_NGOALS };

struct bench_reco {
	int goal;
	size_t index;            /* into results */
	char why[320];
};

struct bench_break_even {
	size_t a, b;             /* a: smaller image, b: faster decompression */
	double flash_mbps;
};

struct bench_analysis {
	double cpu_scale;
	double target_mbps;      /* B for "fastest boot read" and the weighted goal */
	double weight;           /* weight of image size in the weighted goal */
	struct bench_reco reco[BENCH_NGOALS];
	struct bench_break_even *be;
	size_t n_be;
};

/* Fills decomp_target and the recommendations; break-even points between
 * neighbours on the size/speed Pareto frontier. */
int bench_analyse(struct bench_result *res, size_t n, struct bench_analysis *a,
		  struct ff_err *err);
void bench_analysis_free(struct bench_analysis *a);
const char *bench_goal_name(int goal);

/* ---- output (report_*.c, plot.c) ---- */

struct bench_report {
	const struct bench_corpus *corpus;
	const char *const *sources;
	size_t n_sources;
	struct bench_result *res;
	size_t n;
	const struct bench_analysis *an;
	const struct bench_flash *flash;
	size_t n_flash;
	const struct bench_measure_opts *mo;
	const struct bench_selfcheck *sc;   /* per result, or NULL */
	const struct bench_e2e *e2e;        /* per recommendation goal, or NULL */
	const struct bench_nandsim *ns;     /* per recommendation goal, or NULL */
	int color;
	unsigned width;   /* table columns to fit in; 0: all (--wide) */
	const char *note; /* a line about the settings tried (the BCJ filter), or NULL */
	unsigned medium;  /* the run's storage, FF_MEDIUM_* (0: block) */
};

/* "block", "nor" or "nand": a run's storage by its FF_MEDIUM_* bit. */
const char *bench_medium_name(unsigned medium);
/* Sorted by image size; the recommendations marked (bold with color). */
void bench_report_table(FILE *out, const struct bench_report *r);
void bench_report_csv(FILE *out, const struct bench_report *r);
void bench_report_json(FILE *out, const struct bench_report *r);
/* Writes PATH (.svg or .png by its suffix) through gnuplot, atomically. */
int bench_plot(const struct bench_report *r, const char *path, struct ff_err *err);
/* Before the run: the plot's name is one bench_plot writes, and gnuplot is
 * there to draw it (a .gp script needs none). */
int bench_plot_check(const char *path, struct ff_err *err);
/* Results in table order (image size, then decompression speed). */
size_t *bench_sorted(const struct bench_result *res, size_t n);
const char *bench_human_size(uint64_t bytes, char *buf, size_t cap);

/* ---- end-to-end (e2e.c) and nandsim (nandsim.c) ---- */

struct bench_e2e {
	int valid;
	uint64_t image_size;        /* as mkfs.squashfs built it */
	double mkfs_s;              /* wall seconds */
	double fuse_read_s;         /* whole tree through `flashfs mount`, <0 = not run */
	double kernel_read_s;       /* loop mount, cold cache, <0 = not run */
	char note[320];
};

struct bench_e2e_opts {
	const char *bin_dir;        /* where mkfs.squashfs and flashfs are */
	const char *const *sources;
	size_t n_sources;
	const char *work_dir;
	unsigned threads;
};

int bench_e2e_run(const struct bench_e2e_opts *o, const struct bench_result *res,
		  struct bench_e2e *e, struct ff_err *err);
/* Seconds to read every file under dir (open/read/close, 1 MiB buffer). */
double bench_read_tree(const char *dir, uint64_t *bytes);
/* Loop-mounts image read-only at mnt (the kernel finds the type), drops
 * the caches and reads the tree: seconds, or -1 (not root, or the mount
 * failed: see log). */
double bench_kernel_read(const char *image, const char *mnt, const char *log, uint64_t *bytes);

struct bench_nandsim {
	int valid;
	double flash_mbps;          /* the B nandsim's delays give */
	double measured_s;          /* cold read of the tree on the mtdblock mount */
	double measured_nodelay_s;  /* the same with do_delays=0: CPU part */
	double predicted_s;         /* the model at flash_mbps, D scaled */
	double guest_factor;        /* guest / host decompression speed */
	char note[320];
};

struct bench_nandsim_opts {
	const char *top;            /* source tree: nandsim-tests/ lives here */
	const char *bin_dir;
	const char *work_dir;
	const char *image_dir;      /* images from the e2e step */
	uint32_t access_delay_us, input_cycle_ns;
	/* the geometry the images were built for (0: the defaults): a
	 * NAND-only format's image goes into a UBI volume on the 2K-page,
	 * 128 KiB-block chip, which must be that geometry */
	uint32_t page_size, erase_block;
};

int bench_nandsim_run(const struct bench_nandsim_opts *o, const struct bench_result *res,
		      const struct bench_analysis *an, const struct bench_e2e *e2e,
		      struct bench_nandsim *ns, struct ff_err *err);
/* nandsim's read bandwidth for its delay parameters (MB/s): a page costs
 * access_delay + input_cycle × page size. */
double bench_nandsim_mbps(uint32_t access_delay_us, uint32_t input_cycle_ns,
			  uint32_t page_size);

#endif
