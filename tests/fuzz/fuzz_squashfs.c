/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* SquashFS reader: superblock, tables, directory walk, file reads, links,
 * xattrs and the full check, on arbitrary bytes. */
#include <stdint.h>
#include <unistd.h>

#include "squashfs/reader.h"
#include "tests/fuzz/fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ff_open_opts o;
	struct ff_fs *fs = NULL;
	struct ff_err err = { 0 };
	char path[64];
	int fd;

	ff_squashfs_probe(data, size);
	fuzz_memfd(data, size, &fd, path, sizeof(path));
	fuzz_open_opts(&o);
	if (ff_squashfs_open(path, &o, &fs, &err) == 0) {
		fuzz_walk_fs(fs, 1);
		ff_fs_close(fs);
	}
	close(fd);
	return 0;
}
