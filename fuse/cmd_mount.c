/* Placeholder until the mount command lands; replaced by its owner. */
#include <stdio.h>

#include "flashfs/commands.h"

int ff_cmd_mount(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "flashfs mount: not available in this build yet\n");
	return 2;
}
