/* Placeholder until the extract command lands; replaced by its owner. */
#include <stdio.h>

#include "flashfs/commands.h"

int ff_cmd_extract(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "flashfs extract: not available in this build yet\n");
	return 2;
}
