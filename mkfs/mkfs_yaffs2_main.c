/* Placeholder until mkfs.yaffs2 lands; replaced by its owner. */
#include <stdio.h>

int main(void)
{
	fprintf(stderr, "mkfs.yaffs2: not available in this build yet\n");
	return 2;
}
