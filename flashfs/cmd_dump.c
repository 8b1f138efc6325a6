/* Placeholder until the dump command lands; replaced by its owner. */
#include <stdio.h>

#include "flashfs/commands.h"

int ff_cmd_dump(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "flashfs dump: not available in this build yet\n");
	return 2;
}
