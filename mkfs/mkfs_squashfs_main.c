/* Placeholder until mkfs.squashfs lands; replaced by its owner. */
#include <stdio.h>

int main(void)
{
	fprintf(stderr, "mkfs.squashfs: not available in this build yet\n");
	return 2;
}
