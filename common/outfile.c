/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include "common/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fd_size.h"

#define TMP_SUFFIX ".tmp.XXXXXX"

/* The directory part of path ("." for a bare name), malloc'ed. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

/* path + ".tmp.XXXXXX", malloc'ed, for mkostemp or random_suffix. */
static char *tmp_name(const char *path)
{
	size_t len = strlen(path);
	char *t = malloc(len + sizeof(TMP_SUFFIX));

	if (t) {
		memcpy(t, path, len);
		memcpy(t + len, TMP_SUFFIX, sizeof(TMP_SUFFIX));
	}
	return t;
}

/* An unnamed file in IMAGE's directory (O_TMPFILE): a killed build leaves
 * nothing behind, as the kernel frees an unlinked inode with its last fd.
 * -1 with errno; EOPNOTSUPP, EISDIR (a kernel without O_TMPFILE) and EINVAL
 * say the file system cannot, so the caller falls back to a named one. */
static int open_unnamed(const char *path)
{
	char *dir = dir_of(path);
	int fd, e;

	if (!dir) {
		errno = ENOMEM;
		return -1;
	}
	/* The mode is what open(2) would give: 0666 less the umask. */
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0666);
	e = errno;
	free(dir);
	errno = e;
	return fd;
}

static int no_tmpfile(int e)
{
	return e == EOPNOTSUPP || e == EISDIR || e == EINVAL;
}

/* The fallback: a named temporary IMAGE.tmp.XXXXXX beside IMAGE. */
static int open_named(struct ff_outfile *of, struct ff_err *err)
{
	of->tmp_path = tmp_name(of->path);
	if (!of->tmp_path)
		return ff_err_set(err, ENOMEM, "%s: out of memory", of->path);
	of->fd = mkostemp(of->tmp_path, O_CLOEXEC);
	if (of->fd < 0) {
		int e = errno;

		free(of->tmp_path);
		of->tmp_path = NULL;
		return ff_err_sys(err, e, "%s: cannot create temporary output", of->path);
	}
	return 0;
}

/* A block device: written in place, sized with BLKGETSIZE64. */
static int open_blockdev(struct ff_outfile *of, const char *path, struct ff_err *err)
{
	int r;

	/* read too: a writer may read back what it wrote (EROFS's inline
	 * tails, written before the blocks that hold them) */
	of->fd = open(path, O_RDWR | O_EXCL | O_CLOEXEC);
	if (of->fd < 0)
		return ff_err_sys(err, errno, "%s: cannot open the block device%s", path,
				  errno == EBUSY ? " (mounted or in use)" : "");
	r = ff_fd_size(of->fd, &of->dev_size);
	if (r < 0 || !of->dev_size) {
		ff_err_sys(err, r < 0 ? -r : ENOSPC, "%s: cannot read the device's size", path);
		ff_outfile_abort(of);
		return -1;
	}
	of->path = strdup(path);
	if (!of->path) {
		ff_outfile_abort(of);
		return ff_err_set(err, ENOMEM, "%s: out of memory", path);
	}
	return 0;
}

int ff_outfile_open(struct ff_outfile *of, const char *path, struct ff_err *err)
{
	struct stat st;

	memset(of, 0, sizeof(*of));
	of->fd = -1;
	if (!stat(path, &st) && S_ISBLK(st.st_mode))
		return open_blockdev(of, path, err);
	/* Renaming over /dev/null or a device node would replace the node
	 * itself with a regular file: only regular files are replaced. */
	if (!lstat(path, &st) && !S_ISREG(st.st_mode))
		return ff_err_set(err, EEXIST, "%s: exists and is not a regular file; not replacing it",
				  path);
	of->path = strdup(path);
	if (!of->path)
		return ff_err_set(err, ENOMEM, "%s: out of memory", path);
	of->fd = open_unnamed(path);
	if (of->fd >= 0)
		return 0;
	if (no_tmpfile(errno)) {
		if (open_named(of, err) == 0)
			return 0;
	} else {
		ff_err_sys(err, errno, "%s: cannot create output", path);
	}
	ff_outfile_abort(of);
	return -1;
}

