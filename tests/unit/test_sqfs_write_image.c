/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* ff_sqfs_write end to end on small trees: block/fragment/dedup decisions
 * (counted in the stats), a dry run reporting exactly what a real run
 * writes, identical bytes for any thread count, and the table layout the
 * kernel's super.c checks before it mounts (re-derived here from the
 * superblock and the location lists, not from the writer's own numbers),
 * and files with equal crcs but other bytes kept apart; the data pass's
 * file list without a list (marks and cursors) in any access order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <zlib.h>

#include "common/endian.h"
#include "squashfs/file_list.h"
#include "squashfs/format.h"
#include "squashfs/node_info.h"
#include "squashfs/reader.h"
#include "squashfs/writer.h"
#include "tree_test_util.h"

#define BS 4096

static char *dir;
static struct ff_comp *comp;

static int setup(void **state)
{
	struct ff_err err = {0};
	char sub[1024];
	uint8_t buf[5000];

	(void)state;
	dir = tt_mkdtemp();
	snprintf(sub, sizeof(sub), "%s/src", dir);
	mkdir(sub, 0755);
	memset(buf, 'a', 100);
	free(tt_write(sub, "a", buf, 100));
	free(tt_write(sub, "a-copy", buf, 100));
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 7 + (i >> 5));
	free(tt_write(sub, "b", buf, sizeof(buf)));
	snprintf(sub, sizeof(sub), "%s/src/dir", dir);
	mkdir(sub, 0755);
	for (int i = 0; i < 300; i++) {
		char name[32];

		snprintf(name, sizeof(name), "entry-%03d", i);
		free(tt_write(sub, name, name, (size_t)-1));
	}
	comp = ff_comp_new("gzip", BS, &err);
	return comp ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	ff_comp_free(comp);
	tt_rmrf(dir);
	free(dir);
	return 0;
}

static struct ff_tree *make_tree_from(const char *sub)
{
	struct ff_tree_opts o = tt_opts();
	struct ff_err err = {0};
	struct ff_tree *t = ff_tree_new(&o, &err);
	char src[1024];

	snprintf(src, sizeof(src), "%s/%s", dir, sub);
	assert_non_null(t);
	assert_int_equal(ff_tree_add_dir(t, src, &err), 0);
	assert_int_equal(ff_tree_finish(t, &err), 0);
	return t;
}

static struct ff_tree *make_tree(void)
{
	return make_tree_from("src");
}

static struct ff_sqfs_write_opts opts(void)
{
	struct ff_sqfs_write_opts o;

	memset(&o, 0, sizeof(o));
	o.comp = comp;
	o.block_size = BS;
	o.jobs = 2;
	o.mkfs_time = 1000;
	return o;
}

static struct ff_sqfs_write_stats dry_run(struct ff_sqfs_write_opts o)
{
	struct ff_tree *t = make_tree();
	struct ff_sqfs_write_stats st;
	struct ff_err err = {0};

	assert_int_equal(ff_sqfs_write(t, &o, NULL, &st, &err), 0);
	ff_tree_free(t);
	return st;
}

/* a (100 B), its copy and b (5000 B = one block + 904) with 4 KiB blocks */
static void test_split_decisions(void **state)
{
	struct ff_sqfs_write_opts o = opts();
	struct ff_sqfs_write_stats st;

	(void)state;
	st = dry_run(o);
	assert_int_equal(st.n_dup_files, 1);
	assert_int_equal(st.dup_bytes, 100);
	assert_int_equal(st.n_blocks, 2);          /* b: full + short block */
	assert_int_equal(st.n_fragment_tails, 301); /* a + 300 small entries */
	o.always_fragments = 1;
	st = dry_run(o);
	assert_int_equal(st.n_blocks, 1);
	assert_int_equal(st.n_fragment_tails, 302);
	o.always_fragments = 0;
	o.no_fragments = 1;
	st = dry_run(o);
	assert_int_equal(st.n_blocks, 303);
	assert_int_equal(st.n_fragment_tails, 0);
	assert_int_equal(st.n_fragment_blocks, 0);
	o.no_fragments = 0;
	o.no_dedup = 1;
	st = dry_run(o);
	assert_int_equal(st.n_dup_files, 0);
	assert_int_equal(st.n_fragment_tails, 302);
	assert_int_equal(st.inode_count, 305); /* root, dir, a, a-copy, b, 300 */
	assert_int_equal(st.n_dirs, 2);
}

