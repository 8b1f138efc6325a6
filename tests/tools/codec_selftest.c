/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Codec self-test for `make demo`: round-trips a sample through every codec
 * with its default options, in 128 KiB blocks as SquashFS uses them, checks
 * every byte and prints codec, ratio and speeds.
 *   codec_selftest [FILE]   (default sample: generated text + this program) */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "compress/compress.h"

#define BS (128u * 1024)
#define SAMPLE_MAX (8u << 20)

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static size_t read_file(const char *path, uint8_t *buf, size_t cap)
{
	int fd = open(path, O_RDONLY);
	size_t len = 0;
	ssize_t n = 1;

	if (fd < 0)
		return 0;
	while (len < cap && (n = read(fd, buf + len, cap - len)) > 0)
		len += (size_t)n;
	close(fd);
	return len;
}

static size_t make_sample(uint8_t *buf, const char *path)
{
	static const char *const words[] = { "root ", "etc/", "passwd ", "libc.so.6 ", "busybox ",
					     "init\n", "mtd0 ", "0x00020000 " };
	uint32_t s = 1;
	size_t len;

	if (path)
		return read_file(path, buf, SAMPLE_MAX);
	len = read_file("/proc/self/exe", buf, SAMPLE_MAX / 2);
	while (len < SAMPLE_MAX) {
		const char *w;

		s = s * 1103515245u + 12345u;
		for (w = words[(s >> 16) % 8]; *w && len < SAMPLE_MAX; w++)
			buf[len++] = (uint8_t)*w;
	}
	return len;
}

struct result {
	size_t packed;
	double ctime, dtime;
};

static int run_codec(const char *name, const uint8_t *in, size_t len, uint8_t *pk, uint8_t *out,
		     struct result *r)
{
	struct ff_err err = { 0 };
	struct ff_comp *comp = ff_comp_new(name, BS, &err);
	struct ff_comp_ctx *ctx = comp ? ff_comp_ctx_new(comp, &err) : NULL;
	int bad = !ctx;

	memset(r, 0, sizeof(*r));
	for (size_t off = 0; !bad && off < len; off += BS) {
		size_t n = len - off < BS ? len - off : BS;
		double t0 = now();
		ssize_t c = ff_comp_compress(ctx, in + off, n, pk, BS, &err), d = (ssize_t)n;
		double t1 = now();

		if (c > 0)
			d = ff_comp_decompress(ctx, pk, (size_t)c, out, BS, &err);
		else if (c == 0)
			memcpy(out, in + off, n);
		r->ctime += t1 - t0;
		r->dtime += c > 0 ? now() - t1 : 0;
		r->packed += c > 0 ? (size_t)c : n;
		bad = c < 0 || d != (ssize_t)n || memcmp(out, in + off, n);
	}
	if (bad)
		fprintf(stderr, "codec_selftest: %s: %s\n", name, err.msg[0] ? err.msg : "mismatch");
	ff_comp_ctx_free(ctx);
	ff_comp_free(comp);
	return bad;
}

int main(int argc, char **argv)
{
	uint8_t *in = malloc(SAMPLE_MAX), *pk = malloc(BS), *out = malloc(BS);
	const char *const *names = ff_comp_names();
	size_t len;
	int failed = 0;

	if (!in || !pk || !out)
		return 2;
	len = make_sample(in, argc > 1 ? argv[1] : NULL);
	if (!len) {
		fprintf(stderr, "codec_selftest: no sample data\n");
		return 2;
	}
	printf("codec self-test: %zu bytes in %u KiB blocks, default options\n", len, BS / 1024);
	printf("%-6s %8s %12s %12s  %s\n", "codec", "ratio", "comp MB/s", "decomp MB/s", "result");
	for (int i = 0; names[i]; i++) {
		struct result r;
		int bad = run_codec(names[i], in, len, pk, out, &r);

		failed |= bad;
		printf("%-6s %7.1f%% %12.1f %12.1f  %s\n", names[i], 100.0 * (double)r.packed / (double)len,
		       r.ctime > 0 ? (double)len / r.ctime / 1e6 : 0.0,
		       r.dtime > 0 ? (double)len / r.dtime / 1e6 : 0.0, bad ? "FAILED" : "ok");
	}
	free(in);
	free(pk);
	free(out);
	return failed;
}
