/* Placeholder until the check command lands; replaced by its owner. */
#include <stdio.h>

#include "flashfs/commands.h"

int ff_cmd_check(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "flashfs check: not available in this build yet\n");
	return 2;
}
