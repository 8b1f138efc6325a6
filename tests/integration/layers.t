#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# `make layers` holds the folders to the layer order, and it can fail: a
# header included from a folder above, a USES entry that is not below, a
# folder whose USES does not reach what it includes, and a program whose
# link list does not reach what its main includes are each reported.
. "$(dirname "$0")/../lib.sh"

cd "$FF_TOP" || exit 2
vars=$(make -s --no-print-directory -f Makefile -f - print-layer-vars <<'MK'
print-layer-vars:
	@echo 'LAYERS="$(LAYERS)"'
	@echo 'USES="$(foreach m,$(MODULES),$(m):$(subst $(space),$(comma),$(strip $($(m)_USES))))"'
	@echo 'PROGS="$(foreach p,$(PROGRAMS),$(p):$($(p)_MAIN):$(subst $(space),$(comma),$(strip $(call prog_uses,$(p)))))"'
MK
)
eval "$vars"
export LAYERS USES PROGS

ok "the tree as it is passes" scripts/check-layers
ok "mkfs.squashfs links neither libfuse3 nor libmtd" \
	sh -c "! ldd '$FF_BIN/mkfs.squashfs' | grep -E 'libfuse|libmtd'"

# A copy of a few folders with one violation each, checked by the same script.
copy() {
	rm -rf "$T/w" && mkdir -p "$T/w" && cp -r common compress tree squashfs mkfs "$T/w/"
}
small_layers="common compress tree squashfs mkfs"
small_uses="common: compress:common tree:compress,common squashfs:tree,compress,common mkfs:squashfs,tree,compress,common"
small_progs="mkfs.squashfs:mkfs/mkfs_squashfs_main.c:mkfs,squashfs,tree,compress,common"
run_small() {
	(cd "$T/w" && LAYERS="$small_layers" USES="$1" PROGS="$2" "$FF_TOP/scripts/check-layers")
}

copy
ok "the small copy passes" run_small "$small_uses" "$small_progs"
echo '#include "squashfs/format.h"' >> "$T/w/compress/codec_util.c"
fails "an include from a folder above fails" run_small "$small_uses" "$small_progs"
is "$(run_small "$small_uses" "$small_progs" 2>&1 | grep -c 'compress/codec_util.c:[0-9]*: includes squashfs/')" 1 \
	"the message names the file, line and folder"
copy
fails "a folder that uses one above it fails" \
	run_small "${small_uses/compress:common/compress:tree,common}" "$small_progs"
fails "an include that USES does not reach fails" \
	run_small "${small_uses/squashfs:tree,compress,common/squashfs:compress,common}" "$small_progs"
# (mkfs/ itself uses squashfs/ and below, so a list naming mkfs reaches them)
fails "a main including what its link list lacks fails" \
	run_small "$small_uses" "mkfs.squashfs:mkfs/mkfs_squashfs_main.c:common"

# Formats named above image/: a copy with the registry (whose formats that
# are folders are the names to look for), diff/ and bench/ (which must name
# none: the bench asks the registry); one violation at a time.
fcopy() {
	rm -rf "$T/f" && mkdir -p "$T/f/image" "$T/f/squashfs" "$T/f/yaffs2" "$T/f/bench" &&
		cp -r common diff "$T/f/" && cp image/registry.c image/registry.h "$T/f/image/"
}
f_layers="common squashfs,yaffs2 image bench,diff"
f_uses="common: squashfs:common yaffs2:common image:squashfs,yaffs2,common bench:common diff:common"
run_f() { (cd "$T/f" && LAYERS="$f_layers" USES="$f_uses" PROGS="" "$FF_TOP/scripts/check-layers"); }

fcopy
ok "the copy with the registry passes" run_f
echo 'static const char *const target = "squashfs-root";' >> "$T/f/diff/diff.c"
fails "a format's name in a string literal of diff/ fails" run_f
is "$(run_f 2>&1 | grep -c "diff/diff.c:[0-9]*: names the format 'squashfs'")" 1 \
	"the message names the file, line and format"
fcopy
echo '#include "yaffs2/scan.h"' >> "$T/f/diff/diff_attr.c"
fails "an include of a format's folder in diff/ fails" run_f
ok "... named as such" sh -c "cd '$T/f' && LAYERS='$f_layers' USES='$f_uses' PROGS= \
	'$FF_TOP/scripts/check-layers' 2>&1 | grep -q 'diff/diff_attr.c:[0-9]*: includes yaffs2/, a format'"
fcopy
echo 'static int is_y2(const char *f) { return !strcasecmp(f, "YAFFS2"); }' >> "$T/f/diff/diff.c"
fails "a format's name as a whole literal, in any case, fails" run_f
fcopy
echo 'static const char help[] = "SquashFS and YAFFS2 images, or a UBI volume";' >> "$T/f/diff/diff.c"
echo '/* "squashfs" in a comment */' >> "$T/f/diff/diff.c"
ok "titles in prose and names in comments pass" run_f
echo 'static const char *const sqfs = "squashfs";' > "$T/f/bench/bench.c"
fails "bench/ is not exempt: a format's name there fails too" run_f
is "$(run_f 2>&1 | grep -c "bench/bench.c:[0-9]*: names the format 'squashfs'")" 1 \
	"... named as such"
fcopy
echo '#include "squashfs/writer.h"' > "$T/f/bench/run.c"
fails "an include of a format's folder in bench/ fails" run_f
ok "the real tree: no file in bench/ or flashfs/cmd_bench.c names a format" \
	sh -c "! grep -n 'EXEMPT = {[^}]' '$FF_TOP/scripts/check-layers'"
done_testing
