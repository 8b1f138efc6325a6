/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* ffbuild IMAGE [DIR]: a SquashFS image of DIR, or without DIR of a few
 * entries it adds itself.  Build: cc ffbuild.c $(pkg-config --cflags --libs
 * flashfs) */
#define _DEFAULT_SOURCE /* S_IFIFO, S_ISSOCK under -std=c11 */
#include <flashfs/flashfs.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static int add_entries(struct ff_fstree *t, struct ff_error *err)
{
	struct ff_meta dir = { 0755, 0, 0, 1700000000 }, file = { 0644, 1000, 100, 1700000000 };
	struct ff_meta fifo = { S_IFIFO | 0600, 0, 0, 1700000000 };
	struct ff_meta tty = { S_IFCHR | 0620, 0, 5, 1700000000 };
	static const char motd[] = "built with libflashfs\n";

	return ff_fstree_add_dir(t, "etc", &dir, err) ||
	       ff_fstree_add_file(t, "etc/motd", &file, motd, strlen(motd), err) ||
	       ff_fstree_set_xattr(t, "etc/motd", "user.origin", "ffbuild", 7, err) ||
	       ff_fstree_add_hardlink(t, "etc/motd.link", "etc/motd", err) ||
	       ff_fstree_add_symlink(t, "etc/issue", &dir, "motd", err) ||
	       ff_fstree_add_file(t, "var/empty", &file, "", 0, err) ||
	       ff_fstree_add_device(t, "dev/tty0", &tty, 4, 0, err) ||
	       ff_fstree_add_device(t, "dev/initctl", &fifo, 0, 0, err);
}

int main(int argc, char **argv)
{
	struct ff_squashfs_options o;
	struct ff_fstree *t = NULL;
	struct ff_error err;
	int rc;

	if (argc < 2) {
		fprintf(stderr, "usage: ffbuild IMAGE [DIR]\n");
		return 2;
	}
	ff_squashfs_options_init(&o);
	o.codec = "xz";
	o.mkfs_time = 1700000000;
	rc = ff_fstree_create(NULL, &t, &err) ||
	     (argc > 2 ? ff_fstree_scan_dir(t, argv[2], &err) : add_entries(t, &err)) ||
	     ff_squashfs_write(t, argv[1], &o, &err);
	if (rc)
		fprintf(stderr, "ffbuild: %s\n", err.message);
	ff_fstree_destroy(t);
	return rc ? 1 : 0;
}
