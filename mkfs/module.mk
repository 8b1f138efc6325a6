PROGRAMS += mkfs.squashfs mkfs.yaffs2
mkfs.squashfs_MAIN := mkfs/mkfs_squashfs_main.c
mkfs.yaffs2_MAIN := mkfs/mkfs_yaffs2_main.c
