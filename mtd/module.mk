# mtd/: writing images to MTD flash and reading them back, through libmtd
# (static: -lmtd, no pkg-config file).
mtd_USES := image yaffs2 common
mtd_LDLIBS := -lmtd
