# yaffs2/ builds only its library (plus mtd.c from the MTD work); the
# mkfs.yaffs2 program and its man page are declared in mkfs/module.mk.