/* mkostemp creates mode 0600; an image is an ordinary file, so give it the
 * mode open(2) would: 0666 less the umask. */
static int fchmod_default(int fd)
{
	mode_t mask = umask(0);

	umask(mask);
	return fchmod(fd, 0666 & ~mask);
}

static int write_error(struct ff_outfile *of, int e, struct ff_err *err)
{
	if (e == ENOSPC)
		return ff_err_set(err, e, "%s: no space left on device after %llu bytes",
				  of->path, (unsigned long long)of->size);
	return ff_err_sys(err, e, "%s: write failed", of->path);
}

/* Writeback of what is written is started every FLUSH_STEP bytes, so the
 * disk works while the image is made and commit's fsync waits only for
 * the last part (a 199 MB romfs on ext4: the fsync alone was half of the
 * build).  Only a hint: an error shows at the fsync, as it would without. */
#define FLUSH_STEP (8u << 20)

static void start_writeback(struct ff_outfile *of)
{
	if (of->size - of->flushed < FLUSH_STEP)
		return;
	(void)sync_file_range(of->fd, (off_t)of->flushed, (off_t)(of->size - of->flushed),
			      SYNC_FILE_RANGE_WRITE);
	of->flushed = of->size;
}

int ff_outfile_pwrite(struct ff_outfile *of, const void *buf, size_t len, uint64_t off,
		      struct ff_err *err)
{
	const uint8_t *p = buf;

	/* A device: what falls past its end is only counted, for commit's
	 * "too small by N bytes" */
	if (of->dev_size && off + len > of->dev_size) {
		uint64_t end = off + len;

		len = off < of->dev_size ? (size_t)(of->dev_size - off) : 0;
		if (end > of->size)
			of->size = end;
	}
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
	if (off > of->size) {
		of->size = off;
		start_writeback(of);
	}
	return 0;
}

int ff_outfile_write(struct ff_outfile *of, const void *buf, size_t len, struct ff_err *err)
{
	return ff_outfile_pwrite(of, buf, len, of->size, err);
}

