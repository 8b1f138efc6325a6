/* Opening and closing a scanned UBI image; the problem list; the summary. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ubi/reader_priv.h"

int ff_ubi_probe(const uint8_t *buf, size_t len)
{
	return len >= 4 && buf[0] == 'U' && buf[1] == 'B' && buf[2] == 'I' && buf[3] == '#';
}

int ff_ubi_problem_add(struct ff_ubi_image *img, const char *fmt, ...)
{
	char **p = realloc(img->problems, (img->n_problems + 1) * sizeof(*p));
	char buf[256];
	va_list ap;

	if (!p)
		return -1;
	img->problems = p;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!(p[img->n_problems] = strdup(buf)))
		return -1;
	img->n_problems++;
	return 0;
}

int ff_ubi_read_peb(const struct ff_ubi_image *img, uint32_t peb, uint32_t off, void *buf,
		    size_t len, struct ff_err *err)
{
	uint64_t pos = img->offset + (uint64_t)peb * img->peb_size + off;
	uint8_t *p = buf;

	while (len) {
		ssize_t r = pread(img->fd, p, len, (off_t)pos);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return ff_err_sys(err, r < 0 ? errno : EIO, "PEB %u: read at offset %llu",
					  peb, (unsigned long long)pos);
		p += r;
		len -= (size_t)r;
		pos += (uint64_t)r;
	}
	return 0;
}

int ff_ubi_open(int fd, uint64_t offset, uint32_t peb_size, struct ff_ubi_image **out,
		struct ff_err *err)
{
	struct ff_ubi_image *img = calloc(1, sizeof(*img));
	struct stat st;

	*out = NULL;
	if (!img)
		return ff_err_set(err, ENOMEM, "out of memory");
	img->fd = fd;
	img->offset = offset;
	if (fstat(fd, &st) < 0 || (uint64_t)st.st_size < offset) {
		free(img);
		return ff_err_set(err, EINVAL, "image shorter than the offset");
	}
	img->size = (uint64_t)st.st_size - offset;
	if (ff_ubi_detect_geometry(img, peb_size, err) < 0 || ff_ubi_scan(img, err) < 0 ||
	    ff_ubi_read_vtbl(img, err) < 0 || ff_ubi_volumes_finish(img, err) < 0) {
		ff_ubi_close(img);
		return -1;
	}
	*out = img;
	return 0;
}

void ff_ubi_close(struct ff_ubi_image *img)
{
	if (!img)
		return;
	for (size_t i = 0; i < img->n_problems; i++)
		free(img->problems[i]);
	free(img->problems);
	free(img->lebs);
	free(img->vols);
	free(img->peb_buf);
	free(img);
}

size_t ff_ubi_problem_count(const struct ff_ubi_image *img)
{
	return img->n_problems;
}

const char *ff_ubi_problem(const struct ff_ubi_image *img, size_t i)
{
	return i < img->n_problems ? img->problems[i] : NULL;
}

void ff_ubi_summary(const struct ff_ubi_image *img, struct ff_ubi_summary *s)
{
	*s = (struct ff_ubi_summary){
		.peb_size = img->peb_size, .leb_size = img->leb_size,
		.vid_hdr_offs = img->vid_hdr_offs, .data_offs = img->data_offs,
		.image_seq = img->image_seq, .version = img->version, .pebs = img->pebs,
		.used_pebs = (uint32_t)img->n_lebs, .erased_pebs = img->erased_pebs,
		.bad_pebs = img->bad_pebs, .old_copies = img->old_copies, .max_ec = img->max_ec,
		.image_bytes = img->size,
	};
}
