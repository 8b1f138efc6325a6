/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* flashfs bench's options (bench_args.c parses them; cmd_bench.c runs). */
#ifndef FF_FLASHFS_BENCH_ARGS_H
#define FF_FLASHFS_BENCH_ARGS_H

#include <stdio.h>

#include "bench/bench.h"

#define MAX_CODECS 32
#define MAX_BLOCK_SIZES 16
#define MAX_FLASH 32
#define MAX_FS 16
#define MAX_FLAGS 24

struct bench_cfg {
	struct bench_codec codecs[MAX_CODECS];
	size_t n_codecs;
	uint32_t block_sizes[MAX_BLOCK_SIZES];
	size_t n_bs;
	struct bench_flash flash[MAX_FLASH];
	size_t n_flash;
	struct bench_flash target;
	unsigned medium;        /* --flash-type (FF_MEDIUM_*), 0: the target's */
	uint32_t erase_block, page_size;
	uint64_t flash_size;
	const char *fs[MAX_FS];
	size_t n_fs;
	char fs_buf[256];
	const char *flags[MAX_FLAGS];
	size_t n_flags;
	struct bench_measure_opts measure;
	double cpu_scale, weight;
	const char *csv, *json, *plot, *work_dir;
	int self_check, e2e, nandsim, quiet, progress, color, wide;
	char note[160];		/* the default set's BCJ choice, for the report */
	int quick;
	char work[4096];        /* where the images are built */
	unsigned slow_direct;   /* test hook, FLASHFS_BENCH_SLOW_DIRECT */
};

void bench_usage(FILE *out);
/* "flashfs bench: WHAT 'VALUE': WHY" on stderr; returns -1. */
int bench_bad(const char *what, const char *value, const char *why);
/* Returns the index of the first SOURCE, or -1 (usage error), -2 (--help). */
int bench_parse_args(struct bench_cfg *c, int argc, char **argv);

#endif
