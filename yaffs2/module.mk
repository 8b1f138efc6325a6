yaffs2_USES := tree compress common

# yaffs2/ builds only its library; the mkfs.yaffs2 program and its man page are declared in mkfs/module.mk.
