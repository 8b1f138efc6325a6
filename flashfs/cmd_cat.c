/* Placeholder until the cat command lands; replaced by its owner. */
#include <stdio.h>

#include "flashfs/commands.h"

int ff_cmd_cat(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "flashfs cat: not available in this build yet\n");
	return 2;
}
