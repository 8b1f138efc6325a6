PROGRAMS += flashfs
flashfs_MAIN := flashfs/flashfs_main.c
MANPAGES += docs/man/flashfs.1 docs/man/flashfs-extract.1
