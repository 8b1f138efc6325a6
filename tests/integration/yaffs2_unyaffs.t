#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Oracle: Debian's unyaffs extracts our `--tags classic --oob-layout offset0`
# images (the mkyaffs2image format) identical to the source: content,
# symlinks, hard links, directories, devices, modes, owners and times
# (unyaffs restores no xattrs).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/yaffs2_lib.sh"
need_root
command -v unyaffs > /dev/null || skip_all "unyaffs not installed"

make_kinds_tree "$T/src"
# unyaffs cannot create sockets; everything else must survive.
rm -f "$T/src/sock"

for page in 2048 4096 8192 16384; do
	for endian in little; do
		rm -rf "$T/out"
		ok "$page: mkfs classic offset0" mkfs.yaffs2 -q --tags classic --oob-layout offset0 \
			--page-size "$page" --oob-size $((page / 32)) "$T/src" "$T/img"
		ok "$page: unyaffs extracts" unyaffs "$T/img" "$T/out"
		same_manifest "$page: unyaffs tree = source" "$T/src" "$T/out" --no-xattrs --root-entry
	done
done

# A deeper tree with many files spread over several blocks.
mkdir -p "$T/many"
for i in $(seq 1 300); do
	mkdir -p "$T/many/d$((i % 7))"
	head -c $((i * 37)) /dev/urandom > "$T/many/d$((i % 7))/f$i"
done
rm -rf "$T/out"
ok "many files: mkfs" mkfs.yaffs2 -q --tags classic --oob-layout offset0 "$T/many" "$T/img"
ok "many files: unyaffs" unyaffs "$T/img" "$T/out"
same_manifest "many files: unyaffs tree = source" "$T/many" "$T/out" --no-xattrs

# The kernel-style default is not what unyaffs reads: the oracle can fail.
rm -rf "$T/out"
mkfs.yaffs2 -q "$T/many" "$T/img"
if unyaffs "$T/img" "$T/out" > /dev/null 2>&1; then
	ok "unyaffs cannot read kernel-style tags at OOB 2 (oracle is sensitive)" \
		test "$($MANIFEST "$T/many" | md5sum)" != "$($MANIFEST "$T/out" | md5sum)"
else
	ok "unyaffs cannot read kernel-style tags at OOB 2 (oracle is sensitive)" true
fi
done_testing
