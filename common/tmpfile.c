/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Scratch files: O_TMPFILE where the file system has it, else a name made
 * and unlinked at once, so nothing is left behind by a killed build. */
#include "common/tmpfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int ff_tmpfile_open(const char *what, struct ff_err *err)
{
	const char *dir = getenv("TMPDIR");
	char tmpl[4096];
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
	snprintf(tmpl, sizeof(tmpl), "%s/ff-%s.XXXXXX", dir, what);
	fd = mkostemp(tmpl, O_CLOEXEC);
	if (fd < 0)
		return ff_err_sys(err, errno, "%s: cannot create a scratch file for the %s", dir,
				  what);
	unlink(tmpl);
	return fd;
}

int ff_tmpfile_pwrite(int fd, const void *buf, size_t len, uint64_t off, const char *what,
		      struct ff_err *err)
{
	const char *p = buf;

	while (len) {
		ssize_t n = pwrite(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return ff_err_sys(err, n < 0 ? errno : ENOSPC,
					  "%s scratch file: cannot write %zu bytes at %llu", what,
					  len, (unsigned long long)off);
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

int ff_tmpfile_pread(int fd, void *buf, size_t len, uint64_t off, const char *what,
		     struct ff_err *err)
{
	char *p = buf;

	while (len) {
		ssize_t n = pread(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return ff_err_sys(err, n < 0 ? errno : EIO,
					  "%s scratch file: cannot read %zu bytes at %llu", what,
					  len, (unsigned long long)off);
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}
