/* SquashFS reader: superblock, tables, directory walk, file reads, links,
 * xattrs and the full check, on arbitrary bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "squashfs/reader.h"
#include "tests/fuzz/fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Known open bug (tests/fuzz/regress/OPEN, squashfs/inode-count-4g.sqfs):
 * ops->check allocates and clears per-inode arrays sized by the
 * superblock's inode count before validating it, so nearly every mutated
 * image with a large count ends the run as an OOM or a slow unit.  Until
 * it is fixed, FUZZ_SQFS_SKIP_BIG_CHECK=1 skips check for such images so
 * fuzzing time goes to finding other bugs; the regression input keeps the
 * bug visible. */
static int skip_check(const uint8_t *data, size_t size)
{
	static int mode = -1;
	uint32_t count;

	if (mode < 0)
		mode = getenv("FUZZ_SQFS_SKIP_BIG_CHECK") != NULL;
	if (!mode || size < 8)
		return 0;
	count = (uint32_t)data[4] | (uint32_t)data[5] << 8 | (uint32_t)data[6] << 16 |
		(uint32_t)data[7] << 24;
	return count > (1u << 20);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ff_open_opts o;
	struct ff_fs *fs = NULL;
	struct ff_err err = { 0 };
	char path[64];
	int fd;

	ff_squashfs_probe(data, size);
	fuzz_memfd(data, size, &fd, path, sizeof(path));
	fuzz_open_opts(&o);
	if (ff_squashfs_open(path, &o, &fs, &err) == 0) {
		fuzz_walk_fs(fs, !skip_check(data, size));
		ff_fs_close(fs);
	}
	close(fd);
	return 0;
}
