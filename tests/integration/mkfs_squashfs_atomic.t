#!/bin/bash
# Atomic output: IMAGE appears only when complete.  A build killed with
# SIGKILL or SIGTERM, or one that runs out of space, leaves no IMAGE (or the
# previous IMAGE untouched); SIGTERM and ENOSPC also leave no temporary.
. "$(dirname "$0")/../lib.sh"

need_root
command -v mkfs.squashfs >/dev/null || skip_all "mkfs.squashfs not built"

S=$T/src
mkdir -p "$S" "$T/out"
# incompressible data and a slow codec on one thread: the build takes a while
for i in 1 2 3 4; do head -c 16M /dev/urandom > "$S/r$i"; done
echo "old image" > "$T/out/old.sqfs"
cp "$T/out/old.sqfs" "$T/old.copy"

# start_and_kill SIGNAL IMAGE — kill a build once its temporary exists.
start_and_kill() {
	local sig=$1 img=$2 pid n=0
	mkfs.squashfs -q -c xz -X level=9 -j 1 "$S" "$img" > /dev/null 2>&1 &
	pid=$!
	while [ $n -lt 200 ] && ! ls "$img".tmp.* > /dev/null 2>&1; do
		sleep 0.05
		n=$((n + 1))
	done
	sleep 0.3
	kill -"$sig" "$pid"
	wait "$pid" 2>/dev/null
	return 0
}

start_and_kill KILL "$T/out/new.sqfs"
ok "SIGKILL: no IMAGE appears" test ! -e "$T/out/new.sqfs"
rm -f "$T/out/"new.sqfs.tmp.*
start_and_kill KILL "$T/out/old.sqfs"
ok "SIGKILL: the existing IMAGE is untouched" cmp "$T/out/old.sqfs" "$T/old.copy"
rm -f "$T/out/"old.sqfs.tmp.*
start_and_kill TERM "$T/out/old.sqfs"
ok "SIGTERM: the existing IMAGE is untouched" cmp "$T/out/old.sqfs" "$T/old.copy"
is "$(ls "$T/out")" "old.sqfs" "SIGTERM: the temporary is removed"

# A full file system: "no space", exit 2, old IMAGE kept, no temporary.
mkdir -p "$T/small"
if mount -t tmpfs -o size=8m none "$T/small" 2>/dev/null; then
	cp "$T/old.copy" "$T/small/img.sqfs"
	mkfs.squashfs -q -c lz4 "$S" "$T/small/img.sqfs" > "$T/enospc.out" 2>&1
	rc=$?
	is "$rc" 2 "ENOSPC: the build fails (exit 2)"
	ok "ENOSPC: the message says no space" grep -qi "no space" "$T/enospc.out"
	ok "ENOSPC: the existing IMAGE is untouched" cmp "$T/small/img.sqfs" "$T/old.copy"
	is "$(ls "$T/small")" "img.sqfs" "ENOSPC: no temporary is left"
	rm -f "$T/small/img.sqfs"
	mkfs.squashfs -q -c lz4 "$S" "$T/small/new.sqfs" > /dev/null 2>&1
	is "$(ls "$T/small")" "" "ENOSPC: no new IMAGE appears"
	umount "$T/small"
else
	skip "cannot mount tmpfs" "ENOSPC"
fi

# A finished build replaces the old IMAGE with a complete image.
ok "a good build replaces IMAGE" mkfs.squashfs -q -c lz4 "$S" "$T/out/old.sqfs"
ok "the new IMAGE is a complete image" unsquashfs -lls "$T/out/old.sqfs"
is "$(ls "$T/out")" "old.sqfs" "no temporary after success"

done_testing
