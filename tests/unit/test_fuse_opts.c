/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* Command-line parsing of `flashfs mount`: our -o options are taken out and
 * parsed, FUSE's stay for libfuse, mount(8)/fstab-only ones are dropped. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fuse/mount.h"

#define PARSE(o, err, ...)                                                         \
	({                                                                         \
		char *argv_[] = {"mount", __VA_ARGS__, NULL};                      \
		ff_mount_opts_parse((o), (int)(sizeof(argv_) / sizeof(argv_[0])) - 1, \
				    argv_, (err));                                 \
	})

static int has_fuse_arg(const struct ff_mount_opts *o, const char *arg)
{
	for (int i = 0; i < o->fuse_args.argc; i++)
		if (!strcmp(o->fuse_args.argv[i], arg))
			return 1;
	return 0;
}

static void test_our_options(void **state)
{
	struct ff_mount_opts o;
	struct ff_err err;

	(void)state;
	assert_int_equal(PARSE(&o, &err, "-o", "offset=1M,subdir=/etc,uid=7,gid=8,cache=64M",
			       "-o", "threads=4,timeout=30,page_size=2048,oob_size=64",
			       "-opages_per_block=128,oob_layout=inband,tags=classic,endian=big",
			       "-o", "max_read=128K,readahead=2M,prefetch=3M,spin=50,follow=0",
			       "img", "mnt"),
			 0);
	assert_string_equal(o.image, "img");
	assert_string_equal(o.mountpoint, "mnt");
	assert_int_equal(o.open.offset, 1 << 20);
	assert_string_equal(o.subdir, "/etc");
	assert_int_equal(o.uid, 7);
	assert_int_equal(o.gid, 8);
	assert_int_equal(o.open.cache_bytes, 64 << 20);
	assert_int_equal(o.threads, 4);
	assert_int_equal(o.spin_us, 50);
	assert_int_equal(o.follow_cpu, 0);
	assert_int_equal(o.idle_timeout, 30);
	assert_int_equal(o.open.flash.page_size, 2048);
	assert_int_equal(o.open.flash.oob_size, 64);
	assert_int_equal(o.open.flash.pages_per_block, 128);
	assert_string_equal(o.open.flash.oob_layout, "inband");
	assert_string_equal(o.open.flash.tags, "classic");
	assert_int_equal(o.open.flash.byte_order, FF_ORDER_BIG);
	assert_int_equal(o.max_read, 131072);
	assert_int_equal(o.readahead_kb, 2048);
	assert_int_equal(o.open.prefetch_bytes, 3 << 20);
	assert_false(o.foreground);
	assert_false(has_fuse_arg(&o, "offset=1M"));
	assert_false(has_fuse_arg(&o, "-o"));
	ff_mount_opts_free(&o);
}

static void test_defaults_and_flags(void **state)
{
	struct ff_mount_opts o;
	struct ff_err err;

	(void)state;
	assert_int_equal(PARSE(&o, &err, "img", "-f", "mnt", "-s"), 0);
	assert_int_equal(o.uid, -1);
	assert_int_equal(o.gid, -1);
	assert_int_equal(o.open.flash.byte_order, FF_ORDER_DETECT);
	assert_null(o.subdir);
	assert_true(o.foreground);
	assert_int_equal(o.threads, 1);
	assert_int_equal(o.readahead_kb, FF_MOUNT_READAHEAD_KB);
	assert_int_equal(o.spin_us, FF_MOUNT_SPIN_US);
	assert_int_equal(o.follow_cpu, FF_MOUNT_FOLLOW);
	assert_int_equal(o.open.prefetch_bytes, FF_MOUNT_PREFETCH);
	ff_mount_opts_free(&o);
	assert_int_equal(PARSE(&o, &err, "-o", "readahead=0,prefetch=0", "img", "mnt"), 0);
	assert_int_equal(o.readahead_kb, 0);
	assert_int_equal(o.open.prefetch_bytes, 0);
	ff_mount_opts_free(&o);
	assert_int_equal(PARSE(&o, &err, "-d", "img", "mnt"), 0);
	assert_true(o.debug && o.foreground);
	assert_true(has_fuse_arg(&o, "-d")); /* libfuse prints the requests */
	ff_mount_opts_free(&o);
}

static void test_passed_and_dropped(void **state)
{
	struct ff_mount_opts o;
	struct ff_err err;

	(void)state;
	assert_int_equal(PARSE(&o, &err, "-o",
			       "rw,allow_other,nosuid,defaults,noauto,nofail,user,_netdev,x-gvfs-show",
			       "img", "mnt"),
			 0);
	assert_true(has_fuse_arg(&o, "allow_other,nosuid"));
	for (int i = 0; i < o.fuse_args.argc; i++) {
		assert_null(strstr(o.fuse_args.argv[i], "rw"));
		assert_null(strstr(o.fuse_args.argv[i], "noauto"));
		assert_null(strstr(o.fuse_args.argv[i], "x-gvfs"));
		assert_null(strstr(o.fuse_args.argv[i], "nofail"));
	}
	ff_mount_opts_free(&o);
}

static void test_errors(void **state)
{
	struct ff_mount_opts o;
	struct ff_err err;

	(void)state;
	assert_int_equal(PARSE(&o, &err, "img"), -1);
	assert_non_null(strstr(err.msg, "MOUNTPOINT"));
	ff_mount_opts_free(&o);
	assert_int_equal(PARSE(&o, &err, "img", "mnt", "extra"), -1);
	assert_non_null(strstr(err.msg, "extra"));
	ff_mount_opts_free(&o);
	assert_int_equal(PARSE(&o, &err, "-o", "uid=abc", "img", "mnt"), -1);
	assert_non_null(strstr(err.msg, "uid=abc"));
	ff_mount_opts_free(&o);
	assert_int_equal(PARSE(&o, &err, "-o", "threads=0", "img", "mnt"), -1);
	ff_mount_opts_free(&o);
	assert_int_equal(PARSE(&o, &err, "-o", "spin=2000000", "img", "mnt"), -1);
	assert_non_null(strstr(err.msg, "spin=2000000"));
	ff_mount_opts_free(&o);
	assert_int_equal(PARSE(&o, &err, "-o", "follow=2", "img", "mnt"), -1);
	assert_non_null(strstr(err.msg, "follow=2"));
	ff_mount_opts_free(&o);
	assert_int_equal(PARSE(&o, &err, "-o", "max_read=100", "img", "mnt"), -1);
	ff_mount_opts_free(&o);
	assert_int_equal(PARSE(&o, &err, "-o", "endian=middle", "img", "mnt"), -1);
	ff_mount_opts_free(&o);
	assert_int_equal(PARSE(&o, &err, "-o", "prefetch=some", "img", "mnt"), -1);
	assert_non_null(strstr(err.msg, "prefetch=some"));
	ff_mount_opts_free(&o);
	assert_int_equal(PARSE(&o, &err, "-o", "uid=4294967296", "img", "mnt"), -1);
	ff_mount_opts_free(&o);
	assert_int_equal(PARSE(&o, &err, "--bogus", "img", "mnt"), -1);
	assert_non_null(strstr(err.msg, "--bogus"));
	ff_mount_opts_free(&o);
	assert_int_equal(PARSE(&o, &err, "--help"), 0);
	assert_true(o.help);
	ff_mount_opts_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_our_options),
		cmocka_unit_test(test_defaults_and_flags),
		cmocka_unit_test(test_passed_and_dropped),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
