#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# scripts/fresh-check's mounts, on a tiny busybox root instead of a
# debootstrapped one (the full run, Debian and the whole suite inside, is
# `make fresh-check` in CI): the command runs inside with /proc, /sys and
# /dev (loop devices, /dev/fuse, /dev/pts, /dev/shm) mounted, and a passing
# command, a failing one, SIGTERM and SIGINT all leave no mount and no
# process under the root.
. "$(dirname "$0")/../lib.sh"

need_root
[ -x /bin/busybox ] || skip_all "busybox-static not installed"
[ -e "$FF_TOP/.git" ] || skip_all "no .git (an unpacked make dist tarball): fresh-check clones the checkout"
git -C "$FF_TOP" rev-parse HEAD > /dev/null 2>&1 || skip_all "$FF_TOP is not a git checkout"

R=$T/root
mkdir -p "$R/bin" "$R/usr/bin" "$R/proc" "$R/sys" "$R/dev" "$R/root" "$R/mnt"
cp /bin/busybox "$R/bin/"
for a in sh cat ls test sleep mkdir mount; do ln -s busybox "$R/bin/$a"; done
ln -s /bin/busybox "$R/usr/bin/env"

fresh() { FRESH_ROOT=$R FRESH_PREPARED=1 FRESH_KEEP=1 FRESH_CMD=$1 "$FF_TOP/scripts/fresh-check"; }
mounts_under_root() { awk -v r="$R" '$2 == r || index($2, r "/") == 1' /proc/mounts | wc -l; }
procs_in_root() { find /proc/[0-9]*/root -maxdepth 0 -lname "$R" 2>/dev/null | wc -l; }

ok "a command runs inside with /proc, /sys, /dev, loop, fuse and the clone" fresh \
	'test -e /proc/self/status && test -d /sys/block && test -c /dev/null &&
	 test -c /dev/loop-control && test -c /dev/fuse && test -d /dev/pts && test -d /dev/shm &&
	 test -f /root/flashfs-tools/Makefile && test ! -e /root/flashfs-tools/build'
is "$(mounts_under_root)" 0 "passed: no mount left under the root"

fresh 'exit 3' > "$T/fail.out" 2>&1
is "$?" 3 "a failing command fails the run with its exit status"
is "$(mounts_under_root)" 0 "failed: no mount left under the root"
ok "failed: the log says cleanup found nothing left" grep -q "cleanup: no mount left" "$T/fail.out"

ok "a mount a command leaves inside is removed too" fresh 'mkdir -p /mnt/left && mount -t tmpfs none /mnt/left'
is "$(mounts_under_root)" 0 "left mount: no mount left under the root"

# interrupted SIG — the run is stopped by SIG while the command sleeps
# inside; prints its exit status, or "still running" if SIG did not stop it
# within 30 s.  env gives it default SIGINT/SIGQUIT, which a background job
# (and everything under `make check` run in the background, as fresh-check
# itself does) would otherwise start with ignored, untrappable.
interrupted() {
	local sig=$1 pid n=0
	FRESH_ROOT=$R FRESH_PREPARED=1 FRESH_KEEP=1 FRESH_CMD='sleep 120' \
		env --default-signal=INT,QUIT "$FF_TOP/scripts/fresh-check" > "$T/$sig.out" 2>&1 &
	pid=$!
	while [ $n -lt 300 ] && ! grep -q 'step: inside' "$T/$sig.out"; do sleep 0.1; n=$((n + 1)); done
	sleep 0.5
	kill -"$sig" "$pid"
	n=0
	while [ $n -lt 300 ] && kill -0 "$pid" 2> /dev/null; do sleep 0.1; n=$((n + 1)); done
	if kill -0 "$pid" 2> /dev/null; then
		kill -TERM "$pid"
		wait "$pid"
		echo "still running"
		return
	fi
	wait "$pid"
	echo "$?"
}
is "$(interrupted TERM)" 143 "SIGTERM: the run fails (exit 143)"
is "$(mounts_under_root)" 0 "SIGTERM: no mount left under the root"
is "$(procs_in_root)" 0 "SIGTERM: no process left in the root"
is "$(interrupted INT)" 130 "SIGINT: the run fails (exit 130)"
is "$(mounts_under_root)" 0 "SIGINT: no mount left under the root"
is "$(procs_in_root)" 0 "SIGINT: no process left in the root"

mount -t tmpfs none "$R/mnt"
fresh true > "$T/busy.out" 2>&1
is "$?" 2 "a root with mounts from an earlier run is refused"
ok "... saying so" grep -q "mounts under $R from an earlier run" "$T/busy.out"
umount "$R/mnt"
done_testing
