/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The stream-container readers (gzip, lzop, xz, zstd) that flashfs uses to
 * open compressed YAFFS2 images: detection from the magic, the container
 * headers (lzop's is parsed by hand), and decompression to the end, with a
 * bound on the output so a small bomb stays a quick input. */
#include <stdint.h>
#include <unistd.h>

#include "compress/compress.h"
#include "tests/fuzz/fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define OUT_BUDGET (8u << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t buf[65536];
	struct ff_err err = { 0 };
	struct ff_cstream *s;
	size_t total = 0;
	char path[64];
	int fd;

	ff_cstream_detect(data, size);
	fuzz_memfd(data, size, &fd, path, sizeof(path));
	lseek(fd, 0, SEEK_SET);
	s = ff_cstream_new_reader(fd, &err);
	if (s) {
		ssize_t n;

		while (total < OUT_BUDGET && (n = ff_cstream_read(s, buf, sizeof(buf), &err)) > 0)
			total += (size_t)n;
		ff_cstream_close(s, &err);
	}
	close(fd);
	return 0;
}
