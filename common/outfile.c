#include "common/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int ff_outfile_open(struct ff_outfile *of, const char *path, struct ff_err *err)
{
	size_t len = strlen(path);
	struct stat st;

	/* Renaming over /dev/null or a device node would replace the node
	 * itself with a regular file: only regular files are replaced. */
	if (!lstat(path, &st) && !S_ISREG(st.st_mode)) {
		memset(of, 0, sizeof(*of));
		of->fd = -1;
		return ff_err_set(err, EEXIST, "%s: exists and is not a regular file; not replacing it",
				  path);
	}

	memset(of, 0, sizeof(*of));
	of->fd = -1;
	of->path = strdup(path);
	of->tmp_path = malloc(len + sizeof(".tmp.XXXXXX"));
	if (!of->path || !of->tmp_path) {
		ff_outfile_abort(of);
		return ff_err_set(err, ENOMEM, "%s: out of memory", path);
	}
	memcpy(of->tmp_path, path, len);
	memcpy(of->tmp_path + len, ".tmp.XXXXXX", sizeof(".tmp.XXXXXX"));
	of->fd = mkostemp(of->tmp_path, O_CLOEXEC);
	if (of->fd < 0) {
		int e = errno;

		free(of->tmp_path);
		of->tmp_path = NULL;
		ff_outfile_abort(of);
		return ff_err_sys(err, e, "%s: cannot create temporary output", path);
	}
	return 0;
}

/* mkostemp creates mode 0600; an image is an ordinary file, so give it the
 * mode open(2) would: 0666 less the umask. */
static int fchmod_path_default(const char *path)
{
	mode_t mask = umask(0);

	umask(mask);
	return chmod(path, 0666 & ~mask);
}

static int write_error(struct ff_outfile *of, int e, struct ff_err *err)
{
	if (e == ENOSPC)
		return ff_err_set(err, e, "%s: no space left on device after %llu bytes",
				  of->path, (unsigned long long)of->size);
	return ff_err_sys(err, e, "%s: write failed", of->path);
}

int ff_outfile_pwrite(struct ff_outfile *of, const void *buf, size_t len, uint64_t off,
		      struct ff_err *err)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t n = pwrite(of->fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return write_error(of, n < 0 ? errno : ENOSPC, err);
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	if (off > of->size)
		of->size = off;
	return 0;
}

int ff_outfile_write(struct ff_outfile *of, const void *buf, size_t len, struct ff_err *err)
{
	return ff_outfile_pwrite(of, buf, len, of->size, err);
}

int ff_outfile_skip(struct ff_outfile *of, uint64_t bytes, struct ff_err *err)
{
	if (ftruncate(of->fd, (off_t)bytes) < 0)
		return ff_err_sys(err, errno, "%s: cannot reserve %llu bytes", of->path,
				  (unsigned long long)bytes);
	of->size = bytes;
	return 0;
}

int ff_outfile_pad(struct ff_outfile *of, uint64_t align, struct ff_err *err)
{
	static const uint8_t zeros[4096];
	uint64_t rem = of->size % align;
	uint64_t need = rem ? align - rem : 0;

	while (need) {
		size_t chunk = need < sizeof(zeros) ? (size_t)need : sizeof(zeros);

		if (ff_outfile_write(of, zeros, chunk, err) < 0)
			return -1;
		need -= chunk;
	}
	return 0;
}

int ff_outfile_commit(struct ff_outfile *of, struct ff_err *err)
{
	int ret = 0;

	if (fsync(of->fd) < 0 && errno != EINVAL)
		ret = write_error(of, errno, err);
	if (!ret && close(of->fd) < 0)
		ret = write_error(of, errno, err);
	of->fd = -1;
	if (!ret && fchmod_path_default(of->tmp_path) < 0)
		ret = ff_err_sys(err, errno, "%s: cannot set permissions", of->path);
	if (!ret && rename(of->tmp_path, of->path) < 0)
		ret = ff_err_sys(err, errno, "%s: cannot rename temporary into place", of->path);
	if (!ret) {
		free(of->tmp_path);
		of->tmp_path = NULL;
	}
	ff_outfile_abort(of);
	return ret;
}

void ff_outfile_abort(struct ff_outfile *of)
{
	if (of->fd >= 0)
		close(of->fd);
	of->fd = -1;
	if (of->tmp_path)
		unlink(of->tmp_path);
	free(of->tmp_path);
	free(of->path);
	of->tmp_path = NULL;
	of->path = NULL;
}
