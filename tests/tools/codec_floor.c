/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Bench helper: the codec floor of a SquashFS build, the CPU time of
 * compressing every data block of a tree once, and of decompressing each
 * compressed block once.
 *   codec_floor [-c CODEC] [-b SIZE] [-X KEY=VALUE]... [--no-fragments] DIR
 * The blocks are the ones mkfs.squashfs writes with the same options: the
 * tree is walked depth first in name order, a hard link and a file whose
 * bytes equal an earlier file's are skipped (the writer's dedup), each file
 * is cut into blocks, an all-zero block is sparse (not compressed), and a
 * file below one block (not a multiple of it) is packed into fragment
 * blocks, flushed when the next one would not fit.  Each block goes through
 * ff_comp_compress with a context reused across calls, output capacity the
 * input size, as the writer's workers call it; a block that does not shrink
 * is stored raw.  Reading the files is not timed: only the codec calls are,
 * with the thread's CPU clock.  Prints `key=value` lines: blocks, sparse,
 * fragments, raw, bytes_in, bytes_out (what the data region of the image
 * holds), comp_cpu and decomp_cpu in seconds.  The bench divides the CPU
 * times by the cores. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/bytes.h"
#include "common/crc.h"
#include "common/hmap.h"
#include "common/size.h"
#include "common/vec.h"
#include "compress/compress.h"

struct floor {
	struct ff_comp_ctx *ctx;
	uint32_t block_size;
	int no_fragments;
	uint8_t *frag, *out, *back; /* fragment buffer, codec output, decode buffer */
	uint32_t frag_fill;
	struct ff_hmap links, dups;    /* (dev, ino); (size, crc32c) -> path index */
	struct ff_vec paths;           /* char *, the first file of each dedup key */
	uint64_t blocks, sparse, frags, raw, bytes_in, bytes_out;
	double comp_cpu, decomp_cpu;
	struct ff_err err;
};

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One block through the codec and back, both timed. */
static int compress_block(struct floor *f, const uint8_t *in, uint32_t len)
{
	double t0 = cpu_now(), t1;
	ssize_t n = ff_comp_compress(f->ctx, in, len, f->out, len, &f->err), back;

	t1 = cpu_now();
	f->comp_cpu += t1 - t0;
	f->blocks++;
	f->bytes_in += len;
	if (n < 0)
		return -1;
	if (n == FF_COMP_NOSHRINK) {
		f->raw++;
		f->bytes_out += len;
		return 0;
	}
	f->bytes_out += (uint64_t)n;
	back = ff_comp_decompress(f->ctx, f->out, (size_t)n, f->back, f->block_size, &f->err);
	f->decomp_cpu += cpu_now() - t1;
	if (back != (ssize_t)len)
		return back < 0 ? -1 : ff_err_set(&f->err, EIO, "block of %u bytes decoded to %zd", len, back);
	return 0;
}

/* A data block of a file: sparse when all zero, else compressed. */
static int data_block(struct floor *f, const uint8_t *in, uint32_t len)
{
	if (ff_is_zero(in, len)) {
		f->sparse++;
		return 0;
	}
	return compress_block(f, in, len);
}

static int frag_flush(struct floor *f)
{
	int ret = f->frag_fill ? compress_block(f, f->frag, f->frag_fill) : 0;

	f->frags += f->frag_fill != 0;
	f->frag_fill = 0;
	return ret;
}

/* The writer's use_fragment and add_tail: only a file below one block goes
 * into a fragment, and an all-zero one is a sparse block instead. */
static int cut_file(struct floor *f, const uint8_t *bytes, uint64_t size)
{
	uint64_t off = 0;
	uint32_t tail = (uint32_t)(size % f->block_size);
	int frag = !f->no_fragments && tail && size < f->block_size;

	for (; off < size - (frag ? tail : 0); off += f->block_size) {
		uint32_t len = size - off < f->block_size ? (uint32_t)(size - off) : f->block_size;

		if (data_block(f, bytes + off, len) < 0)
			return -1;
	}
	if (!frag)
		return 0;
	if (ff_is_zero(bytes, tail)) {
		f->sparse++;
		return 0;
	}
	if (f->frag_fill + tail > f->block_size && frag_flush(f) < 0)
		return -1;
	memcpy(f->frag + f->frag_fill, bytes, tail);
	f->frag_fill += tail;
	return 0;
}

