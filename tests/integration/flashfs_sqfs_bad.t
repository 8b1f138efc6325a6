#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Damaged and hostile SquashFS images: truncations, corrupted superblock
# fields, random byte flips, blocks that inflate past the block size, names
# "..", "a/b", duplicates, a symlink-then-directory pair and a directory
# loop.  Each must give an error (or at least no crash) and nothing may be
# written outside the extraction directory.
. "$(dirname "$0")/../lib.sh"
need_root
command -v mksquashfs >/dev/null || skip_all "mksquashfs not installed"
PATCH="python3 $FF_TOP/tests/tools/sqfs_patch.py"

mkdir -p "$T/src/d" "$T/src/L/loopdirx" "$T/src/evim"
seq 1 100000 > "$T/src/d/text"
echo small > "$T/src/small"
ln "$T/src/small" "$T/src/d/small-link"
ln -s small "$T/src/link"
setfattr -n user.x -v y "$T/src/small" 2>/dev/null
mksquashfs "$T/src" "$T/good.sqfs" -noappend -quiet -no-progress -comp gzip >/dev/null 2>&1 ||
	skip_all "mksquashfs failed"
ok "the unpatched image is clean" flashfs check -q "$T/good.sqfs"
size=$(stat -c %s "$T/good.sqfs")
used=$(python3 -c "import struct,sys; print(struct.unpack_from('<Q', open(sys.argv[1],'rb').read(), 40)[0])" "$T/good.sqfs")

# no_crash NAME CMD...: exits below 128 (no signal, no ASan abort).
no_crash() {
	local name=$1 rc
	shift
	"$@" >/dev/null 2>"$T/err"
	rc=$?
	is "$([ $rc -lt 128 ] && ! grep -q 'Sanitizer' "$T/err" && echo fine || echo "rc $rc")" fine "$name"
}

# Truncations: open or check must fail; nothing may crash.
for cut in 0 50 95 96 200 $((used / 4)) $((used / 3)) $((used / 2)) $((used * 2 / 3)) \
	$((used - 200)) $((used - 60)) $((used - 20)) $((used - 1)); do
	$PATCH "$T/good.sqfs" "$T/t.sqfs" trunc "$cut"
	fails "truncated at $cut: check fails" flashfs check "$T/t.sqfs"
	rm -rf "$T/x"
	no_crash "truncated at $cut: extract does not crash" flashfs extract --no-progress -C "$T/x" "$T/t.sqfs"
done

# Superblock fields.
while read -r field value; do
	$PATCH "$T/good.sqfs" "$T/s.sqfs" sb "$field" "$value"
	fails "superblock $field=$value: check fails" flashfs check "$T/s.sqfs"
	no_crash "superblock $field=$value: ls -lR does not crash" flashfs ls -lR "$T/s.sqfs"
	rm -rf "$T/x"
	no_crash "superblock $field=$value: extract does not crash" flashfs extract --no-progress -C "$T/x" "$T/s.sqfs"
done <<LIST
magic 0x73717369
version_major 3
block_size 5000
block_log 12
compressor 99
compressor 4
inode_count 0
inode_count 1
inode_count 0xffffffff
id_count 0
bytes_used 0xffffffffffff
root_inode 0xffffffffffffffff
root_inode 0x7fff
id_table 0xffffffffff
id_table 0
xattr_id_table 0xfffffffff
inode_table 0xffffffffffff
dir_table 0
dir_table $used
fragment_table 0xfffffffffff
fragment_count 0x7fffffff
export_table 123
LIST

# A block size 4 KiB image claiming 128 KiB blocks and vice versa: blocks
# then decompress past (or short of) what the block size allows.
$PATCH "$T/good.sqfs" "$T/a.sqfs" sb block_size 4096
$PATCH "$T/a.sqfs" "$T/b.sqfs" sb block_log 12
fails "blocks inflating past the block size: check fails" flashfs check "$T/b.sqfs"
rm -rf "$T/x"
fails "blocks inflating past the block size: extract fails" flashfs extract --no-progress -C "$T/x" "$T/b.sqfs"

# Byte flips all over the tables (after the data): no crash, no hang.
start=$((used * 3 / 4))
step=$(( (used - start) / 60 + 1 ))
for pos in $(seq "$start" "$step" $((used - 1))); do
	$PATCH "$T/good.sqfs" "$T/f.sqfs" flip "$pos"
	no_crash "byte $pos flipped: check does not crash" timeout 60 flashfs check "$T/f.sqfs"
	rm -rf "$T/x"
	no_crash "byte $pos flipped: extract does not crash" timeout 60 flashfs extract --no-progress -C "$T/x" "$T/f.sqfs"
done

# Hostile names need uncompressed metadata to patch.
mkdir -p "$T/h/ww" "$T/h/evim"
echo w > "$T/h/ww/inside"
echo a > "$T/h/qq"
echo b > "$T/h/a_b"
echo c > "$T/h/dupa"
echo d > "$T/h/dupb"
echo e > "$T/h/evim/payload"
ln -s "$T/outside" "$T/h/evil"
mksquashfs "$T/h" "$T/h.sqfs" -noappend -quiet -no-progress -noI >/dev/null 2>&1
mkdir -p "$T/ext"
hostile() { # NAME PATCH-ARGS...
	local name=$1
	shift
	if ! $PATCH "$T/h.sqfs" "$T/p.sqfs" "$@"; then
		skip "could not patch the image" "$name"
		return
	fi
	rm -rf "$T/ext/out" "$T/outside"
	fails "$name: extract reports an error" flashfs extract --no-progress -C "$T/ext/out" "$T/p.sqfs"
	fails "$name: check reports a problem" flashfs check "$T/p.sqfs"
	is "$(ls -A "$T/ext")" out "$name: nothing written beside the target"
	ok "$name: nothing written through the symlink" test ! -e "$T/outside"
}
hostile 'file named ..' rename qq ..
hostile 'directory named ..' rename ww ..
hostile 'entry containing /' rename a_b a/b
hostile 'duplicate names' rename dupb dupa
hostile 'symlink then directory of the same name' rename evim evil

mkdir -p "$T/lp/L/loopdirx"
echo x > "$T/lp/file"
mksquashfs "$T/lp" "$T/lp.sqfs" -noappend -quiet -no-progress -noI >/dev/null 2>&1
if $PATCH "$T/lp.sqfs" "$T/loop.sqfs" loop loopdirx; then
	rm -rf "$T/x"
	fails "directory loop: check reports it" timeout 60 flashfs check "$T/loop.sqfs"
	fails "directory loop: extract reports it and stops" timeout 60 flashfs extract --no-progress -C "$T/x" "$T/loop.sqfs"
	fails "directory loop: ls -R reports it and stops" timeout 60 flashfs ls -R "$T/loop.sqfs"
else
	skip "could not patch the image" "directory loop"
fi
done_testing
