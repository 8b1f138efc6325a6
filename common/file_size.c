#include "common/file_size.h"

#include <errno.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

static const char *kind(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFDIR: return "a directory";
	case S_IFCHR: return "a character device";
	case S_IFIFO: return "a pipe";
	case S_IFSOCK: return "a socket";
	default: return "not a regular file";
	}
}

int ff_file_size(int fd, const char *path, uint64_t *size, struct ff_err *err)
{
	struct stat st;
	uint64_t bytes;

	if (fstat(fd, &st) < 0)
		return ff_err_sys(err, errno, "%s", path);
	if (S_ISREG(st.st_mode)) {
		*size = (uint64_t)st.st_size;
		return 0;
	}
	if (!S_ISBLK(st.st_mode))
		return ff_err_set(err, EINVAL, "%s: is %s, not an image file or block device", path,
				  kind(st.st_mode));
	if (ioctl(fd, BLKGETSIZE64, &bytes) < 0)
		return ff_err_sys(err, errno, "%s: block device size (BLKGETSIZE64)", path);
	*size = bytes;
	return 0;
}
