#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# flashfs mount behaviour beyond plain reading: offset=, subdir=, uid=/gid=,
# EROFS on every write, concurrent readers, a damaged image (EIO for that
# file, a log line, the mount stays up), timeout=, exit codes, and the
# mount(8)/fstab helper mount.fuse.flashfs.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/fuse_lib.sh"
fuse_need
command -v mksquashfs >/dev/null || skip_all "mksquashfs missing"

fuse_make_tree "$T/src" 50
mksquashfs "$T/src" "$T/img.sqfs" -noappend -quiet -no-progress >/dev/null || skip_all "mksquashfs failed"
M=$T/mnt

# --- bad invocations: message, exit 2, nothing mounted
mkdir -p "$M"
fails "missing image: exit non-zero" flashfs mount "$T/nope.sqfs" "$M"
flashfs mount "$T/nope.sqfs" "$M" 2>"$T/err"; is "$?" 2 "missing image: exit 2"
ok "missing image: message names the file" grep -q "nope.sqfs" "$T/err"
head -c 100000 /dev/urandom >"$T/garbage"
flashfs mount "$T/garbage" "$M" 2>"$T/err"; is "$?" 2 "not an image: exit 2"
ok "not an image: message names the file" grep -q garbage "$T/err"
flashfs mount -o cache=lots "$T/img.sqfs" "$M" 2>"$T/err"; is "$?" 2 "bad option value: exit 2"
ok "bad option value: message names it" grep -q "cache=lots" "$T/err"
flashfs mount -o subdir=/small.txt "$T/img.sqfs" "$M" 2>"$T/err"; is "$?" 2 "subdir= on a file: exit 2"
flashfs mount "$T/img.sqfs" "$T/src/small.txt" 2>"$T/err"; is "$?" 2 "mount point not a directory: exit 2"
ok "nothing left mounted" bash -c "! mountpoint -q '$M'"

# --- writes are refused with EROFS
fuse_mount "$M" "$T/img.sqfs"
erofs() { # CMD... must fail and say "Read-only file system"
	local out
	out=$("$@" 2>&1) && return 1
	printf '%s\n' "$out" | grep -q "Read-only file system"
}
ok "touch: EROFS" erofs touch "$M/new-file"
ok "write to a file: EROFS" erofs bash -c "echo x >> '$M/small.txt'"
ok "mkdir: EROFS" erofs mkdir "$M/newdir"
ok "rm: EROFS" erofs rm -f "$M/small.txt"
ok "rmdir: EROFS" erofs rmdir "$M/empty"
ok "mv: EROFS" erofs mv "$M/small.txt" "$M/moved"
ok "ln -s: EROFS" erofs ln -s x "$M/newlink"
ok "chmod: EROFS" erofs chmod 600 "$M/text"
ok "setfattr: EROFS" erofs setfattr -n user.x -v 1 "$M/text"
ok "truncate: EROFS" erofs truncate -s 0 "$M/text"
same_manifest "tree unchanged after the write attempts" "$T/src" "$M"

# --- several processes reading the same and different files at once
sum() { sha256sum <"$1" | cut -d' ' -f1; }
for f in random text block+1 sparse; do sum "$T/src/$f" >"$T/want.$f"; done
pids=()
for i in 1 2 3 4 5 6 7 8; do
	for f in random text block+1 sparse; do
		(sum "$M/$f" >"$T/got.$f.$i") &
		pids+=($!)
	done
done
wait "${pids[@]}"
bad=0
for i in 1 2 3 4 5 6 7 8; do
	for f in random text block+1 sparse; do cmp -s "$T/want.$f" "$T/got.$f.$i" || bad=$((bad + 1)); done
done
is "$bad" 0 "32 concurrent whole-file reads (4 files x 8 processes) all correct"
ok "random 4 KiB reads at odd offsets match the source" python3 - "$T/src/random" "$M/random" <<'PY'
import os, random, sys
a, b = (os.open(p, os.O_RDONLY) for p in sys.argv[1:])
size = os.fstat(a).st_size
rnd = random.Random(7)
for _ in range(2000):
    off = rnd.randrange(0, size + 5000)
    if os.pread(a, 4096, off) != os.pread(b, 4096, off):
        sys.exit('differs at %d' % off)
PY
fuse_umount "$M"

# --- subdir=, uid=, gid=
fuse_mount "$M" "$T/img.sqfs" -o subdir=/a/b,uid=4321,gid=8765
same_manifest "subdir=/a/b shows that subtree" "$T/src/a/b" "$M" --no-owner
is "$(stat -c %u:%g "$M/c/d/deep")" 4321:8765 "uid=/gid= override every owner"
is "$(stat -c %u:%g "$M")" 4321:8765 "uid=/gid= on the mount root too"
fuse_umount "$M"

