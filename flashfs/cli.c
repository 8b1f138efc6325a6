#include "flashfs/cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "image/image.h"

static int parse_size(const char *s, uint64_t *v)
{
	char *end;
	unsigned long long n;

	errno = 0;
	n = strtoull(s, &end, 0);
	if (errno || end == s || *s == '-')
		return -1;
	switch (*end) {
	case 'k': case 'K': n <<= 10; end++; break;
	case 'm': case 'M': n <<= 20; end++; break;
	case 'g': case 'G': n <<= 30; end++; break;
	default: break;
	}
	if (*end)
		return -1;
	*v = n;
	return 0;
}

int ff_cli_option(const char *cmd, int c, const char *arg, struct ff_open_opts *o)
{
	uint64_t *dst;

	if (c == FF_OPT_OFFSET)
		dst = &o->offset;
	else if (c == FF_OPT_CACHE)
		dst = &o->cache_bytes;
	else
		return 0;
	if (parse_size(arg, dst) < 0) {
		fprintf(stderr, "flashfs %s: bad number '%s'\n", cmd, arg);
		return -1;
	}
	return 1;
}

static void log_stderr(void *ctx, const char *msg)
{
	fprintf(stderr, "flashfs: %s: %s\n", (const char *)ctx, msg);
}

int ff_cli_open(const char *cmd, const char *image, struct ff_open_opts *o, struct ff_fs **fs)
{
	struct ff_err err = {0};

	o->log = log_stderr;
	o->log_ctx = (void *)image;
	if (ff_image_open(image, o, fs, &err) < 0) {
		ff_cli_open_error(cmd, image, o, &err, "--offset ");
		return -1;
	}
	return 0;
}

/* Readers often name the image themselves; it is not printed twice. */
void ff_cli_open_error(const char *cmd, const char *image, const struct ff_open_opts *o,
		       const struct ff_err *err, const char *offset_option)
{
	const char *what;
	uint64_t at;

	if (err->code != FF_IMAGE_UNKNOWN || o->offset != 0) {
		if (!strncmp(err->msg, image, strlen(image)))
			fprintf(stderr, "flashfs %s: %s\n", cmd, err->msg);
		else
			fprintf(stderr, "flashfs %s: %s: %s\n", cmd, image, err->msg);
		return;
	}
	what = ff_image_locate(image, o, &at);
	if (!what) {
		fprintf(stderr, "flashfs %s: %s: %s, at offset 0 or at any %u-byte step of its first "
			"%llu MiB\n", cmd, image, err->msg, FF_IMAGE_SCAN_STEP,
			FF_IMAGE_SCAN_BYTES >> 20);
		return;
	}
	fprintf(stderr, "flashfs %s: %s: no image at offset 0; %s is at offset %llu: try %s%llu\n",
		cmd, image, what, (unsigned long long)at, offset_option, (unsigned long long)at);
}

void ff_mode_string(uint32_t mode, char out[11])
{
	static const char rwx[] = "rwxrwxrwx";
	int i;

	switch (mode & S_IFMT) {
	case S_IFDIR: out[0] = 'd'; break;
	case S_IFLNK: out[0] = 'l'; break;
	case S_IFCHR: out[0] = 'c'; break;
	case S_IFBLK: out[0] = 'b'; break;
	case S_IFIFO: out[0] = 'p'; break;
	case S_IFSOCK: out[0] = 's'; break;
	default: out[0] = '-'; break;
	}
	for (i = 0; i < 9; i++)
		out[1 + i] = (mode & (0400u >> i)) ? rwx[i] : '-';
	if (mode & S_ISUID)
		out[3] = out[3] == 'x' ? 's' : 'S';
	if (mode & S_ISGID)
		out[6] = out[6] == 'x' ? 's' : 'S';
	if (mode & S_ISVTX)
		out[9] = out[9] == 'x' ? 't' : 'T';
	out[10] = '\0';
}

void ff_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}
