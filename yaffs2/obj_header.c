#include "yaffs2/obj_header.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "common/endian.h"

static void put_time(uint8_t *buf, size_t yst_off, size_t win_off, int64_t t, int big)
{
	uint32_t low = (uint32_t)(uint64_t)t;

	ff_put32(buf + yst_off, low, big);
	ff_put32(buf + win_off, low, big);
	ff_put32(buf + win_off + 4, (uint32_t)((uint64_t)t >> 32), big);
}

static int64_t get_time(const uint8_t *buf, size_t yst_off, size_t win_off, int big)
{
	uint32_t low = ff_get32(buf + yst_off, big);
	uint64_t high = 0;

	if (ff_get32(buf + win_off, big) == low && ff_get32(buf + win_off + 4, big) != 0xffffffffu)
		high = ff_get32(buf + win_off + 4, big);
	return (int64_t)((high << 32) | low);
}

void ff_y2_obj_header_encode(const struct ff_y2_obj_header *oh, uint8_t *buf, int big)
{
	memset(buf, 0xff, FF_Y2_OBJ_HEADER_SIZE);
	ff_put32(buf + 0, oh->type, big);
	ff_put32(buf + 4, oh->parent_id, big);
	memset(buf + 10, 0, FF_Y2_NAME_MAX + 1);
	memcpy(buf + 10, oh->name, strnlen(oh->name, FF_Y2_NAME_MAX));
	buf[266] = buf[267] = 0xff; /* alignment padding */
	ff_put32(buf + 268, oh->mode, big);
	ff_put32(buf + 272, oh->uid, big);
	ff_put32(buf + 276, oh->gid, big);
	put_time(buf, 280, 472, oh->atime, big);
	put_time(buf, 284, 480, oh->mtime, big);
	put_time(buf, 288, 464, oh->ctime, big);
	ff_put32(buf + 292, (uint32_t)oh->file_size, big);
	ff_put32(buf + 296, oh->equiv_id, big);
	memset(buf + 300, 0, FF_Y2_ALIAS_MAX + 1);
	memcpy(buf + 300, oh->alias, strnlen(oh->alias, FF_Y2_ALIAS_MAX));
	ff_put32(buf + 460, oh->rdev, big);
	ff_put32(buf + 488, 0, big);
	ff_put32(buf + 492, 0, big);
	ff_put32(buf + 496, (uint32_t)(oh->file_size >> 32), big);
	ff_put32(buf + 504, oh->shadows_obj, big);
	ff_put32(buf + 508, oh->is_shrink, big);
}

static int set_word(const uint8_t *buf, size_t off, int big)
{
	uint32_t v = ff_get32(buf + off, big);

	return v != 0 && v != 0xffffffffu;
}

static int get_string(const uint8_t *src, size_t cap, char *dst, const char *what,
		      struct ff_err *err)
{
	size_t len = strnlen((const char *)src, cap);

	if (len == cap)
		return ff_err_set(err, EIO, "object header: %s not terminated within %zu bytes",
				  what, cap);
	memcpy(dst, src, len + 1);
	return 0;
}

int ff_y2_obj_header_decode(const uint8_t *buf, int big, struct ff_y2_obj_header *oh,
			    struct ff_err *err)
{
	uint32_t high;

	memset(oh, 0, sizeof(*oh));
	oh->type = ff_get32(buf, big);
	if (oh->type < FF_Y2_TYPE_FILE || oh->type > FF_Y2_TYPE_SPECIAL)
		return ff_err_set(err, EIO, "object header: unknown type %u", oh->type);
	oh->parent_id = ff_get32(buf + 4, big);
	if (get_string(buf + 10, FF_Y2_NAME_MAX + 1, oh->name, "name", err))
		return -1;
	oh->mode = ff_get32(buf + 268, big);
	oh->uid = ff_get32(buf + 272, big);
	oh->gid = ff_get32(buf + 276, big);
	oh->atime = get_time(buf, 280, 472, big);
	oh->mtime = get_time(buf, 284, 480, big);
	oh->ctime = get_time(buf, 288, 464, big);
	high = ff_get32(buf + 496, big);
	/* mkyaffs2image leaves file_size_high erased (0xffffffff). */
	oh->file_size = ff_get32(buf + 292, big) | (high == 0xffffffffu ? 0 : (uint64_t)high << 32);
	oh->equiv_id = ff_get32(buf + 296, big);
	if (oh->type == FF_Y2_TYPE_SYMLINK &&
	    get_string(buf + 300, FF_Y2_ALIAS_MAX + 1, oh->alias, "symlink target", err))
		return -1;
	oh->rdev = ff_get32(buf + 460, big);
	/* With inband tags the driver may keep these two in the inband_*
	 * copies; erased (0xffffffff) words mean "not set". */
	oh->shadows_obj = set_word(buf, 504, big) ? ff_get32(buf + 504, big)
						 : set_word(buf, 488, big) ? ff_get32(buf + 488, big) : 0;
	oh->is_shrink = (set_word(buf, 508, big) && ff_get32(buf + 508, big)) ||
			(set_word(buf, 492, big) && ff_get32(buf + 492, big));
	return 0;
}

int ff_y2_rdev_encode(uint32_t major, uint32_t minor, uint32_t *rdev)
{
	if (major > 255 || minor > 255)
		return -1;
	*rdev = (major << 8) | minor;
	return 0;
}

void ff_y2_rdev_decode(uint32_t rdev, uint32_t *major, uint32_t *minor)
{
	*major = (rdev >> 8) & 0xff;
	*minor = rdev & 0xff;
}

enum ff_y2_obj_type ff_y2_type_for_mode(uint32_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG:
		return FF_Y2_TYPE_FILE;
	case S_IFDIR:
		return FF_Y2_TYPE_DIRECTORY;
	case S_IFLNK:
		return FF_Y2_TYPE_SYMLINK;
	default:
		return FF_Y2_TYPE_SPECIAL;
	}
}
