/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* rtime, JFFS2's byte-oriented LZ77 variant: the stream is pairs (byte,
 * run).  The byte is written out; then `run` bytes are copied from just
 * after the previous occurrence of that byte in the output (a table of the
 * last position each byte value was written at, all 0 at the start), byte
 * by byte so a copy may overlap what it writes. */
#include <errno.h>
#include <string.h>

#include "jffs2/decomp.h"

int j2_rtime_decode(const uint8_t *src, size_t n, uint8_t *out, size_t out_len,
		    struct ff_err *err)
{
	size_t last[256];
	size_t in = 0, pos = 0;

	memset(last, 0, sizeof(last));
	while (pos < out_len) {
		uint8_t value, run;
		size_t from;

		if (in + 2 > n)
			return ff_err_set(err, EIO, "rtime: input ends at byte %zu of %zu output bytes",
					  pos, out_len);
		value = src[in++];
		run = src[in++];
		out[pos++] = value;
		from = last[value];
		last[value] = pos;
		if (run > out_len - pos)
			return ff_err_set(err, EIO, "rtime: a run of %u at byte %zu passes the %zu output bytes",
					  run, pos, out_len);
		/* from < pos always: it is a position already written. */
		while (run--)
			out[pos++] = out[from++];
	}
	return 0;
}