/* The whole file in a fresh buffer of *size bytes (NULL for an empty file). */
static uint8_t *slurp(struct floor *f, const char *path, uint64_t *size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	uint8_t *buf = NULL;
	ssize_t got = 0;

	if (fd < 0 || fstat(fd, &st) < 0) {
		ff_err_sys(&f->err, errno, "%s", path);
		goto out;
	}
	*size = (uint64_t)st.st_size;
	if (*size && !(buf = malloc(*size))) {
		ff_err_set(&f->err, ENOMEM, "%s: out of memory for %llu bytes", path,
			   (unsigned long long)*size);
		goto out;
	}
	for (uint64_t at = 0; at < *size; at += (uint64_t)got)
		if ((got = pread(fd, buf + at, *size - at, (off_t)at)) <= 0) {
			ff_err_set(&f->err, EIO, "%s: short read at %llu", path, (unsigned long long)at);
			free(buf);
			buf = NULL;
			goto out;
		}
out:
	if (fd >= 0)
		close(fd);
	return buf;
}

/* 1 when bytes equal an earlier file's (then skipped), else 0 (and the
 * file is the first of its key); -1 on error. */
static int duplicate(struct floor *f, const char *path, const uint8_t *bytes, uint64_t size)
{
	uint8_t key[12];
	uint64_t idx, osize = 0;
	uint32_t crc = ff_crc32c(0, bytes, size);
	char *copy;
	int same;

	memcpy(key, &size, 8);
	memcpy(key + 8, &crc, 4);
	if (ff_hmap_find(&f->dups, key, sizeof(key), &idx)) {
		uint8_t *old = slurp(f, *FF_VEC_AT(&f->paths, char *, idx), &osize);

		same = old && osize == size && memcmp(old, bytes, size) == 0;
		free(old);
		return same;   /* a different file of the same key is compressed */
	}
	if (!(copy = strdup(path)) || ff_vec_push(&f->paths, &copy) < 0 ||
	    ff_hmap_set(&f->dups, key, sizeof(key), f->paths.len - 1) < 0) {
		free(copy);
		return ff_err_set(&f->err, ENOMEM, "out of memory");
	}
	return 0;
}

static int one_file(struct floor *f, const char *path, const struct stat *st)
{
	uint64_t link[2] = {st->st_dev, st->st_ino}, size = 0;
	uint8_t *bytes;
	int dup, ret = 0;

	if (st->st_nlink > 1) {
		if (ff_hmap_find(&f->links, link, sizeof(link), NULL))
			return 0;
		if (ff_hmap_set(&f->links, link, sizeof(link), 1) < 0)
			return ff_err_set(&f->err, ENOMEM, "out of memory");
	}
	if (!st->st_size)
		return 0;
	if (!(bytes = slurp(f, path, &size)))
		return -1;
	dup = duplicate(f, path, bytes, size);
	if (dup < 0 || (!dup && cut_file(f, bytes, size) < 0))
		ret = -1;
	free(bytes);
	return ret;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in dir, sorted as mkfs.squashfs sorts them (strcmp). */
static int list_dir(struct floor *f, const char *dir, struct ff_vec *names)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char *name;

	if (!d)
		return ff_err_sys(&f->err, errno, "%s", dir);
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!(name = strdup(e->d_name)) || ff_vec_push(names, &name) < 0) {
			free(name);
			closedir(d);
			return ff_err_set(&f->err, ENOMEM, "out of memory");
		}
	}
	closedir(d);
	if (names->len)
		qsort(names->data, names->len, sizeof(char *), by_name);
	return 0;
}

