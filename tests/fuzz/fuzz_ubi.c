/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* UBI scanner: ff_ubi_open (geometry detection, the PEB scan, LEB copy
 * selection, the volume table), then every volume's info, selection by
 * default, name and ID, and a copy of its bytes.  Byte 0 picks the hint:
 * 0 detect, 1 2 KiB PEBs, 2 16 KiB (the seeds' sizes), 3 a raw dump of
 * 16 KiB PEBs with 512+16 pages, 4 512-byte pages, else none; the rest is
 * the image. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "tests/fuzz/fuzz_util.h"
#include "ubi/reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void walk(struct ff_ubi_image *img)
{
	struct ff_err err = {0};
	struct ff_ubi_summary s;
	size_t idx;
	char id[16];
	int out = open("/dev/null", O_WRONLY | O_CLOEXEC);

	ff_ubi_summary(img, &s);
	for (size_t i = 0; i < ff_ubi_problem_count(img); i++)
		(void)ff_ubi_problem(img, i);
	(void)ff_ubi_volume_select(img, NULL, &idx, &err);
	for (size_t i = 0; i < ff_ubi_volume_count(img); i++) {
		const struct ff_ubi_volume *v = ff_ubi_volume_at(img, i);
		snprintf(id, sizeof(id), "%u", v->id);
		(void)ff_ubi_volume_select(img, v->name, &idx, &err);
		(void)ff_ubi_volume_select(img, id, &idx, &err);
		if (out >= 0)
			(void)ff_ubi_volume_copy(img, i, out, &err);
	}
	if (out >= 0)
		close(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* the first byte picks a hint: PEB size given, or a raw dump's page + OOB */
	static const struct ff_ubi_hint hints[] = {
		{0, 0, 0}, {2048, 0, 0}, {16384, 0, 0}, {16384, 512, 16}, {0, 512, 0},
	};
	struct ff_ubi_image *img;
	struct ff_err err = {0};
	struct ff_bsrc *src;

	if (size < 1)
		return 0;
	src = ff_bsrc_mem(data + 1, size - 1, NULL, "fuzz", &err);
	if (src && ff_ubi_open(src, data[0] < 5 ? &hints[data[0]] : NULL, &img, &err) == 0) {
		walk(img);
		ff_ubi_close(img);
	}
	ff_bsrc_unref(src);
	return 0;
}
