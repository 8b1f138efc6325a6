/* The flashfs subcommands.  Each is a thin main: it parses its options,
 * calls the libraries, prints, and returns the exit code
 * (0 ok, 1 problems found or partial failure, 2 usage or fatal error). */
#ifndef FF_FLASHFS_COMMANDS_H
#define FF_FLASHFS_COMMANDS_H

int ff_cmd_info(int argc, char **argv);    /* flashfs/cmd_info.c */
int ff_cmd_ls(int argc, char **argv);      /* flashfs/cmd_ls.c */
int ff_cmd_cat(int argc, char **argv);     /* flashfs/cmd_cat.c */
int ff_cmd_extract(int argc, char **argv); /* flashfs/cmd_extract.c */
int ff_cmd_check(int argc, char **argv);   /* flashfs/cmd_check.c */
int ff_cmd_mount(int argc, char **argv);   /* fuse/cmd_mount.c */
int ff_cmd_flash(int argc, char **argv);   /* flashfs/cmd_flash.c */
int ff_cmd_dump(int argc, char **argv);    /* flashfs/cmd_dump.c */
int ff_cmd_bench(int argc, char **argv);   /* bench/cmd_bench.c */

#endif
