#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# mkfs.squashfs appends to an existing SquashFS image unless -noappend is
# given, as mksquashfs does: mksquashfs 4.5.1 and mkfs.squashfs append the
# same sources to copies of the same image and both results, mounted by
# the kernel, must give the same tree (collisions at the root renamed
# NAME_1, NAME_2).  The old data and fragment blocks must be in the new
# image byte for byte (reused, not recompressed); a conflicting -comp or
# -b is an error; a failed append leaves the old image as it was.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/fuse_lib.sh"
need_root
command -v mksquashfs >/dev/null || skip_all "mksquashfs missing"
command -v mkfs.squashfs >/dev/null || skip_all "mkfs.squashfs not built"

fuse_make_tree "$T/old" 40
# the new sources: names the old root has (small.txt, a, many), new kinds
python3 - "$T/new" <<'EOF'
import os, sys
r = sys.argv[1]
def p(*a): return os.path.join(r, *a)
os.makedirs(p('a/new-sub'))
os.makedirs(p('fresh'))
for name, data in (('small.txt', b'the new small.txt\n'), ('a/new-sub/f', b'f\n'),
                   ('fresh/big', os.urandom(300000)), ('fresh/text', b'abc\n' * 50000),
                   ('many', b'a file where the image has a directory\n'),
                   ('small.txt_1', b'taken already\n')):
    with open(p(name), 'wb') as f:
        f.write(data)
    os.utime(p(name), (1700000000, 1700000000))
os.link(p('fresh/text'), p('fresh/text-link'))
os.symlink('fresh/big', p('to-big'))
os.setxattr(p('fresh/big'), 'user.new', b'yes')
os.chown(p('fresh'), 42, 43)
for d in ('a/new-sub', 'a', 'fresh', ''):
    os.utime(p(d), (1700000100, 1700000100))
EOF
# the third source: collides with the first append's results too
mkdir -p "$T/third"
echo third >"$T/third/small.txt"
touch -d @1700000200 "$T/third/small.txt" "$T/third"

sb_field() { # IMAGE OFFSET — a little-endian u64 of the superblock
	python3 -c 'import struct,sys; f=open(sys.argv[1],"rb"); f.seek(int(sys.argv[2])); print(struct.unpack("<Q", f.read(8))[0])' "$1" "$2"
}
mounted_manifest() { # IMAGE OUT — the kernel's view of IMAGE, as a manifest
	local m=$T/mnt.$$
	mkdir -p "$m"
	mount -o loop,ro "$1" "$m" || return 1
	$MANIFEST "$m" >"$2"
	umount "$m"
}

for comp in gzip xz; do
	mksquashfs "$T/old" "$T/base.sqfs" -noappend -quiet -no-progress -comp $comp -b 65536 >/dev/null ||
		skip_all "mksquashfs failed"
	cp "$T/base.sqfs" "$T/theirs.sqfs"
	cp "$T/base.sqfs" "$T/ours.sqfs"
	mksquashfs "$T/new" "$T/theirs.sqfs" -quiet -no-progress >/dev/null 2>&1
	ok "$comp: append with mkfs.squashfs (no -comp, no -b)" mkfs.squashfs -q "$T/new" "$T/ours.sqfs"
	mounted_manifest "$T/theirs.sqfs" "$T/theirs.m"
	mounted_manifest "$T/ours.sqfs" "$T/ours.m"
	ok "$comp: kernel sees the tree mksquashfs 4.5.1 makes" diff "$T/theirs.m" "$T/ours.m"
	ok "$comp: the new small.txt is small.txt_2 (small.txt_1 taken)" \
		grep -q '^small.txt_2 file' "$T/ours.m"
	ok "$comp: the old directory many/ is kept, the new file is many_1" \
		bash -c "grep -q '^many dir' '$T/ours.m' && grep -q '^many_1 file' '$T/ours.m'"
	end=$(sb_field "$T/base.sqfs" 64) # the old inode table: the data ends there
	ok "$comp: old data and fragment blocks copied as stored, not recompressed" \
		cmp -n "$((end - 96))" -i 96:96 "$T/base.sqfs" "$T/ours.sqfs"
	ok "$comp: flashfs check of the appended image" flashfs check -q "$T/ours.sqfs"
	is "$(unsquashfs -s "$T/ours.sqfs" | sed -n 's/^Compression //p')" "$comp" \
		"$comp: the old compressor kept"
	is "$(unsquashfs -s "$T/ours.sqfs" | sed -n 's/^Block size //p')" 65536 \
		"$comp: the old block size kept"
	# a second append onto the appended image
	mksquashfs "$T/third" "$T/theirs.sqfs" -quiet -no-progress >/dev/null 2>&1
	ok "$comp: append again" mkfs.squashfs -q "$T/third" "$T/ours.sqfs"
	mounted_manifest "$T/theirs.sqfs" "$T/theirs.m"
	mounted_manifest "$T/ours.sqfs" "$T/ours.m"
	ok "$comp: second append: the same tree as mksquashfs'" diff "$T/theirs.m" "$T/ours.m"