static uint8_t *write_image(struct ff_sqfs_write_opts o, const char *name, size_t *size,
			    struct ff_sqfs_write_stats *st)
{
	struct ff_tree *t = make_tree();
	struct ff_err err = {0};
	char path[4200];
	uint8_t *img;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(ff_sqfs_write(t, &o, path, st, &err), 0);
	ff_tree_free(t);
	f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	img = malloc((size_t)n);
	assert_int_equal(fread(img, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*size = (size_t)n;
	return img;
}

/* One lookup table: every listed block before the next, at most 8194 bytes
 * apart, the last one before the list, the list ending by `end`. */
static uint64_t check_table(const uint8_t *img, uint64_t start, uint64_t count,
			    size_t entry, uint64_t end)
{
	uint64_t blocks = (count * entry + SQFS_META_SIZE - 1) / SQFS_META_SIZE;

	assert_true(start + blocks * 8 <= end);
	for (uint64_t i = 0; i < blocks; i++) {
		uint64_t a = ff_get_le64(img + start + 8 * i);
		uint64_t b = i + 1 < blocks ? ff_get_le64(img + start + 8 * (i + 1)) : start;

		assert_true(a < b && b - a <= SQFS_META_SIZE + 2);
	}
	return ff_get_le64(img + start);
}

static void test_layout_and_dry_run(void **state)
{
	struct ff_sqfs_write_stats real, dry;
	struct ff_err err = {0};
	struct sqfs_super sb;
	size_t size;
	uint8_t *img = write_image(opts(), "layout.sqfs", &size, &real);
	uint64_t next;

	(void)state;
	dry = dry_run(opts());
	assert_int_equal(dry.bytes_used, real.bytes_used);
	assert_int_equal(dry.image_size, real.image_size);
	assert_int_equal(size % SQFS_PAD, 0);
	assert_int_equal(size, real.image_size);
	assert_int_equal(sqfs_super_decode(img, &sb, &err), 0);
	assert_int_equal(sb.bytes_used, real.bytes_used);
	assert_int_equal(sb.inode_count, 305);
	assert_int_equal(sb.mod_time, 1000);
	assert_int_equal(sb.flags & SQFS_FLAG_EXPORTABLE, SQFS_FLAG_EXPORTABLE);
	assert_int_equal(sb.flags & SQFS_FLAG_DUPLICATES, SQFS_FLAG_DUPLICATES);
	assert_true(sb.xattr_id_table == SQFS_INVALID_BLK);
	/* super.c: id table, then export, then fragments, each below the last */
	next = check_table(img, sb.id_table, sb.id_count, 4, sb.bytes_used);
	next = check_table(img, sb.export_table, sb.inode_count, 8, next);
	assert_true(sb.fragment_count > 0);
	next = check_table(img, sb.fragment_table, sb.fragment_count, 16, next);
	assert_true(sb.dir_table <= next);
	assert_true(sb.inode_table < sb.dir_table);
	assert_true(sqfs_ref_offset(sb.root_inode) < SQFS_META_SIZE);
	assert_true(sb.inode_table + sqfs_ref_block(sb.root_inode) < sb.dir_table);
	free(img);
}

static void test_threads_do_not_change_bytes(void **state)
{
	struct ff_sqfs_write_opts o = opts();
	struct ff_sqfs_write_stats st;
	size_t n1, n4;
	uint8_t *one, *four;

	(void)state;
	o.jobs = 1;
	one = write_image(o, "j1.sqfs", &n1, &st);
	o.jobs = 4;
	four = write_image(o, "j4.sqfs", &n4, &st);
	assert_int_equal(n1, n4);
	assert_memory_equal(one, four, n1);
	free(one);
	free(four);
}

/* The last 4 bytes of buf[0..len) set so that its zlib crc32 is want:
 * reflected crc32's table entries differ in their top byte, so the four
 * table indices that end in want are found backwards from it, and the
 * bytes that select them forwards from the crc of the rest. */
static void forge_crc(uint8_t *buf, size_t len, uint32_t want)
{
	const z_crc_t *tab = get_crc_table();
	uint8_t idx[4], inv[256];
	uint32_t c = want ^ 0xffffffffu;

	for (int i = 0; i < 256; i++)
		inv[tab[i] >> 24] = (uint8_t)i;
	for (int k = 3; k >= 0; k--) {
		idx[k] = inv[c >> 24];
		c = (c ^ (uint32_t)tab[idx[k]]) << 8;
	}
	c = (uint32_t)crc32(0L, buf, (uInt)(len - 4)) ^ 0xffffffffu;
	for (int k = 0; k < 4; k++) {
		buf[len - 4 + k] = (uint8_t)((c ^ idx[k]) & 0xff);
		c = (uint32_t)tab[idx[k]] ^ (c >> 8);
	}
	assert_int_equal(crc32(0L, buf, (uInt)len), want);
}

/* Files of one size and one crc but other bytes stay apart; the true
 * copy of each is found, below a block (decided in the data pass) and
 * above (decided before it). */
static void test_crc_twins(void **state)
{
	struct ff_sqfs_write_opts o = opts();
	struct ff_sqfs_write_stats st;
	char sub[1024];
	uint8_t x[5000], y[5000];

	(void)state;
	snprintf(sub, sizeof(sub), "%s/twins", dir);
	mkdir(sub, 0755);
	for (size_t len = 300; len <= 5000; len += 4700) {
		char name[32];

		for (size_t i = 0; i < len; i++) {
			x[i] = (uint8_t)(i * 13 + 1);
			y[i] = (uint8_t)(i * 29 + 7);
		}
		forge_crc(x, len, (uint32_t)crc32(0L, y, (uInt)len));
		assert_memory_not_equal(x, y, len);
		snprintf(name, sizeof(name), "%zu-1-y", len);
		free(tt_write(sub, name, y, len));
		snprintf(name, sizeof(name), "%zu-2-x", len);
		free(tt_write(sub, name, x, len));
		snprintf(name, sizeof(name), "%zu-3-y-copy", len);
		free(tt_write(sub, name, y, len));
		snprintf(name, sizeof(name), "%zu-4-x-copy", len);
		free(tt_write(sub, name, x, len));
	}
	{
		struct ff_tree *t = make_tree_from("twins");
		struct ff_err err = {0};

		assert_int_equal(ff_sqfs_write(t, &o, NULL, &st, &err), 0);
		ff_tree_free(t);
	}
	/* two copies of each size; merging a twin would make three */
	assert_int_equal(st.n_dup_files, 4);
	assert_int_equal(st.dup_bytes, 2 * 300 + 2 * 5000);
}

static void test_bad_block_size(void **state)
{
	struct ff_sqfs_write_opts o = opts();
	struct ff_tree *t = make_tree();
	struct ff_err err = {0};
	char path[4200];

	(void)state;
	o.block_size = 3000;
	snprintf(path, sizeof(path), "%s/bad.sqfs", dir);
	assert_int_equal(ff_sqfs_write(t, &o, path, NULL, &err), -1);
	assert_non_null(strstr(err.msg, "3000"));
	assert_int_equal(access(path, F_OK), -1);
	ff_tree_free(t);
}

/* 303 files (a, a-copy, b, dir/entry-000..299) with marks every 64: each
 * file from a cursor going forward, backward, jumping across marks, and
 * with a fresh cursor, is the one a plain pre-order walk finds. */
static void test_file_list_cursors(void **state)
{
	struct ff_tree *t = make_tree();
	struct ff_node *want[400];
	struct sqfs_file_list l;
	struct sqfs_file_cur fwd = {0}, back = {0}, jump = {0};
	struct ff_err err = {0};
	size_t n = 0;

	(void)state;
	for (struct ff_node *x = ff_tree_root(t); x; x = ff_tree_next(t, x))
		if (S_ISREG(x->mode) && n < 400)
			want[n++] = x;
	assert_int_equal(n, 303);
	assert_int_equal(sqfs_file_list_make(&l, t, &err), 0);
	assert_null(l.files); /* no --sort: no list */
	assert_int_equal(l.n, n);
	for (size_t i = 0; i < n; i++) {
		struct sqfs_file_cur fresh = {0};
		size_t k = (i * 97) % n;

		assert_ptr_equal(sqfs_file_at(&l, &fwd, i), want[i]);
		assert_ptr_equal(sqfs_file_at(&l, &back, n - 1 - i), want[n - 1 - i]);
		assert_ptr_equal(sqfs_file_at(&l, &jump, k), want[k]);
		assert_ptr_equal(sqfs_file_at(&l, &fresh, k), want[k]);
	}
	sqfs_file_list_free(&l);
	ff_tree_free(t);
}

/* The 8-byte file record (node_info.h) in each of its states: nothing, a
 * fragment alone, a sizes array made before the fragment (a file with
 * blocks and a tail) and after it, a duplicate.  Each getter must give
 * back what was put in. */
static void test_file_record_states(void **state)
{
	struct sqfs_file_data fd[6] = {{SQFS_INVALID_FRAG, 0}};
	struct ff_err err = {0};
	struct ff_vec t;

	(void)state;
	ff_vec_init(&t, sizeof(uint32_t *));
	assert_int_equal(sizeof(struct sqfs_file_data), 8);
	assert_null(sqfs_fd_sizes(&t, &fd[0]));
	assert_int_equal(sqfs_fd_frag_offset(&t, &fd[0]), 0);
	assert_int_equal(sqfs_fd_blocks_start(&t, &fd[0]), 0);
	/* a small file: fragment 7 at 4000, no array */
	fd[1].frag_index = 7;
	*sqfs_fd_frag_offset_at(&t, &fd[1]) = 4000;
	assert_int_equal(fd[1].word, 4000);
	assert_null(sqfs_fd_sizes(&t, &fd[1]));
	assert_int_equal(sqfs_fd_frag_offset(&t, &fd[1]), 4000);
	/* a file with 3 blocks and a tail: the array first (place 0) */
	fd[2].frag_index = SQFS_INVALID_FRAG;
	assert_int_equal(sqfs_fd_sizes_new(&t, &fd[2], 4, 3, &err), 0);
	fd[2].frag_index = 9;
	*sqfs_fd_frag_offset_at(&t, &fd[2]) = 1048575;
	sqfs_fd_set_blocks_start(&t, &fd[2], 0x123456789aull);
	sqfs_fd_sizes(&t, &fd[2])[2] = 77;
	/* the offset of a fragment known before the array is moved into it */
	fd[3].frag_index = 5;
	fd[3].word = 123;
	assert_int_equal(sqfs_fd_sizes_new(&t, &fd[3], 1, 1, &err), 0);
	assert_int_equal(fd[3].word, SQFS_FD_ARRAY | 1);
	assert_int_equal(sqfs_fd_frag_offset(&t, &fd[3]), 123);
	assert_int_equal(sqfs_fd_n_blocks(&t, &fd[3]), 1);
	/* a duplicate of node 0x80000001: the top bit is not an array here */
	sqfs_fd_set_dup(&fd[4], 0x80000001u);
	assert_int_equal(sqfs_fd_dup_of(&fd[4]), 0x80000001u);
	assert_null(sqfs_fd_sizes(&t, &fd[4]));
	assert_int_equal(sqfs_fd_frag_offset(&t, &fd[4]), 0);
	assert_int_equal(sqfs_fd_dup_of(&fd[2]), 0);
	assert_int_equal(fd[2].word, SQFS_FD_ARRAY | 0);
	assert_int_equal(sqfs_fd_frag_offset(&t, &fd[2]), 1048575);
	assert_int_equal(sqfs_fd_n_blocks(&t, &fd[2]), 3);
	assert_int_equal(sqfs_fd_blocks_start(&t, &fd[2]), 0x123456789aull);
	assert_int_equal(sqfs_fd_sizes(&t, &fd[2])[2], 77);
	assert_int_equal(sqfs_fd_frag_offset(&t, &fd[1]), 4000);
	sqfs_fd_table_free(&t);
}

#define REC_FILES 9

/* Files for every kind of record, their content from i. */
static void rec_content(int i, uint8_t *buf, size_t len)
{
	for (size_t k = 0; k < len; k++)
		buf[k] = (uint8_t)(k * 13 + (k >> 7) + (size_t)i * 5 + 1);
}

static const struct {
	const char *name;
	size_t size;
	int like;      /* content of this file's index (a copy), or itself */
	int zero;      /* 1: all zero; 2: a hole, then one block, then a hole */
} rec[REC_FILES] = {
	{"bt", 2 * BS + 300, 0, 0},         /* blocks and a tail */
	{"bt-copy", 2 * BS + 300, 0, 0},    /* its duplicate (large dedup) */
	{"s", 700, 2, 0},                   /* a tail alone */
	{"s-copy", 700, 2, 0},              /* its duplicate (small dedup) */
	{"holes", 2 * BS + 200, 4, 2},      /* sparse block and zero tail */
	{"zt", 300, 5, 1},                  /* all-zero tail: a sparse block */
	{"zt-copy", 300, 5, 1},
	{"b2", 2 * BS, 7, 0},               /* whole blocks, no tail */
	{"b2t", 3 * BS + 1, 8, 0},
};

static void rec_bytes(int i, uint8_t *buf)
{
	memset(buf, 0, rec[i].size);
	if (rec[i].zero == 2)
		rec_content(rec[i].like, buf + BS, BS);
	else if (!rec[i].zero)
		rec_content(rec[i].like, buf, rec[i].size);
}

static void rec_tree(void)
{
	uint8_t buf[4 * BS];
	char sub[1024], path[1100];

	snprintf(sub, sizeof(sub), "%s/rec", dir);
	if (mkdir(sub, 0755) < 0)
		return; /* made by an earlier case */
	for (int i = 0; i < REC_FILES; i++) {
		int fd;

		rec_bytes(i, buf);
		if (rec[i].zero != 2) {
			free(tt_write(sub, rec[i].name, buf, rec[i].size));
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", sub, rec[i].name);
		fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
		assert_true(fd >= 0);
		assert_int_equal(pwrite(fd, buf + BS, BS, BS), BS);
		assert_int_equal(ftruncate(fd, (off_t)rec[i].size), 0);
		close(fd);
	}
}

/* Each file of rec_tree read back through our reader under o: a wrong
 * fragment offset, block start, size or duplicate in the records gives
 * other bytes.  The hole file's stored size counts its one block. */
static void rec_check(struct ff_sqfs_write_opts o, const char *name)
{
	struct ff_tree *t;
	struct ff_err err = {0};
	struct ff_fs *fs;
	char path[4200];
	uint8_t want[4 * BS], got[4 * BS + 1];
	struct stat hs;

	rec_tree();
	t = make_tree_from("rec");
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(ff_sqfs_write(t, &o, path, NULL, &err), 0);
	ff_tree_free(t);
	assert_int_equal(ff_squashfs_open(path, NULL, &fs, &err), 0);
	for (int i = 0; i < REC_FILES; i++) {
		struct ff_stat st;
		uint64_t h;

		snprintf(path, sizeof(path), "/%s", rec[i].name);
		assert_int_equal(ff_fs_resolve(fs, path, &h), 0);
		assert_int_equal(fs->ops->getattr(fs, h, &st), 0);
		assert_int_equal(st.size, rec[i].size);
		rec_bytes(i, want);
		assert_int_equal(fs->ops->read(fs, h, got, sizeof(got), 0), rec[i].size);
		assert_memory_equal(got, want, rec[i].size);
		snprintf(path, sizeof(path), "%s/rec/%s", dir, rec[i].name);
		if (rec[i].zero == 2 && !o.no_sparse && stat(path, &hs) == 0 &&
		    hs.st_blocks * 512 < (off_t)rec[i].size)
			assert_int_equal(st.blocks, BS / 512);
	}
	ff_fs_close(fs);
}

static void test_file_records_read_back(void **state)
{
	struct ff_sqfs_write_opts o = opts();

	(void)state;
	rec_check(o, "rec.sqfs");
	o.always_fragments = 1;
	rec_check(o, "rec-af.sqfs");
	o.always_fragments = 0;
	o.no_fragments = 1;
	rec_check(o, "rec-nf.sqfs");
	o.no_fragments = 0;
	o.no_dedup = 1;
	o.no_sparse = 1;
	rec_check(o, "rec-nd.sqfs");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_decisions),
		cmocka_unit_test(test_layout_and_dry_run),
		cmocka_unit_test(test_threads_do_not_change_bytes),
		cmocka_unit_test(test_crc_twins),
		cmocka_unit_test(test_bad_block_size),
		cmocka_unit_test(test_file_list_cursors),
		cmocka_unit_test(test_file_record_states),
		cmocka_unit_test(test_file_records_read_back),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
