#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Atomic output: IMAGE appears only when complete.  The build writes an
# unnamed file (O_TMPFILE) in IMAGE's directory and links it into place at
# the end, so a build killed with SIGKILL or SIGTERM, or one that runs out
# of space, leaves no IMAGE (or the previous IMAGE untouched) and no other
# file at all — also kill -9 at 1, 2 and 3 s into an xz build of a Debian
# minbase rootfs, and of mkfs.yaffs2.  (Where the file system refuses
# O_TMPFILE, the named-temporary fallback: common_outfile.t.)
. "$(dirname "$0")/../lib.sh"

need_root
command -v mkfs.squashfs >/dev/null || skip_all "mkfs.squashfs not built"

S=$T/src
mkdir -p "$S" "$T/out"
# incompressible data and a slow codec on one thread: the build takes a while
for i in 1 2 3 4; do head -c 16M /dev/urandom > "$S/r$i"; done
echo "old image" > "$T/out/old.sqfs"
cp "$T/out/old.sqfs" "$T/old.copy"

# unnamed_in PID DIR — PID holds an unnamed (O_TMPFILE) file of DIR open
unnamed_in() { ls -l "/proc/$1/fd" 2> /dev/null | grep -q " $2/#[0-9]* (deleted)$"; }

# start_and_kill SIGNAL IMAGE — kill a build once it is writing its output;
# checks on the way that the output is unnamed and the directory unchanged.
start_and_kill() {
	local sig=$1 img=$2 pid n=0 before
	before=$(ls -A "$(dirname "$img")")
	mkfs.squashfs -q -c xz -X level=9 -j 1 "$S" "$img" > /dev/null 2>&1 &
	pid=$!
	while [ $n -lt 200 ] && ! unnamed_in "$pid" "$(dirname "$img")"; do
		sleep 0.05
		n=$((n + 1))
	done
	sleep 0.3
	ok "$sig: while building, the output is an unnamed file in IMAGE's directory" \
		unnamed_in "$pid" "$(dirname "$img")"
	is "$(ls -A "$(dirname "$img")")" "$before" "$sig: while building, no new name in the directory"
	kill -"$sig" "$pid"
	wait "$pid" 2>/dev/null
	return 0
}

start_and_kill KILL "$T/out/new.sqfs"
is "$(ls -A "$T/out")" "old.sqfs" "SIGKILL: no IMAGE and no temporary"
start_and_kill KILL "$T/out/old.sqfs"
ok "SIGKILL: the existing IMAGE is untouched" cmp "$T/out/old.sqfs" "$T/old.copy"
is "$(ls -A "$T/out")" "old.sqfs" "SIGKILL over an existing IMAGE: no temporary"
start_and_kill TERM "$T/out/old.sqfs"
ok "SIGTERM: the existing IMAGE is untouched" cmp "$T/out/old.sqfs" "$T/old.copy"
is "$(ls -A "$T/out")" "old.sqfs" "SIGTERM: no temporary"

# A full file system: "no space", exit 2, old IMAGE kept, no temporary.
mkdir -p "$T/small"
if mount -t tmpfs -o size=8m none "$T/small" 2>/dev/null; then
	cp "$T/old.copy" "$T/small/img.sqfs"
	mkfs.squashfs -q -c lz4 "$S" "$T/small/img.sqfs" > "$T/enospc.out" 2>&1
	rc=$?
	is "$rc" 2 "ENOSPC: the build fails (exit 2)"
	ok "ENOSPC: the message says no space" grep -qi "no space" "$T/enospc.out"
	ok "ENOSPC: the existing IMAGE is untouched" cmp "$T/small/img.sqfs" "$T/old.copy"
	is "$(ls -A "$T/small")" "img.sqfs" "ENOSPC: no temporary is left"
	rm -f "$T/small/img.sqfs"
	mkfs.squashfs -q -c lz4 "$S" "$T/small/new.sqfs" > /dev/null 2>&1
	is "$(ls -A "$T/small")" "" "ENOSPC: no new IMAGE appears"
	umount "$T/small"
else
	skip "cannot mount tmpfs" "ENOSPC"
fi

# A finished build replaces the old IMAGE with a complete image, with the
# mode open(2) gives (0666 less the umask).
ok "a good build replaces IMAGE" sh -c "umask 027 && mkfs.squashfs -q -c lz4 '$S' '$T/out/old.sqfs'"
ok "the new IMAGE is a complete image" unsquashfs -lls "$T/out/old.sqfs"
is "$(stat -c %a "$T/out/old.sqfs")" 640 "the new IMAGE has mode 0666 less the umask"
is "$(ls -A "$T/out")" "old.sqfs" "no temporary after success"
ok "a good build writes a new IMAGE" mkfs.squashfs -q -c lz4 "$S" "$T/out/fresh.sqfs"
is "$(stat -c %a "$T/out/fresh.sqfs")" "$(printf %o $((0666 & ~0$(umask))))" "... with mode 0666 less the umask"

# kill -9 at 1, 2 and 3 s into an xz build of a Debian minbase rootfs (made
# once by debootstrap, kept in build/rootfs/minbase like make bench-rootfs).
rootfs=$FF_TOP/build/rootfs/minbase
mkdir -p "$T/m"
if ! "$FF_TOP/bench/scripts/bench-rootfs.sh" "$rootfs" > "$T/rootfs.log" 2>&1; then
	skip "no Debian minbase rootfs: $(tail -n 1 "$T/rootfs.log")" "kill -9 of minbase builds"
else
	for s in 1 2 3; do
		mkfs.squashfs -q -c xz "$rootfs" "$T/m/minbase.sqfs" > /dev/null 2>&1 &
		pid=$!
		sleep "$s"
		ok "minbase xz build: still building at $s s" kill -0 "$pid"
		kill -9 "$pid"
		wait "$pid" 2> /dev/null
		is "$(ls -A "$T/m")" "" "minbase xz build: kill -9 at $s s leaves nothing in the target directory"
	done
	# xz-compressed, so that the build surely outlasts the second
	mkfs.yaffs2 -q -z xz "$rootfs" "$T/m/minbase.yaffs2" > /dev/null 2>&1 &
	pid=$!
	sleep 1
	ok "mkfs.yaffs2: still building at 1 s" kill -0 "$pid"
	kill -9 "$pid"
	wait "$pid" 2> /dev/null
	is "$(ls -A "$T/m")" "" "mkfs.yaffs2: kill -9 at 1 s leaves nothing in the target directory"
fi

done_testing
