/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copyright (C) 2026 The flashfs-tools authors */
/* The mksquashfs word table (see mksquashfs_words.h).  Option names and
 * value counts are facts from mksquashfs 4.5-4.7's documentation and
 * OpenWrt's additions (-fixed-time, -Xpreset, -Xe, -Xlc, -Xlp, -Xpb). */
#include "mkfs/mksquashfs_words.h"

#include <stddef.h>
#include <string.h>

#define GNU(w, n, g) { w, n, FF_MSQ_GNU, g, NULL }
#define DEFAULT(w, n) { w, n, FF_MSQ_DEFAULT, NULL, NULL }
#define NOTE(w, n, why) { w, n, FF_MSQ_NOTE, NULL, why }
#define HELP(w, n) { w, n, FF_MSQ_HELP, NULL, NULL }
#define REFUSE(w, n, why) { w, n, FF_MSQ_REFUSE, NULL, why }

static const char mem_note[] =
	"mkfs.squashfs bounds its memory by its own block queue; ignored";
static const char queue_note[] =
	"mkfs.squashfs sizes its queues and readers itself; ignored";
static const char deref_why[] =
	"(mksquashfs after 4.7) following symlinks is not supported: they are "
	"stored as symlinks; copy the tree with cp -L first";

static const struct ff_msq_word words[] = {
	/* compression */
	GNU("-comp", 1, "--compressor"), GNU("-b", 1, "--block-size"),
	GNU("-noI", 0, "--no-inode-compression"),
	GNU("-noInodeCompression", 0, "--no-inode-compression"),
	GNU("-noId", 0, "--no-id-compression"),
	GNU("-noIdTableCompression", 0, "--no-id-compression"),
	GNU("-noD", 0, "--no-data-compression"),
	GNU("-noDataCompression", 0, "--no-data-compression"),
	GNU("-noF", 0, "--no-fragment-compression"),
	GNU("-noFragmentCompression", 0, "--no-fragment-compression"),
	GNU("-noX", 0, "--no-xattr-compression"),
	GNU("-noXattrCompression", 0, "--no-xattr-compression"),
	GNU("-no-compression", 0, "--no-compression"),
	/* build */
	GNU("-tar", 0, "--tar"),
	GNU("-no-strip", 0, "--no-strip"), GNU("-tarstyle", 0, "--no-strip"),
	GNU("-cpiostyle", 0, "--cpio-style"), GNU("-cpiostyle0", 0, "--cpio-style0"),
	DEFAULT("-reproducible", 0),
	NOTE("-not-reproducible", 0, "mkfs.squashfs output is always reproducible"),
	GNU("-no-exports", 0, "--no-exports"), GNU("-exports", 0, "--exports"),
	GNU("-no-sparse", 0, "--no-sparse"),
	DEFAULT("-no-tailends", 0), GNU("-tailends", 0, "--always-fragments"),
	GNU("-always-use-fragments", 0, "--always-fragments"),
	GNU("-no-fragments", 0, "--no-fragments"),
	GNU("-no-duplicates", 0, "--no-dedup"),
	GNU("-no-hardlinks", 0, "--no-hardlinks"),
	GNU("-keep-as-directory", 0, "--keep-as-directory"),
	GNU("-nopad", 0, "--no-pad"),
	/* 4.7.3 */
	REFUSE("-stream", 0, "the streamed format (superblock at the end, for a pipe) is "
	       "not written; write IMAGE to a file and copy that"),
	REFUSE("-fix", 1, "repairs a -stream image, which mkfs.squashfs never writes; "
	       "use mksquashfs -fix on one"),
	GNU("-offset", 1, "--offset"), GNU("-o", 1, "--offset"),
	/* time */
	GNU("-mkfs-time", 1, "--mkfs-time"), GNU("-fstime", 1, "--mkfs-time"),
	GNU("-all-time", 1, "--all-time"), GNU("-inode-time", 1, "--all-time"),
	GNU("-root-time", 1, "--root-time"),
	/* 4.7: the image time is the newest inode time; -repro-time T is
	 * -mkfs-time T -inode-time T, which is OpenWrt's -fixed-time */
	GNU("-repro", 0, "--mkfs-time=inode"), GNU("-repro-time", 1, "--fixed-time"),
	GNU("-fixed-time", 1, "--fixed-time"),
	/* permissions */
	GNU("-all-root", 0, "--all-root"), GNU("-root-owned", 0, "--all-root"),
	GNU("-force-uid", 1, "--force-uid"), GNU("-force-gid", 1, "--force-gid"),
	GNU("-root-uid", 1, "--root-uid"), GNU("-root-gid", 1, "--root-gid"),
	GNU("-root-mode", 1, "--root-mode"),
	GNU("-uid-gid-offset", 1, "--uid-gid-offset"),
	GNU("-force-file-mode", 1, "--force-file-mode"),
	GNU("-force-dir-mode", 1, "--force-dir-mode"),
	GNU("-default-mode", 1, "--default-mode"), GNU("-default-uid", 1, "--default-uid"),
	GNU("-default-gid", 1, "--default-gid"),
	/* pseudo files */
	GNU("-p", 1, "--pseudo"), GNU("-pf", 1, "--pseudo-file"),
	GNU("-pd", 1, "--pseudo-dir"), GNU("-pseudo-dir", 1, "--pseudo-dir"),
	GNU("-pseudo-override", 0, "--pseudo-override"),
	/* filters */
	NOTE("-root-becomes", 1, "only changes an append; this image is built new"),
	GNU("-ef", 1, "--exclude-file"),
	GNU("-wildcards", 0, "--wildcards"), GNU("-regex", 0, "--regex"),
	GNU("-max-depth", 1, "--max-depth"),
	GNU("-one-file-system", 0, "--one-file-system"),
	GNU("-one-file-system-x", 0, "--one-file-system-x"),
	/* mksquashfs after 4.7 */
	REFUSE("-deref", 1, deref_why), REFUSE("-dereference", 0, deref_why),
	REFUSE("-deref-path", 1, deref_why),
	/* xattrs */
	GNU("-no-xattrs", 0, "--no-xattrs"), GNU("-xattrs", 0, "--xattrs"),
	GNU("-xattrs-exclude", 1, "--xattrs-exclude"),
	GNU("-xattrs-include", 1, "--xattrs-include"),
	GNU("-xattrs-add", 1, "--xattrs-add"),
	/* runtime */
	GNU("-processors", 1, "--jobs"),
	NOTE("-mem", 1, mem_note), NOTE("-mem-percent", 1, mem_note),
	NOTE("-mem-default", 0, mem_note), NOTE("-overcommit", 1, mem_note),
	NOTE("-read-queue", 1, queue_note), NOTE("-write-queue", 1, queue_note),
	NOTE("-fragment-queue", 1, queue_note), NOTE("-small-readers", 1, queue_note),
	NOTE("-block-readers", 1, queue_note), NOTE("-single-reader", 0, queue_note),
	NOTE("-throttle", 1, "mkfs.squashfs does not throttle; ignored"),
	NOTE("-limit", 1, "mkfs.squashfs does not throttle; ignored"),
	GNU("-info", 0, "--info"), GNU("-info-file", 1, "--info-file"),
	GNU("-no-progress", 0, "--no-progress"), GNU("-progress", 0, "--progress"),
	NOTE("-percentage", 0, "no percentage display; ignored"),
	GNU("-quiet", 0, "--quiet"),
	DEFAULT("-exit-on-error", 0),
	REFUSE("-log", 1, "(mksquashfs after 4.7) a copy of the messages in a file is not "
	       "written; redirect standard error instead"),
	/* append */
	GNU("-noappend", 0, "--noappend"),
	DEFAULT("-no-recovery", 0),
	NOTE("-recovery-path", 1, "no recovery file is needed: the image is written "
	     "atomically"),
	REFUSE("-recover", 1, "there is never anything to recover: mkfs.squashfs appends to "
	       "a new file renamed over IMAGE, so an interrupted append leaves IMAGE as "
	       "it was and writes no recovery file"),
	/* actions */
	GNU("-action", 1, "--action"), GNU("-a", 1, "--action"),
	GNU("-log-action", 1, "--log-action"), GNU("-va", 1, "--log-action"),
	GNU("-true-action", 1, "--true-action"), GNU("-ta", 1, "--true-action"),
	GNU("-false-action", 1, "--false-action"), GNU("-fa", 1, "--false-action"),
	GNU("-action-file", 1, "--action-file"), GNU("-af", 1, "--action-file"),
	GNU("-log-action-file", 1, "--log-action-file"), GNU("-vaf", 1, "--log-action-file"),
	GNU("-true-action-file", 1, "--true-action-file"), GNU("-taf", 1, "--true-action-file"),
	GNU("-false-action-file", 1, "--false-action-file"),
	GNU("-faf", 1, "--false-action-file"),
	/* tar */
	NOTE("-ignore-zeros", 0, "the tar reader stops at the first end-of-archive "
	     "block; ignored"),
	DEFAULT("-numeric-owner", 0),
	/* expert, help, misc */
	GNU("-sort", 1, "--sort"),
	GNU("-version", 0, "--version"),
	HELP("-help", 0), HELP("-h", 0), HELP("-help-all", 0), HELP("-ha", 0),
	HELP("-help-section", 1), HELP("-hs", 1), HELP("-help-option", 1), HELP("-ho", 1),
	HELP("-help-comp", 1), HELP("-Xhelp", 0),
	DEFAULT("-no-pager", 0), DEFAULT("-cols", 1),
	{ NULL, 0, FF_MSQ_DEFAULT, NULL, NULL },
};

