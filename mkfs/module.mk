# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# mkfs/: the mkfs mains, and what two of them share: mkfs.squashfs' option
# parser and build step (squashfs_args.c, squashfs_build.c, mkfs.ubi
# --squashfs runs them too, ubi_squashfs.c), mkfs.ubifs' option parser
# (ubifs_args.c; mkfs.ubi --ubifs, ubi_ubifs.c), the one-step volume's
# options (ubi_volume.c) and the mksquashfs word table.  The work itself
# is done in tree/ and the format folders.
mkfs_USES := squashfs ubi ubifs cramfs romfs jffs2 erofs tree compress common
PROGRAMS += mkfs.squashfs mkfs.yaffs2 mkfs.ubi ffmkfs.cramfs mkfs.romfs ffmkfs.jffs2 ffmkfs.ubifs ffmkfs.erofs
mkfs.squashfs_MAIN := mkfs/mkfs_squashfs_main.c
mkfs.yaffs2_MAIN := mkfs/mkfs_yaffs2_main.c
mkfs.ubi_MAIN := mkfs/mkfs_ubi_main.c
ffmkfs.cramfs_MAIN := mkfs/mkfs_cramfs_main.c
mkfs.romfs_MAIN := mkfs/mkfs_romfs_main.c
ffmkfs.jffs2_MAIN := mkfs/mkfs_jffs2_main.c
ffmkfs.ubifs_MAIN := mkfs/mkfs_ubifs_main.c
ffmkfs.erofs_MAIN := mkfs/mkfs_erofs_main.c
mkfs.squashfs_LINK := squashfs tree compress common
mkfs.yaffs2_LINK := yaffs2 tree compress common
mkfs.ubi_LINK := ubi squashfs ubifs tree compress common
ffmkfs.cramfs_LINK := cramfs tree compress common
mkfs.romfs_LINK := romfs tree compress common
ffmkfs.jffs2_LINK := jffs2 tree compress common
ffmkfs.ubifs_LINK := ubifs tree compress common
ffmkfs.erofs_LINK := erofs tree compress common
# Both builders' pages, and the spec file format they read (section 5).
MANPAGES += docs/man/mkfs.squashfs.1 docs/man/mkfs.yaffs2.1 docs/man/mkfs.ubi.1 docs/man/spec-format.5
MANPAGES += docs/man/ffmkfs.cramfs.1 docs/man/mkfs.romfs.1 docs/man/ffmkfs.jffs2.1 docs/man/ffmkfs.ubifs.1 docs/man/ffmkfs.erofs.1
