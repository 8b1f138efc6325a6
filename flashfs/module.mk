# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# flashfs/: the flashfs command, its subcommands (cmd_*.c, listed in the
# command table of flashfs_main.c) and mount.fuse.flashfs, the helper
# mount(8) runs for type fuse.flashfs.
flashfs_USES := bench fuse extract diff mtd image squashfs yaffs2 tree compress common
PROGRAMS += flashfs
flashfs_MAIN := flashfs/flashfs_main.c
MANPAGES += docs/man/flashfs.1 docs/man/flashfs-extract.1 docs/man/flashfs-diff.1 docs/man/mount.fuse.flashfs.8
PROGRAMS += mount.fuse.flashfs
mount.fuse.flashfs_MAIN := flashfs/mount_helper_main.c