/* mksquashfs' compressor options (-X...) and their value counts. */
static const struct { const char *word; int nargs; } x_words[] = {
	{ "-Xcompression-level", 1 }, { "-Xwindow-size", 1 }, { "-Xstrategy", 1 },
	{ "-Xalgorithm", 1 }, { "-Xhc", 0 }, { "-Xbcj", 1 }, { "-Xdict-size", 1 },
	{ "-Xpreset", 1 }, { "-Xe", 0 }, { "-Xlc", 1 }, { "-Xlp", 1 }, { "-Xpb", 1 },
	/* ours, in the same spelling: gzip's encoder (-X zlib, -X libdeflate)
	 * and level (-Xlevel 12, as -X level=12) */
	{ "-Xzlib", 0 }, { "-Xlibdeflate", 0 }, { "-Xlevel", 1 },
};

const struct ff_msq_word *ff_msq_word(const char *word)
{
	for (const struct ff_msq_word *w = words; w->word; w++)
		if (!strcmp(w->word, word))
			return w;
	return NULL;
}

int ff_msq_x_nargs(const char *word)
{
	for (size_t i = 0; i < sizeof(x_words) / sizeof(x_words[0]); i++)
		if (!strcmp(x_words[i].word, word))
			return x_words[i].nargs;
	return -1;
}

const char *ff_msq_x_word(size_t i)
{
	return i < sizeof(x_words) / sizeof(x_words[0]) ? x_words[i].word : NULL;
}

const struct ff_msq_word *ff_msq_words(void)
{
	return words;
}