# --- offset=: the same image 1 MiB into a bigger file
{ head -c 1048576 /dev/zero; cat "$T/img.sqfs"; head -c 4096 /dev/zero; } >"$T/padded.bin"
fuse_mount "$M" "$T/padded.bin" -o offset=1M
same_manifest "offset=1M finds the image inside a larger file" "$T/src" "$M"
fuse_umount "$M"
fails "without offset= the padded file is refused" flashfs mount "$T/padded.bin" "$M"

# --- a damaged data block: EIO for that file only, a log line, still mounted
python3 - "$T/damaged" <<'PY'
import os, sys
os.makedirs(sys.argv[1])
with open(os.path.join(sys.argv[1], 'a-victim'), 'wb') as f:
    f.write(b''.join(b'victim line %d\n' % i for i in range(100000)))
with open(os.path.join(sys.argv[1], 'ok.txt'), 'wb') as f:
    f.write(b'still fine\n')
PY
mksquashfs "$T/damaged" "$T/damaged.sqfs" -noappend -quiet -no-progress >/dev/null
# The first data block of the first file starts right after the 96-byte superblock.
printf 'XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX' |
	dd of="$T/damaged.sqfs" bs=1 seek=200 conv=notrunc status=none
mkdir -p "$M"
flashfs mount -f "$T/damaged.sqfs" "$M" 2>"$T/damaged.log" &
fgpid=$!
for i in $(seq 50); do mountpoint -q "$M" && break; sleep 0.1; done
fails "reading the damaged file fails" cat "$M/a-victim"
err=$(cat "$M/a-victim" 2>&1 >/dev/null)
case $err in *"Input/output error"*) r=EIO ;; *) r="$err" ;; esac
is "$r" EIO "the damaged file gives EIO"
is "$(cat "$M/ok.txt")" "still fine" "another file still reads"
ok "the mount is still up" mountpoint -q "$M"
ok "a log line names the problem" test -s "$T/damaged.log"
fuse_umount "$M"
wait "$fgpid"
is "$?" 0 "foreground mounter exits 0 after unmount"

# --- spin=: the receiving thread polls after a request, then sleeps
# running_threads PID — how many of the process's threads are running now
running_threads() { grep -l '^State:.*R' /proc/"$1"/task/*/status 2>/dev/null | wc -l; }
for spin in 0 200 300000; do
	fuse_mount "$M" "$T/img.sqfs" -o spin=$spin
	pid=$(pgrep -n -f "flashfs mount -o spin=$spin")
	ok "spin=$spin: the mounter's process is found" test -d "/proc/${pid:-none}/task"
	is "$(find "$M" | wc -l)" "$(find "$T/src" | wc -l)" "spin=$spin: find sees every entry"
	is "$(sum "$M/random")" "$(sum "$T/src/random")" "spin=$spin: a file reads back"
	sleep 1.5 # well past the longest spin
	busy=0
	for i in 1 2 3 4 5; do busy=$((busy + $(running_threads "$pid"))); sleep 0.1; done
	is "$busy" 0 "spin=$spin: an idle mount has no running thread"
	fuse_umount "$M"
done

# --- follow=: the receiving thread serves a reader from the reader's CPU,
# and lets the CPU go when the mount is idle
# pinned_checks PID FIRST LAST: reads many/fFIRST..fLAST one by one on CPU 1
# (each a cold READ), printing the loop thread's CPU list after each
pinned_checks() {
	taskset -c 1 bash -c 'for i in $(seq "$2" "$3"); do
		cat "$4/many/f$(printf %05d "$i")" > /dev/null
		taskset -pc "$1" | sed "s/.*: //"
	done' _ "$@" "$M"
}
# cpus_of PID: the CPU list of each of its threads, one per line
cpus_of() { for t in /proc/"$1"/task/*; do taskset -pc "${t##*/}" | sed 's/.*: //'; done; }
if [ "$(nproc)" -ge 2 ]; then
	fuse_mount "$M" "$T/img.sqfs" -o follow=1
	pid=$(pgrep -n -f "flashfs mount -o follow=1")
	# the CPUs the daemon started with are this shell's (its own may be
	# pinned already by the requests of the mount itself)
	all=$(taskset -pc $$ | sed 's/.*: //')
	pinned_checks "$pid" 0 29 > "$T/follow1"
	ok "follow=1: the loop thread moves to the reader's CPU" grep -qx 1 "$T/follow1"
	tar -cf - -C "$M" . | wc -c > /dev/null # starts the prefetch workers
	# the CPU is let go after 100 ms idle: waited for (up to 20 s on a
	# loaded machine), not slept on
	for i in $(seq 200); do
		[ "$(cpus_of "$pid" | sort -u)" = "$all" ] && break
		sleep 0.1
	done
	is "$(cpus_of "$pid" | sort -u)" "$all" "follow=1: idle, every thread has every CPU again"
	is "$(sum "$M/random")" "$(sum "$T/src/random")" "follow=1: a file reads back"
	fuse_umount "$M"
	fuse_mount "$M" "$T/img.sqfs" -o follow=0
	pid=$(pgrep -n -f "flashfs mount -o follow=0")
	pinned_checks "$pid" 30 49 > "$T/follow0"
	is "$(sort -u "$T/follow0")" "$all" "follow=0: the loop thread keeps every CPU"
	fuse_umount "$M"
