#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# The format registry and the byte sources (issue 27) changed how images
# are read, not how they are written: every image the builders wrote before
# that change must come out byte-identical after it.  The oracle is the
# builders of commit BASE (the last before the change), built here from
# this repository's history; both build the same trees with the same
# options and SOURCE_DATE_EPOCH, and each pair is compared with cmp.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/yaffs2_lib.sh"
need_root
BASE=ac4cb30
# An unpacked `make dist` tarball has no history (and a parent folder's
# repository must not stand in for it).
[ -e "$FF_TOP/.git" ] || skip_all "no .git (an unpacked make dist tarball): the base commit's builders cannot be built"
git -C "$FF_TOP" cat-file -e "$BASE^{commit}" 2> /dev/null ||
	skip_all "commit $BASE is not in this checkout's history (a tarball or a shallow clone)"
cd "$T" || exit 2
mkdir base
git -C "$FF_TOP" archive "$BASE" | tar -x -C base
make -C base -j2 -s build/bin/mkfs.squashfs build/bin/mkfs.yaffs2 build/bin/mkfs.ubi \
	> base.log 2>&1 || { tail -n 20 base.log; skip_all "commit $BASE did not build"; }
OLD=$T/base/build/bin
export SOURCE_DATE_EPOCH=1700000000

make_kinds_tree src
rm -f src/sock
seq 1 300000 > src/numbers
head -c 300000 /dev/urandom > src/random
cp src/numbers src/dup

same() { # NAME PROGRAM ARGS... (the image is the last argument: out.img)
	local name=$1 prog=$2
	shift 2
	rm -f old.img new.img
	"$OLD/$prog" "${@/out.img/old.img}" > /dev/null 2>&1
	"$FF_BIN/$prog" "${@/out.img/new.img}" > /dev/null 2>&1
	ok "$name: byte-identical to $BASE's" sh -c '[ -s old.img ] && cmp old.img new.img'
}

for c in gzip lzo xz lz4 zstd; do
	same "mkfs.squashfs -comp $c" mkfs.squashfs src out.img -noappend -comp "$c"
done
same "mkfs.squashfs -b 4K -all-root" mkfs.squashfs src out.img -noappend -b 4K -all-root
same "mkfs.squashfs -no-fragments" mkfs.squashfs src out.img -noappend -no-fragments
same "mkfs.squashfs -Xbcj x86 -comp xz" mkfs.squashfs src out.img -noappend -comp xz -Xbcj x86
same "mkfs.yaffs2 2048+64" mkfs.yaffs2 -q src out.img
same "mkfs.yaffs2 4096+128 big-endian classic" mkfs.yaffs2 -q --page-size 4096 --oob-size 128 \
	--endian big --tags classic --oob-layout offset0 src out.img
same "mkfs.yaffs2 512 inband" mkfs.yaffs2 -q --chip nandsim-512 --no-xattrs src out.img
same "mkfs.ubi --squashfs" mkfs.ubi -o out.img -p 128KiB -m 2048 -Q 42 --squashfs src -- -comp xz
done_testing