int ff_outfile_skip(struct ff_outfile *of, uint64_t bytes, struct ff_err *err)
{
	if (of->dev_size) { /* a device's first bytes stay as they are */
		of->size = bytes;
		return 0;
	}
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

/* Give the unnamed file a name: linkat through its /proc/self/fd link
 * (allowed to anyone), or with AT_EMPTY_PATH where /proc is not mounted
 * (that one needs CAP_DAC_READ_SEARCH). */
static int link_fd(int fd, const char *name)
{
	char proc[32];

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (!linkat(AT_FDCWD, proc, AT_FDCWD, name, AT_SYMLINK_FOLLOW))
		return 0;
	if (errno != ENOENT || !access("/proc/self/fd", F_OK))
		return -1;
	return linkat(fd, "", AT_FDCWD, name, AT_EMPTY_PATH);
}

/* Replace the XXXXXX at the end of t with random letters and digits. */
static void random_suffix(char *t, unsigned salt)
{
	static const char set[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	char *x = t + strlen(t) - 6;
	unsigned char r[6];
	size_t i;

	if (getrandom(r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r))
		for (i = 0; i < sizeof(r); i++)
			r[i] = (unsigned char)((unsigned)getpid() * 31u + salt * 7u + i);
	for (i = 0; i < sizeof(r); i++)
		x[i] = set[r[i] % (sizeof(set) - 1)];
}

/* linkat never replaces a name; rename does, atomically.  So where IMAGE
 * does not exist the unnamed file is linked straight to it (no other name
 * ever exists), and where it does, the file is linked to a fresh
 * IMAGE.tmp.XXXXXX that is then renamed over IMAGE (a kill -9 between
 * those two calls is the one moment a temporary can be left). */
static int publish_unnamed(struct ff_outfile *of, struct ff_err *err)
{
	unsigned i;
	int e;

	if (!link_fd(of->fd, of->path))
		return 0;
	if (errno != EEXIST)
		return ff_err_sys(err, errno, "%s: cannot link the output into place", of->path);
	of->tmp_path = tmp_name(of->path);
	if (!of->tmp_path)
		return ff_err_set(err, ENOMEM, "%s: out of memory", of->path);
	for (i = 0;; i++) {
		random_suffix(of->tmp_path, i);
		if (!link_fd(of->fd, of->tmp_path))
			break;
		e = errno;
		free(of->tmp_path); /* nothing was created: nothing to unlink */
		of->tmp_path = NULL;
		if (e != EEXIST || i == 99)
			return ff_err_sys(err, e, "%s: cannot link the output into place", of->path);
		of->tmp_path = tmp_name(of->path);
		if (!of->tmp_path)
			return ff_err_set(err, ENOMEM, "%s: out of memory", of->path);
	}
	if (rename(of->tmp_path, of->path) < 0)
		return ff_err_sys(err, errno, "%s: cannot rename temporary into place", of->path);
	free(of->tmp_path);
	of->tmp_path = NULL;
	return 0;
}

/* The fallback's temporary already has a name: set its mode, rename it.
 * File systems without Unix modes (vfat, fusefat) refuse the mode; that is
 * no reason to fail the build. */
static int publish_named(struct ff_outfile *of, struct ff_err *err)
{
	if (fchmod_default(of->fd) < 0 && errno != ENOSYS && errno != EOPNOTSUPP && errno != EPERM)
		return ff_err_sys(err, errno, "%s: cannot set permissions", of->path);
	if (rename(of->tmp_path, of->path) < 0)
		return ff_err_sys(err, errno, "%s: cannot rename temporary into place", of->path);
	free(of->tmp_path);
	of->tmp_path = NULL;
	return 0;
}

int ff_outfile_commit(struct ff_outfile *of, struct ff_err *err)
{
	int ret = 0;

	if (of->dev_size && of->size > of->dev_size)
		ret = ff_err_set(err, ENOSPC, "%s: the image needs %llu bytes, the device has %llu: "
				 "%llu bytes too small (the device holds a partial image now)",
				 of->path, (unsigned long long)of->size,
				 (unsigned long long)of->dev_size,
				 (unsigned long long)(of->size - of->dev_size));
	if (!ret && fsync(of->fd) < 0 && errno != EINVAL)
		ret = write_error(of, errno, err);
	if (!ret && !of->dev_size)
		ret = of->tmp_path ? publish_named(of, err) : publish_unnamed(of, err);
	/* After a successful fsync, close has nothing left to report. */
	ff_outfile_abort(of);
	return ret;
}

int ff_outfile_detach(struct ff_outfile *of, struct ff_outfile_kept *k, struct ff_err *err)
{
	int fd = of->fd;

	if (of->dev_size) {
		ff_outfile_abort(of);
		return ff_err_set(err, EINVAL, "a block device cannot be kept as a temporary");
	}
	/* Through the descriptor that wrote it, fusefat reads a named file
	 * back wrong (the last writes out of place); a fresh one reads it
	 * right.  An unnamed file needs no such care. */
	if (of->tmp_path) {
		close(of->fd);
		of->fd = -1;
		fd = open(of->tmp_path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			ff_err_sys(err, errno, "%s: cannot reopen the temporary output",
				   of->tmp_path);
			ff_outfile_abort(of);
			return -1;
		}
	}
	k->fd = fd;
	k->name = of->tmp_path;
	of->fd = -1;
	of->tmp_path = NULL;
	ff_outfile_abort(of);
	return 0;
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
