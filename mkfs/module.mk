# mkfs/: the mkfs mains, and what two of them share: mkfs.squashfs' option
# parser and build step (squashfs_args.c, squashfs_build.c, mkfs.ubi
# --squashfs runs them too, ubi_squashfs.c) and the mksquashfs word table.  The work itself
# is done in tree/ and the format folders.
mkfs_USES := squashfs ubi tree compress common
PROGRAMS += mkfs.squashfs mkfs.yaffs2 mkfs.ubi
mkfs.squashfs_MAIN := mkfs/mkfs_squashfs_main.c
mkfs.yaffs2_MAIN := mkfs/mkfs_yaffs2_main.c
mkfs.ubi_MAIN := mkfs/mkfs_ubi_main.c
mkfs.squashfs_LINK := squashfs tree compress common
mkfs.yaffs2_LINK := yaffs2 tree compress common
mkfs.ubi_LINK := ubi squashfs tree compress common
# Both builders' pages, and the spec file format they read (section 5).
MANPAGES += docs/man/mkfs.squashfs.1 docs/man/mkfs.yaffs2.1 docs/man/mkfs.ubi.1 docs/man/spec-format.5
