/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
#include "extract/extract_fold.h"

#include <linux/fs.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/vfs.h>
#include <wchar.h>
#include <wctype.h>

#include "common/hmap.h"

/* A byte that is not part of valid UTF-8 becomes a value above Unicode, so
 * it can only equal the same byte. */
#define RAW_BYTE 0x110000u

struct ff_fold {
	locale_t utf8; /* (locale_t)0: fold ASCII only */
};

struct ff_fold *ff_fold_new(void)
{
	struct ff_fold *f = calloc(1, sizeof(*f));

	if (f)
		f->utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
	return f;
}

void ff_fold_free(struct ff_fold *f)
{
	if (!f)
		return;
	if (f->utf8)
		freelocale(f->utf8);
	free(f);
}

/* Folds name into out (room for strlen(name) code points); returns the
 * count.  The caller has made f->utf8 this thread's locale. */
static size_t fold_name(const struct ff_fold *f, const char *name, uint32_t *out)
{
	size_t len = strlen(name), i = 0, n = 0;
	mbstate_t st;

	memset(&st, 0, sizeof(st));
	while (i < len) {
		unsigned char b = (unsigned char)name[i];
		wchar_t wc;
		size_t k = (b < 0x80 || !f->utf8) ? 1 : mbrtowc(&wc, name + i, len - i, &st);

		if (k == 1 && b < 0x80) {
			out[n++] = (b >= 'A' && b <= 'Z') ? b + ('a' - 'A') : b;
		} else if (k == (size_t)-1 || k == (size_t)-2 || k == 0 || k == 1) {
			out[n++] = RAW_BYTE + b;
			memset(&st, 0, sizeof(st));
			k = 1;
		} else {
			out[n++] = (uint32_t)towlower_l(towupper_l((wint_t)wc, f->utf8), f->utf8);
		}
		i += k;
	}
	return n;
}

struct keys {
	uint32_t *cp;  /* every name's folded code points, one after another */
	size_t *off;   /* name i is cp[off[i] .. off[i + 1]) */
};

static int fold_all(const struct ff_fold *f, char *const *names, size_t n, struct keys *k)
{
	size_t total = 0;
	locale_t old = f->utf8 ? uselocale(f->utf8) : (locale_t)0;

	for (size_t i = 0; i < n; i++)
		total += strlen(names[i]);
	k->cp = malloc((total ? total : 1) * sizeof(*k->cp));
	k->off = malloc((n + 1) * sizeof(*k->off));
	if (k->cp && k->off) {
		k->off[0] = 0;
		for (size_t i = 0; i < n; i++)
			k->off[i + 1] = k->off[i] + fold_name(f, names[i], k->cp + k->off[i]);
	}
	if (f->utf8)
		uselocale(old);
	return k->cp && k->off ? 0 : -1;
}

int ff_fold_collisions(const struct ff_fold *f, char *const *names, size_t n, size_t *first)
{
	struct keys k = {0};
	struct ff_hmap seen = {0}; /* folded name -> index of its first name */
	int r = 0;

	for (size_t i = 0; i < n; i++)
		first[i] = FF_FOLD_NONE;
	if (n < 2)
		return 0;
	r = fold_all(f, names, n, &k);
	for (size_t i = 0; r == 0 && i < n; i++) {
		const uint32_t *key = k.cp + k.off[i];
		size_t len = (k.off[i + 1] - k.off[i]) * sizeof(*k.cp);
		uint64_t was;

		if (ff_hmap_find(&seen, key, len, &was))
			first[i] = (size_t)was;
		else if (ff_hmap_set(&seen, key, len, i) < 0)
			r = -1;
	}
	ff_hmap_clear(&seen, NULL);
	free(k.cp);
	free(k.off);
	return r;
}

/* f_type values (linux/magic.h and the file systems' own headers). */
static const unsigned long folding_fs[] = {
	0x4d44,     /* MSDOS_SUPER_MAGIC: vfat, msdos */
	0x2011bab0, /* exFAT */
	0x5346544e, /* NTFS (ntfs, ntfs3) */
	0xfe534d42, /* SMB2 */
	0xff534d42, /* CIFS */
	0x517b,     /* SMB */
	0x4244,     /* HFS */
	0x482b,     /* HFS+ */
	0x65735546, /* FUSE: fusefat, ntfs-3g... cannot tell */
	0x6969,     /* NFS: the server's file system decides */
};

int ff_fold_target(int dirfd)
{
	struct statfs sf;
	int flags = 0;

	if (fstatfs(dirfd, &sf) < 0)
		return 1;
	for (size_t i = 0; i < sizeof(folding_fs) / sizeof(folding_fs[0]); i++)
		if ((unsigned long)sf.f_type == folding_fs[i])
			return 1;
	return ioctl(dirfd, FS_IOC_GETFLAGS, &flags) == 0 && (flags & FS_CASEFOLD_FL);
}
