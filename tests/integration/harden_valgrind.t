#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# valgrind smoke subset: the builders and the main read commands on small
# images, with memcheck's errors turned into exit 99 (leaks are reported by
# the ASan build; here: invalid reads/writes, uninitialised values,
# mismatched frees).  Also one damaged image, where the error paths run.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/harden_lib.sh"

command -v valgrind > /dev/null || skip_all "valgrind not installed"
for p in flashfs mkfs.squashfs mkfs.yaffs2; do
	command -v $p > /dev/null || skip_all "$p not built"
done
# An ASan build cannot run under valgrind.
if nm "$(command -v flashfs)" 2> /dev/null | grep -q __asan_init; then
	skip_all "flashfs is built with AddressSanitizer (run this test on the plain build)"
fi

VG=(valgrind --error-exitcode=99 -q --track-origins=yes --leak-check=no)
vg() { # vg NAME CMD... — passes unless valgrind reported an error (exit 99)
	local name=$1 rc
	shift
	"${VG[@]}" "$@" > "$T/vg.out" 2> "$T/vg.err"
	rc=$?
	_tap_n=$((_tap_n + 1))
	if [ $rc -ne 99 ] && [ $rc -lt 128 ] && ! grep -q '^==[0-9]*== ' "$T/vg.err"; then
		echo "ok $_tap_n - $name (exit $rc)"
	else
		echo "not ok $_tap_n - $name (exit $rc)"
		head -n 30 "$T/vg.err" | sed 's/^/#   /'
		_tap_fail=$((_tap_fail + 1))
	fi
}

harden_tree "$T/src"
vg "mkfs.squashfs under valgrind" mkfs.squashfs -q -b 4K -j 2 "$T/src" "$T/a.sqfs"
vg "mkfs.squashfs -c xz under valgrind" mkfs.squashfs -q -c xz "$T/src" "$T/x.sqfs"
vg "mkfs.yaffs2 under valgrind" mkfs.yaffs2 -q "$T/src" "$T/a.y2"
for img in "$T/a.sqfs" "$T/x.sqfs" "$T/a.y2"; do
	n=$(basename "$img")
	vg "flashfs ls -lR $n" flashfs ls -lR "$img"
	vg "flashfs check $n" flashfs check "$img"
	vg "flashfs info $n" flashfs info "$img"
done
# valgrind 3.19 does not know openat2 (syscall 437) and returns ENOSYS, as
# a kernel before 5.6 would: extraction then relies on the component-by-
# component fallback, which must give the same tree.
vg "flashfs extract a.sqfs" flashfs extract --no-progress -j 2 -C "$T/out" "$T/a.sqfs"
same_manifest "extraction under valgrind (no openat2) matches the source" "$T/src" "$T/out"
vg "flashfs extract a.y2" flashfs extract --no-progress -j 2 -C "$T/out-y2" "$T/a.y2"

# Damaged: a few bytes of the inode table zeroed.
cp "$T/a.sqfs" "$T/bad.sqfs"
python3 - "$T/bad.sqfs" <<'PY'
import struct, sys
p = sys.argv[1]
d = bytearray(open(p, "rb").read())
start = struct.unpack_from("<Q", d, 64)[0]
d[start + 2:start + 40] = bytes(38)
open(p, "wb").write(d)
PY
vg "flashfs check on a damaged image" flashfs check "$T/bad.sqfs"
vg "flashfs ls -lR on a damaged image" flashfs ls -lR "$T/bad.sqfs"
done_testing
