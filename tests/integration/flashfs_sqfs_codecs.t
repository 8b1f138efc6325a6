#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# flashfs extract / ls / cat / check against images made by Debian's
# mksquashfs (every codec and several layouts) and squashfs-tools-ng.
# Oracles: the source tree (manifest.py), find, unsquashfs -lls.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/flashfs_sqfs_tree.sh"
need_root
command -v mksquashfs >/dev/null || skip_all "mksquashfs not installed"
command -v setfattr >/dev/null || skip_all "attr tools not installed"

make_tree "$T/src"
SRC=$T/src

# The whole cycle for one image: extract, ls, cat, check.
cycle() {
	local name=$1 img=$2 out="$T/out-$1"
	shift 2
	ok "$name: check passes" flashfs check -q "$img"
	ok "$name: extract" flashfs extract --no-progress -j 2 -C "$out" "$img"
	same_manifest "$name: extraction equals the source" "$SRC" "$out" "$@"
	flashfs ls -R "$img" | sed 's|^/||' | sort > "$T/ls.txt"
	(cd "$SRC" && find . -mindepth 1 | sed 's|^\./||' | sort) > "$T/find.txt"
	ok "$name: ls -R lists every entry (find)" cmp "$T/ls.txt" "$T/find.txt"
	flashfs ls -lR "$img" | awk '{print substr($1,1,1), $NF}' | sed 's| /| |' | grep -v '^l' | sort > "$T/ll.txt"
	unsquashfs -lls -d '' "$img" 2>/dev/null | awk '$1 ~ /^[-dlcbps][-r][-w]/ && NF >= 6 {print substr($1,1,1), $NF}' |
		sed 's| /| |' | grep -v '^l' | sort > "$T/un.txt"
	ok "$name: ls -lR types match unsquashfs -lls" cmp "$T/ll.txt" "$T/un.txt"
	ok "$name: cat matches" cmp <(flashfs cat "$img" sub/text random) <(cat "$SRC/sub/text" "$SRC/random")
	rm -rf "$out"
}

mk() { # NAME ARGS...: build with mksquashfs, skip when the codec is missing
	local name=$1
	shift
	if mksquashfs "$T/src" "$T/$name.sqfs" -noappend -quiet -no-progress "$@" >"$T/mk.log" 2>&1; then
		cycle "$name" "$T/$name.sqfs"
	else
		skip "mksquashfs $* failed: $(head -c 200 "$T/mk.log")" "$name"
	fi
	rm -f "$T/$name.sqfs"
}

mk gzip -comp gzip
mk gzip-4k -comp gzip -b 4096
mk lzo -comp lzo
mk xz-bcj -comp xz -Xbcj x86 -b 1M
mk lzma -comp lzma
mk lz4-hc -comp lz4 -Xhc
mk zstd -comp zstd -Xcompression-level 19
mk uncompressed -comp gzip -noI -noD -noF -noX
mk no-fragments -comp xz -no-fragments
mk always-fragments -comp lz4 -always-use-fragments -no-duplicates
mk not-exportable -comp zstd -no-exports -no-sparse

if command -v gensquashfs >/dev/null; then
	for c in gzip xz zstd; do
		if gensquashfs -D "$T/src" -c "$c" -k -x -q "$T/ng-$c.sqfs" >"$T/mk.log" 2>&1; then
			# gensquashfs stores hard links as separate inodes and drops
			# empty xattr values, so those are not compared.
			cycle "gensquashfs-$c" "$T/ng-$c.sqfs" --no-owner --no-links --no-xattrs
		else
			skip "gensquashfs failed: $(head -c 200 "$T/mk.log")" "gensquashfs-$c"
		fi
	done
	(cd "$T/src" && tar 2>/dev/null --xattrs --xattrs-include='*' -cf "$T/src.tar" .)
	# tar drops the socket: compare with tar's own extraction
	mkdir "$T/tarsrc"
	tar --xattrs --xattrs-include='*' -C "$T/tarsrc" -xf "$T/src.tar"
	if tar2sqfs -q -c xz "$T/tar2sqfs.sqfs" < "$T/src.tar" >"$T/mk.log" 2>&1; then
		SRC=$T/tarsrc cycle tar2sqfs "$T/tar2sqfs.sqfs" --no-xattrs
	else
		skip "tar2sqfs failed: $(head -c 200 "$T/mk.log")" tar2sqfs
	fi
else
	skip "squashfs-tools-ng not installed" gensquashfs
fi

MKFS=$(command -v mkfs.squashfs || true)
if [ -n "$MKFS" ] && "$MKFS" "$T/src" "$T/ours.sqfs" >"$T/mk.log" 2>&1 && [ -s "$T/ours.sqfs" ]; then
	cycle mkfs.squashfs "$T/ours.sqfs"
else
	skip "mkfs.squashfs not usable yet: $(head -c 200 "$T/mk.log" 2>/dev/null)" mkfs.squashfs
fi
done_testing
