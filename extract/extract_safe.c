/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include "extract/extract_safe.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Kernels before 5.6 (and valgrind, some sandboxes) have no openat2: walk
 * the path one component at a time instead, refusing "..", empty
 * components and symlinks at every step, which is what RESOLVE_BENEATH |
 * RESOLVE_NO_SYMLINKS would have enforced. */
static int open_beneath_walk(int root, const char *rel, int flags, unsigned mode)
{
	int dir = root, fd;
	const char *p = rel;

	if (*p == '/')
		return errno = EXDEV, -1;
	for (;;) {
		const char *slash = strchr(p, '/');
		size_t len = slash ? (size_t)(slash - p) : strlen(p);
		char name[256];

		if (!ff_name_safe(p, len) || len >= sizeof(name)) {
			if (dir != root)
				close(dir);
			return errno = EXDEV, -1;
		}
		memcpy(name, p, len);
		name[len] = '\0';
		if (!slash) {
			fd = openat(dir, name, flags | O_CLOEXEC | O_NOFOLLOW, mode);
		} else {
			fd = openat(dir, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
		}
		if (dir != root) {
			int e = errno;

			close(dir);
			errno = e;
		}
		if (fd < 0 || !slash)
			return fd;
		dir = fd;
		p = slash + 1;
	}
}

int ff_open_beneath(int root, const char *rel, int flags, unsigned mode)
{
	struct open_how how = {
		.flags = (unsigned long long)(flags | O_CLOEXEC | O_NOFOLLOW),
		.mode = (flags & O_CREAT) ? mode : 0,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	int fd = (int)syscall(SYS_openat2, root, rel, &how, sizeof(how));

	if (fd < 0 && errno == ENOSYS)
		return open_beneath_walk(root, rel, flags, mode);
	return fd;
}

int ff_name_safe(const char *name, size_t len)
{
	if (len == 0 || (len == 1 && name[0] == '.') || (len == 2 && !memcmp(name, "..", 2)))
		return 0;
	return !memchr(name, '/', len) && !memchr(name, '\0', len);
}
