/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* libflashfs: errors, and the attribute that marks the public API.
 *
 * Every function that can fail takes a `struct ff_error *err` as its last
 * argument (NULL is allowed when the caller does not want the message).  On
 * failure the function returns -1 (or NULL) and fills *err: `code` is a
 * positive errno value (ENOENT, EINVAL, EIO for a damaged image, ENOMEM...)
 * and `message` a one-line description naming the file or thing and the
 * problem, e.g. "rootfs.img: inode 1234: block list points past end of
 * image (offset 9999999 > size 8192000)".  The library never prints and
 * never exits; what to show is the caller's choice.
 *
 * The struct is the caller's, so threads that share an object each pass
 * their own and never see each other's messages. */
#ifndef FLASHFS_ERROR_H
#define FLASHFS_ERROR_H

#if defined(__GNUC__)
#define FF_API __attribute__((visibility("default")))
#else
#define FF_API
#endif

#define FF_ERROR_MESSAGE_MAX 512

struct ff_error {
	int code;                           /* positive errno value; 0 = none */
	char message[FF_ERROR_MESSAGE_MAX]; /* NUL-terminated, "" when none */
};

#endif
