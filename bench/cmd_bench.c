/* Placeholder until the bench command lands; replaced by its owner. */
#include <stdio.h>

#include "flashfs/commands.h"

int ff_cmd_bench(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "flashfs bench: not available in this build yet\n");
	return 2;
}
