# image/: the one place that detects an image's format and opens it.
image_USES := squashfs yaffs2 ubi compress common