static int walk(struct floor *f, const char *dir)
{
	struct ff_vec names = FF_VEC_INIT(char *);
	int ret = list_dir(f, dir, &names);

	for (size_t i = 0; i < names.len; i++) {
		char *name = *FF_VEC_AT(&names, char *, i), *path = NULL;
		struct stat st;

		if (!ret && asprintf(&path, "%s/%s", dir, name) < 0)
			ret = ff_err_set(&f->err, ENOMEM, "out of memory");
		if (!ret && lstat(path, &st) < 0)
			ret = ff_err_sys(&f->err, errno, "%s", path);
		if (!ret && S_ISDIR(st.st_mode))
			ret = walk(f, path);
		else if (!ret && S_ISREG(st.st_mode))
			ret = one_file(f, path, &st);
		free(path);
		free(name);
	}
	ff_vec_free(&names);
	return ret;
}

static void report(const struct floor *f, const char *codec)
{
	printf("codec=%s\nblock_size=%u\nblocks=%llu\nfragments=%llu\nsparse=%llu\nraw=%llu\n"
	       "bytes_in=%llu\nbytes_out=%llu\ncomp_cpu=%.4f\ndecomp_cpu=%.4f\n",
	       codec, f->block_size, (unsigned long long)f->blocks, (unsigned long long)f->frags,
	       (unsigned long long)f->sparse, (unsigned long long)f->raw,
	       (unsigned long long)f->bytes_in, (unsigned long long)f->bytes_out, f->comp_cpu,
	       f->decomp_cpu);
}

static int usage(void)
{
	fprintf(stderr, "usage: codec_floor [-c CODEC] [-b SIZE] [-X KEY=VALUE]... "
			"[--no-fragments] DIR\n");
	return 2;
}

static int run(struct floor *f, struct ff_comp *comp, const char *dir)
{
	int ret;

	f->frag = malloc(f->block_size);
	f->out = malloc(f->block_size);
	f->back = malloc(f->block_size);
	f->ctx = ff_comp_ctx_new(comp, &f->err);
	if (!f->frag || !f->out || !f->back || !f->ctx)
		ret = f->ctx ? ff_err_set(&f->err, ENOMEM, "out of memory") : -1;
	else
		ret = walk(f, dir) < 0 || frag_flush(f) < 0 ? -1 : 0;
	ff_comp_ctx_free(f->ctx);
	free(f->frag);
	free(f->out);
	free(f->back);
	for (size_t i = 0; i < f->paths.len; i++)
		free(*FF_VEC_AT(&f->paths, char *, i));
	ff_vec_free(&f->paths);
	ff_hmap_clear(&f->links, NULL);
	ff_hmap_clear(&f->dups, NULL);
	return ret;
}

int main(int argc, char **argv)
{
	struct floor f = {.block_size = 128 * 1024, .paths = FF_VEC_INIT(char *)};
	const char *codec = "gzip", *opts[16];
	struct ff_comp *comp;
	uint64_t bs;
	int n_opts = 0, i = 1, ret;

	for (; i < argc - 1; i++)
		if (!strcmp(argv[i], "-c") && i + 2 < argc)
			codec = argv[++i];
		else if (!strcmp(argv[i], "-b") && i + 2 < argc && !ff_parse_size(argv[i + 1], &bs) &&
			 bs >= 4096 && bs <= (1u << 20) && !(bs & (bs - 1)) && ++i)
			f.block_size = (uint32_t)bs;
		else if (!strcmp(argv[i], "-X") && i + 2 < argc && n_opts < 16)
			opts[n_opts++] = argv[++i];
		else if (!strcmp(argv[i], "--no-fragments"))
			f.no_fragments = 1;
		else
			return usage();
	if (i != argc - 1)
		return usage();
	comp = ff_comp_new(codec, f.block_size, &f.err);
	for (int k = 0; comp && k < n_opts; k++)
		if (ff_comp_set_option_str(comp, opts[k], &f.err) < 0) {
			ff_comp_free(comp);
			comp = NULL;
		}
	ret = comp ? run(&f, comp, argv[i]) : -1;
	ff_comp_free(comp);
	if (ret < 0) {
		fprintf(stderr, "codec_floor: %s\n", f.err.msg);
		return 1;
	}
	report(&f, codec);
	return 0;
}
