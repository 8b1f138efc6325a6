# yaffs2/ builds only its library (plus mtd.c from the MTD work); the
# mkfs.yaffs2 program is declared in mkfs/module.mk.
MANPAGES += docs/man/mkfs.yaffs2.1
