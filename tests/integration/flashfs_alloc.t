#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Decoded blocks come and go through the reader's cache all the time; the
# programs keep them on the heap (common/malloc_tune.c) instead of mapping
# and unmapping each one, which cost a TLB flush on every CPU per block.
# Counted with strace on an extract and on a FUSE tree read of an image of
# 128 KiB blocks, where glibc's defaults unmap about once per block.
. "$(dirname "$0")/../lib.sh"
need_root
command -v mksquashfs > /dev/null || skip_all "mksquashfs not installed"
command -v strace > /dev/null || skip_all "strace not installed"
# AddressSanitizer brings its own allocator, which mallopt does not steer.
if nm "$(command -v flashfs)" 2> /dev/null | grep -q __asan_init; then
	skip_all "flashfs is built with AddressSanitizer (glibc's allocator is not in use)"
fi

mkdir -p "$T/src"
for i in $(seq 1 40); do
	head -c $((300000 + i * 7000)) /dev/urandom | base64 > "$T/src/f$i"
done
mksquashfs "$T/src" "$T/img" -b 128K -comp lz4 -noappend -quiet -no-progress > /dev/null


strace -f -c -o "$T/extract.st" -e trace=munmap flashfs extract -C "$T/out" "$T/img"
is "$?" 0 "extract under strace succeeds"
ok "extract: content as the source" diff -r "$T/src" "$T/out"
n=$(syscall_count "$T/extract.st" munmap)
ok "extract: few unmaps for $(ls "$T/src" | wc -l) files of 128 KiB blocks (got $n)" test "$n" -lt 40

traced_mount_diff munmap "$T/mount.st" "$T/src" "$T/img" "$T/mnt"
n=$(syscall_count "$T/mount.st" munmap)
ok "mount: few unmaps while serving the tree (got $n)" test "$n" -lt 15
done_testing
