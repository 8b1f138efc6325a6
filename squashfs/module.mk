# squashfs/: the SquashFS 4.0 format, reader and writer.
squashfs_USES := tree compress common
squashfs_PKGS := zlib
