/* The geometry of an image to read, from its EC headers: they give the
 * VID header and data offsets, and the distance between two of them the
 * PEB size. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "ubi/reader_priv.h"

#define PEB_SEARCH_MAX (16u << 20) /* largest eraseblock looked for */
#define SEARCH_STEP 512u           /* EC headers start on a 512-byte unit */

static int ec_at(struct ff_ubi_image *img, uint64_t off, struct ff_ubi_ec_hdr *h)
{
	uint8_t buf[FF_UBI_HDR_SIZE];

	if (off + sizeof(buf) > img->size)
		return -1;
	if (pread(img->fd, buf, sizeof(buf), (off_t)(img->offset + off)) != (ssize_t)sizeof(buf))
		return -1;
	return ff_ubi_ec_hdr_decode(buf, h) == FF_UBI_HDR_OK ? 0 : -1;
}

static int same_image(const struct ff_ubi_ec_hdr *a, const struct ff_ubi_ec_hdr *b)
{
	return a->image_seq == b->image_seq && a->vid_hdr_offset == b->vid_hdr_offset &&
	       a->data_offset == b->data_offset;
}

/* The PEB size: the distance between the first two EC headers of this
 * image (a dump may start with a bad, erased or foreign PEB). */
static uint32_t find_peb_size(struct ff_ubi_image *img, uint64_t first,
			      const struct ff_ubi_ec_hdr *ref)
{
	struct ff_ubi_ec_hdr h;

	for (uint64_t d = SEARCH_STEP; d <= PEB_SEARCH_MAX && first + d < img->size;
	     d += SEARCH_STEP)
		if (d > ref->data_offset && first % d == 0 && ec_at(img, first + d, &h) == 0 &&
		    same_image(ref, &h))
			return (uint32_t)d;
	return 0;
}

int ff_ubi_detect_geometry(struct ff_ubi_image *img, uint32_t peb_size, struct ff_err *err)
{
	struct ff_ubi_ec_hdr ref;
	uint64_t first = 0;

	while (first < PEB_SEARCH_MAX && ec_at(img, first, &ref) < 0)
		first += SEARCH_STEP;
	if (first >= PEB_SEARCH_MAX)
		return ff_err_set(err, EINVAL, "no valid UBI EC header in the first %u MiB",
				  PEB_SEARCH_MAX >> 20);
	if (!peb_size)
		peb_size = find_peb_size(img, first, &ref);
	if (!peb_size)
		return ff_err_set(err, EINVAL, "cannot tell the PEB size: no second EC header of "
				  "image sequence %u found", ref.image_seq);
	if (ref.vid_hdr_offset < FF_UBI_HDR_SIZE ||
	    (uint64_t)ref.vid_hdr_offset + FF_UBI_HDR_SIZE > ref.data_offset ||
	    ref.data_offset >= peb_size || first % peb_size)
		return ff_err_set(err, EINVAL, "EC header at %llu: VID header offset %u, data "
				  "offset %u do not fit a PEB of %u bytes",
				  (unsigned long long)first, ref.vid_hdr_offset, ref.data_offset,
				  peb_size);
	img->peb_size = peb_size;
	img->vid_hdr_offs = ref.vid_hdr_offset;
	img->data_offs = ref.data_offset;
	img->leb_size = peb_size - ref.data_offset;
	img->image_seq = ref.image_seq;
	img->version = ref.version;
	img->pebs = (uint32_t)(img->size / peb_size);
	img->peb_buf = malloc(peb_size);
	if (!img->peb_buf)
		return ff_err_set(err, ENOMEM, "out of memory");
	if (img->size % peb_size &&
	    ff_ubi_problem_add(img, "image size %llu is not a multiple of the PEB size %u: the "
			       "last %llu bytes are ignored", (unsigned long long)img->size,
			       peb_size, (unsigned long long)(img->size % peb_size)) < 0)
		return ff_err_set(err, ENOMEM, "out of memory");
	return 0;
}