done

# --- options about the new sources leave the old objects as they are
mksquashfs "$T/old" "$T/base.sqfs" -noappend -quiet -no-progress >/dev/null
cp "$T/base.sqfs" "$T/theirs2.sqfs"
cp "$T/base.sqfs" "$T/ours2.sqfs"
mksquashfs "$T/new" "$T/theirs2.sqfs" -all-root -all-time 1000 -quiet -no-progress >/dev/null 2>&1
ok "append with -all-root -all-time" mkfs.squashfs -q -all-root -all-time 1000 "$T/new" "$T/ours2.sqfs"
mounted_manifest "$T/theirs2.sqfs" "$T/theirs.m"
mounted_manifest "$T/ours2.sqfs" "$T/ours.m"
ok "-all-root -all-time: old objects untouched, as mksquashfs" diff "$T/theirs.m" "$T/ours.m"

# --- conflicts and failures leave the image as it was
cp "$T/ours.sqfs" "$T/keep.sqfs"
mkfs.squashfs -q -comp gzip "$T/new" "$T/ours.sqfs" 2>"$T/err"
is "$?" 2 "-comp gzip on an xz image: exit 2"
ok "-comp conflict: message names both compressors" \
	bash -c "grep -q 'xz' '$T/err' && grep -q 'gzip' '$T/err'"
ok "-comp conflict: image untouched" cmp "$T/keep.sqfs" "$T/ours.sqfs"
mkfs.squashfs -q -b 131072 "$T/new" "$T/ours.sqfs" 2>"$T/err"
is "$?" 2 "-b 131072 on a 64K image: exit 2"
ok "-b conflict: image untouched" cmp "$T/keep.sqfs" "$T/ours.sqfs"
cp "$T/keep.sqfs" "$T/keep2.sqfs"
ok "-comp and -b equal to the image's: accepted" \
	mkfs.squashfs -q -comp xz -b 65536 "$T/third" "$T/keep2.sqfs"
ok "... and appended" bash -c "flashfs ls '$T/keep2.sqfs' | grep -qx small.txt_4"

unreadable_tree "$T/u"
cp "$T/keep.sqfs" "$T/u/out/img.sqfs"
chmod 644 "$T/u/out/img.sqfs"
cp "$T/u/out/img.sqfs" "$T/before.sqfs"
as_nobody mkfs.squashfs -q "$T/u/src" "$T/u/out/img.sqfs" 2>"$T/err"
is "$?" 2 "append of an unreadable source: exit 2"
ok "failed append: message names the file" grep -q secret "$T/err"
ok "failed append: old image byte-identical" cmp "$T/before.sqfs" "$T/u/out/img.sqfs"
ok "failed append: no temporary left" bash -c "[ \$(ls '$T/u/out' | wc -l) = 1 ]"

# --- appending is said, as mksquashfs says it, with the counts
mksquashfs "$T/third" "$T/said.sqfs" -noappend -quiet -no-progress -b 65536 >/dev/null
mksquashfs "$T/third" "$T/said.sqfs" -no-progress 2>/dev/null | grep '^Appending' >"$T/theirs.said"
mkfs.squashfs -q --noappend -b 65536 "$T/third" "$T/said2.sqfs"
mkfs.squashfs --no-progress "$T/third" "$T/said2.sqfs" >"$T/ours.said" 2>/dev/null
is "$(grep '^Appending' "$T/ours.said" | sed 's/said2/said/')" "$(cat "$T/theirs.said")" \
	"append: mksquashfs' 'Appending to existing 4.0 filesystem' line"
ok "append: the summary counts the appended entries" \
	grep -q 'appended 1 entries to the 1 of the existing image' "$T/ours.said"
mkfs.squashfs --json "$T/third" "$T/said2.sqfs" >"$T/said.json" 2>/dev/null
is "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["appended"], d["appended_entries"], d["old_entries"])' "$T/said.json")" \
	"True 1 2" "append --json: appended, appended_entries, old_entries"
mkfs.squashfs --json --noappend "$T/third" "$T/said2.sqfs" >"$T/said.json" 2>/dev/null
is "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["appended"], "old_entries" in d)' "$T/said.json")" \
	"False False" "--noappend --json: appended false"
mkfs.squashfs -q "$T/third" "$T/said2.sqfs" >"$T/ours.said"
is "$(cat "$T/ours.said")" "" "append -q: nothing on stdout"

# --- -noappend replaces; a file that is no SquashFS image is replaced
ok "-noappend: replaces the image" mkfs.squashfs -q -noappend "$T/third" "$T/ours.sqfs"
is "$(flashfs ls "$T/ours.sqfs")" "small.txt" "-noappend: only the new tree"
head -c 5000 /dev/urandom >"$T/junk.img"
ok "a target that is no SquashFS image is replaced" mkfs.squashfs -q "$T/third" "$T/junk.img"
is "$(flashfs ls "$T/junk.img")" "small.txt" "replaced: the new tree"

done_testing
