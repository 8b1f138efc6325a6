/* Placeholder until the ls command lands; replaced by its owner. */
#include <stdio.h>

#include "flashfs/commands.h"

int ff_cmd_ls(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "flashfs ls: not available in this build yet\n");
	return 2;
}
