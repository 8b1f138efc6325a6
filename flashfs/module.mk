PROGRAMS += flashfs
flashfs_MAIN := flashfs/flashfs_main.c
