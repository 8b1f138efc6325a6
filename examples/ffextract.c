/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* ffextract IMAGE DIR [PATH...]: unpack any image libflashfs reads into
 * DIR (or only the given paths), each warning on stderr, the bytes written
 * at the end.  Build: cc ffextract.c $(pkg-config --cflags --libs flashfs) */
#include <flashfs/flashfs.h>
#include <stdio.h>

static void warn(void *ctx, const struct ff_extract_warning *w)
{
	fprintf(stderr, "%s: %s%s%s\n", (const char *)ctx, w->path ? w->path : "",
		w->path ? ": " : "", w->message);
}

/* Called from several threads: a real program would lock, or draw a bar. */
static void progress(void *ctx, const struct ff_extract_progress *p)
{
	struct ff_extract_progress *seen = ctx;

	if (p->bytes_done > seen->bytes_done)
		*seen = *p;
}

int main(int argc, char **argv)
{
	struct ff_extract_options o;
	struct ff_error err;
	struct ff_extract_progress seen = {0, 0, 0, 0};
	int rc;

	if (argc < 3) {
		fprintf(stderr, "usage: ffextract IMAGE DIR [PATH...]\n");
		return 2;
	}
	ff_extract_options_init(&o, sizeof(o));
	o.warn = warn;
	o.warn_ctx = argv[1];
	o.progress = progress;
	o.progress_ctx = &seen;
	rc = ff_extract(argv[1], argv[2], (const char *const *)argv + 3, (size_t)(argc - 3), &o,
			&err);
	if (rc < 0)
		fprintf(stderr, "ffextract: %s\n", err.message);
	else
		printf("%s: %llu of %llu file bytes written%s\n", argv[2],
		       (unsigned long long)seen.bytes_done, (unsigned long long)seen.bytes_total,
		       rc ? ", some entries not" : "");
	return rc < 0 ? 2 : rc;
}
