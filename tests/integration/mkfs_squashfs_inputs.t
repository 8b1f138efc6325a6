#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# The same tree from a directory, from tar archives of it (plain, gzip, xz,
# zstd, on stdin) and from a spec file gives the same image, byte for byte;
# and a spec file lets a build add root-owned device nodes.
. "$(dirname "$0")/../lib.sh"

need_root
command -v mkfs.squashfs >/dev/null || skip_all "mkfs.squashfs not built"
command -v tar >/dev/null || skip_all "GNU tar not installed"

S=$T/src
mkdir -p "$S/etc/deep/er" "$S/bin" "$S/empty"
printf 'root:x:0:0::/root:/bin/sh\n' > "$S/etc/passwd"
head -c 200000 /dev/urandom > "$S/bin/busybox"
cp "$S/bin/busybox" "$S/bin/copy"
ln "$S/etc/passwd" "$S/etc/deep/er/hard"
ln -s /bin/busybox "$S/bin/sh"
mkfifo "$S/etc/fifo"
mknod "$S/etc/null" c 1 3
chmod 4755 "$S/bin/busybox"
chown 1000:100 "$S/etc/deep"
setfattr -n user.origin -v test "$S/etc/passwd" 2>/dev/null
find "$S" -exec touch -h -d @1234567890 {} +

OPTS="-q -b 16K --mtime 1600000000"
ok "directory: build" mkfs.squashfs $OPTS "$S" "$T/dir.sqfs"

tar_opts="--numeric-owner --xattrs --xattrs-include=* -C $S"
tar -cf "$T/src.tar" $tar_opts .
ok "tar: build" mkfs.squashfs $OPTS "$T/src.tar" "$T/tar.sqfs"
ok "tar gives the directory's image" cmp "$T/dir.sqfs" "$T/tar.sqfs"
for z in gzip xz zstd; do
	if command -v $z > /dev/null; then
		$z -c "$T/src.tar" > "$T/src.tar.$z"
		ok "tar.$z: build" mkfs.squashfs $OPTS "$T/src.tar.$z" "$T/tar-$z.sqfs"
		ok "tar.$z gives the directory's image" cmp "$T/dir.sqfs" "$T/tar-$z.sqfs"
	else
		skip "$z not installed" "tar.$z"
	fi
done
ok "tar on stdin: build" bash -c "mkfs.squashfs $OPTS - '$T/stdin.sqfs' < '$T/src.tar'"
ok "tar on stdin gives the directory's image" cmp "$T/dir.sqfs" "$T/stdin.sqfs"

# Ten thousand small members cost a few system calls in all, not two each:
# the spool gathers their writes and reads them back in windows (issue 33).
if command -v strace > /dev/null; then
	python3 "$FF_TOP/bench/scripts/gen-tar-stream.py" 10000 > "$T/10k.tar" 2> /dev/null
	# (LeakSanitizer cannot run under ptrace: leaks are checked elsewhere)
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -c -o "$T/spool.st" -e trace=pwrite64,pread64,preadv \
		mkfs.squashfs -q -c lz4 "$T/10k.tar" "$T/10k.sqfs" > /dev/null
	is "$?" 0 "10,000 tar members: build under strace"
	mkdir -p "$T/10k-tar"
	tar -xf "$T/10k.tar" -C "$T/10k-tar"
	ok "10,000 tar members: extract" flashfs extract -C "$T/10k-out" "$T/10k.sqfs"
	ok "10,000 tar members: the image holds the archive's files" diff -r "$T/10k-tar" "$T/10k-out"
	w=$(syscall_count "$T/spool.st" pwrite64)
	r=$(( $(syscall_count "$T/spool.st" pread64) + $(syscall_count "$T/spool.st" preadv) ))
	ok "10,000 tar members: spooled in few writes (got $w)" test "$w" -lt 300
	ok "10,000 tar members: read back in few reads (got $r)" test "$r" -lt 300
else
	skip "strace not installed" "spool system calls"
fi

# A spec file adds /dev/console owned by root to a tree, as a non-root
# build of a rootfs needs; the kernel shows it.
cat > "$T/dev.spec" <<SPEC
dir /dev 755 0 0
nod /dev/console 600 0 5 c 5 1
SPEC
ok "spec: build" mkfs.squashfs $OPTS --spec "$T/dev.spec" "$S" "$T/spec.sqfs"
mkdir -p "$T/mnt"
if mount -o loop,ro "$T/spec.sqfs" "$T/mnt" 2>/dev/null; then
	is "$(stat -c '%F %a %u:%g %t:%T' "$T/mnt/dev/console")" \
		"character special file 600 0:5 5:1" "spec: /dev/console is in the image"
	umount "$T/mnt"
else
	ok "spec: kernel mounts the image" false
fi

# Excludes, GNU and mksquashfs spellings (-e after SOURCE IMAGE takes the rest).
names() { unsquashfs -l "$1" | grep '^squashfs-root' | sed 's|^squashfs-root/*||' | sort | tr '\n' ' '; }
ok "--exclude: build" mkfs.squashfs -q --exclude bin/copy -e etc/deep "$S" "$T/ex1.sqfs"
is "$(names "$T/ex1.sqfs")" " bin bin/busybox bin/sh empty etc etc/fifo etc/null etc/passwd " \
	"--exclude and -e PATTERN leave the paths out"
ok "mksquashfs -e: build" mkfs.squashfs "$S" "$T/ex2.sqfs" -noappend -e bin empty -quiet
is "$(names "$T/ex2.sqfs")" " etc etc/deep etc/deep/er etc/deep/er/hard etc/fifo etc/null etc/passwd " \
	"mksquashfs -e takes every following pattern"

# --sort: higher priority data is stored first.  Random data is stored raw,
# so the first bytes after the superblock show which file came first.
mkdir -p "$T/sort"
head -c 65536 /dev/urandom > "$T/sort/a"
head -c 65536 /dev/urandom > "$T/sort/z"
first() { od -An -tx1 -j96 -N32 "$1"; }
ok "sort: unsorted build" mkfs.squashfs -q "$T/sort" "$T/unsorted.sqfs"
is "$(first "$T/unsorted.sqfs")" "$(od -An -tx1 -N32 "$T/sort/a")" "without --sort, tree order: a first"
echo "z 10" > "$T/sort.txt"
ok "sort: sorted build" mkfs.squashfs -q --sort "$T/sort.txt" "$T/sort" "$T/sorted.sqfs"
is "$(first "$T/sorted.sqfs")" "$(od -An -tx1 -N32 "$T/sort/z")" "--sort puts z first"

done_testing
