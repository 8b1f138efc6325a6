/* Placeholder until the flash command lands; replaced by its owner. */
#include <stdio.h>

#include "flashfs/commands.h"

int ff_cmd_flash(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "flashfs flash: not available in this build yet\n");
	return 2;
}
