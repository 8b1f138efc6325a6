#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# `flashfs mount IMG M; fusermount3 -u M` right away, 200 times in a row for
# a SquashFS and a YAFFS2 image: every unmount must succeed.  Nothing of
# ours may hold the mount (issue 20: a thread stat()ing the mount point to
# wait for FUSE_INIT made 1 in 8 to 1 in 50 unmounts fail with EBUSY).  The
# read-ahead window it waited for must still be raised.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/fuse_lib.sh"
fuse_need
RUNS=${FF_UNMOUNT_RUNS:-200}

mkdir -p "$T/src/d" "$T/m"
echo hello > "$T/src/d/f"
head -c 200000 /dev/urandom > "$T/src/big"
mkfs.squashfs -q "$T/src" "$T/img.sqfs" || skip_all "mkfs.squashfs failed"
mkfs.yaffs2 -q "$T/src" "$T/img.yaffs2" || skip_all "mkfs.yaffs2 failed"

# cycle IMAGE: mount and at once unmount RUNS times; prints the failures.
cycle() {
	local i fails=0
	for i in $(seq "$RUNS"); do
		flashfs mount "$1" "$T/m" || { echo "run $i: mount failed"; return 1; }
		if ! fusermount3 -u "$T/m" 2> "$T/err"; then
			fails=$((fails + 1))
			echo "run $i: $(cat "$T/err")"
			sleep 0.5
			fusermount3 -u "$T/m" || umount -l "$T/m"
		fi
	done
	echo "$fails of $RUNS unmounts failed"
	[ "$fails" -eq 0 ]
}

ok "squashfs: $RUNS mount/unmount cycles, no failure" cycle "$T/img.sqfs"
ok "yaffs2: $RUNS mount/unmount cycles, no failure" cycle "$T/img.yaffs2"
ok "nothing left mounted" bash -c "! mountpoint -q '$T/m'"

# The read-ahead window (readahead=, default 1M) is raised once INIT is
# answered, without anyone touching the mount.
flashfs mount -o readahead=2M "$T/img.sqfs" "$T/m"
dev=$(awk -v m="$T/m" '$5 == m {print $3}' /proc/self/mountinfo | tail -n 1)
got=
for i in $(seq 50); do
	got=$(cat "/sys/class/bdi/$dev/read_ahead_kb" 2> /dev/null)
	[ "$got" = 2048 ] && break
	sleep 0.1
done
is "$got" 2048 "readahead=2M: the mount's bdi read_ahead_kb is 2048"
ok "and it unmounts" fusermount3 -u "$T/m"
done_testing
