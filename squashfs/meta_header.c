#include <errno.h>

#include "squashfs/format.h"

uint16_t sqfs_meta_header_encode(uint32_t size, int uncompressed)
{
	return (uint16_t)(size | (uncompressed ? SQFS_META_UNCOMPRESSED : 0));
}

int sqfs_meta_header_decode(uint16_t raw, uint32_t *size, int *uncompressed,
			    struct ff_err *err)
{
	*uncompressed = (raw & SQFS_META_UNCOMPRESSED) != 0;
	*size = raw & ~SQFS_META_UNCOMPRESSED;
	if (*size == 0 || *size > SQFS_META_SIZE)
		return ff_err_set(err, EINVAL, "metadata block: stored size %u not in 1..%u", *size,
				  SQFS_META_SIZE);
	return 0;
}