else
	for n in "moves to the reader's CPU" "idle, every CPU again" "a file reads back" \
		"follow=0 keeps every CPU"; do skip "needs two CPUs" "follow: $n"; done
fi

# --- timeout=: unmounts by itself when idle, not while in use
fuse_mount "$M" "$T/img.sqfs" -o timeout=1
ok "timeout=1: unmounted by itself" fuse_wait_gone "$M" 20
# timeout=3 here: the file must be open before the mount has been idle
# that long, and a loaded machine (CI's ASan pass beside a full check) can
# take over a second between the mount and the open
fuse_mount "$M" "$T/img.sqfs" -o timeout=3
exec 9<"$M/text"
sleep 5
ok "timeout=3: a mount with an open file stays past its timeout" mountpoint -q "$M"
exec 9<&-
ok "timeout=3: unmounted once the file is closed" fuse_wait_gone "$M" 20
mountpoint -q "$M" && fuse_umount "$M"

# --- mount(8) and fstab through /sbin/mount.fuse.flashfs
helper=$(command -v mount.fuse.flashfs)
if [ -z "$helper" ]; then
	skip "mount.fuse.flashfs not built" "mount -t fuse.flashfs"
elif [ -e /sbin/mount.fuse.flashfs ]; then
	skip "/sbin/mount.fuse.flashfs exists already; not replacing it" "mount -t fuse.flashfs"
else
	cp "$helper" /sbin/mount.fuse.flashfs
	trap '_tap_cleanup; rm -f /sbin/mount.fuse.flashfs' EXIT
	ok "mount -t fuse.flashfs" mount -t fuse.flashfs "$T/img.sqfs" "$M"
	is "$(findmnt -no FSTYPE "$M")" fuse.flashfs "mount(8): type fuse.flashfs"
	ok "mount(8): read-only" bash -c "findmnt -no OPTIONS '$M' | grep -qw ro"
	same_manifest "mount(8): every object matches" "$T/src" "$M"
	ok "umount" umount "$M"
	printf '%s %s fuse.flashfs ro,allow_other,subdir=/a,nofail,x-test=1 0 0\n' "$T/img.sqfs" "$M" >"$T/fstab"
	ok "fstab line: mount MOUNTPOINT" mount -T "$T/fstab" "$M"
	same_manifest "fstab line: subdir= applied" "$T/src/a" "$M"
	ok "fstab line: allow_other passed" bash -c "findmnt -no OPTIONS '$M' | grep -q allow_other"
	ok "umount" umount "$M"
	rm -f /sbin/mount.fuse.flashfs
fi

# --- without the helper, mount(8) goes through mount.fuse3, which runs
# `flashfs IMAGE MOUNTPOINT -o OPTIONS`, looking flashfs up in mount's own
# fixed PATH, so the test puts it in /usr/sbin for the duration.
if [ -e /sbin/mount.fuse.flashfs ] || ! command -v mount.fuse3 >/dev/null ||
	[ -e /usr/sbin/flashfs ]; then
	skip "mount.fuse3 missing, or mount.fuse.flashfs / /usr/sbin/flashfs present" "mount -t fuse.flashfs via mount.fuse3"
else
	cp "$(command -v flashfs)" /usr/sbin/flashfs
	trap '_tap_cleanup; rm -f /usr/sbin/flashfs' EXIT
	ok "mount -t fuse.flashfs via mount.fuse3" mount -t fuse.flashfs "$T/img.sqfs" "$M"
	same_manifest "mount.fuse3: every object matches" "$T/src" "$M"
	ok "umount" umount "$M"
	rm -f /usr/sbin/flashfs
fi

done_testing
