/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Test helper: run the ff_cstream containers as a filter.
 *   cstream_tool -c NAME [LEVEL]   compress stdin to stdout
 *   cstream_tool -d                decompress stdin (detected) to stdout;
 *                                  exit 3 when stdin is not compressed */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compress/compress.h"

#define CHUNK 65536

static int put(const char *p, ssize_t n)
{
	while (n > 0) {
		ssize_t w = write(1, p, (size_t)n);

		if (w < 0)
			return -1;
		p += w;
		n -= w;
	}
	return 0;
}

static int compress_stdin(const char *name, int level)
{
	struct ff_err err = { 0 };
	struct ff_cstream *w = ff_cstream_new_writer(1, name, level, &err);
	static char buf[CHUNK];
	ssize_t n;

	if (!w) {
		fprintf(stderr, "cstream_tool: %s\n", err.msg);
		return 2;
	}
	while ((n = read(0, buf, sizeof(buf))) > 0)
		if (ff_cstream_write(w, buf, (size_t)n, &err) < 0)
			break;
	if (n < 0)
		perror("cstream_tool: stdin");
	if (ff_cstream_close(w, &err) || n < 0) {
		fprintf(stderr, "cstream_tool: %s\n", err.msg);
		return 1;
	}
	return 0;
}

static int decompress_stdin(void)
{
	struct ff_err err = { 0 };
	struct ff_cstream *r = ff_cstream_new_reader(0, &err);
	static char buf[CHUNK];
	ssize_t n;

	if (!r) {
		fprintf(stderr, "cstream_tool: %s\n", err.code ? err.msg : "not compressed");
		return err.code ? 1 : 3;
	}
	while ((n = ff_cstream_read(r, buf, sizeof(buf), &err)) > 0)
		if (put(buf, n))
			break;
	ff_cstream_close(r, NULL);
	if (n != 0) {
		fprintf(stderr, "cstream_tool: %s\n", n < 0 ? err.msg : "write failed");
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "-c"))
		return compress_stdin(argv[2], argc > 3 ? atoi(argv[3]) : -1);
	if (argc == 2 && !strcmp(argv[1], "-d"))
		return decompress_stdin();
	fprintf(stderr, "usage: cstream_tool -c gzip|lzop|xz|zstd [LEVEL] | -d\n");
	return 2;
}
