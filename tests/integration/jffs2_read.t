#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# The JFFS2 reader against Debian's mkfs.jffs2 and sumtool (mtd-utils): a
# generated tree in images of both byte orders, several erase sizes, with
# and without cleanmarkers and padding, each compressor selection, and
# with summaries, extracted by flashfs, must equal the source.  Then
# hand-made images (tests/tools/jffs2_nodes.py) for what mkfs.jffs2 never
# writes: several versions of a file, deletion, truncation, holes,
# obsolete nodes, rubin and LZMA data, xattrs, damage.
. "$(dirname "$0")/../lib.sh"
command -v mkfs.jffs2 > /dev/null || skip_all "mkfs.jffs2 (mtd-utils) not installed"
NODES="python3 $FF_TOP/tests/tools/jffs2_nodes.py"

S=$T/src
mkdir -p "$S/dir/sub" "$S/empty" "$S/deep/a/b/c"
head -c 200000 /dev/urandom > "$S/rand"
seq 1 50000 > "$S/numbers"
printf 'x' > "$S/one"
: > "$S/zero"
truncate -s 300000 "$S/sparse"
printf 'abc' | dd of="$S/sparse" bs=1 seek=150000 conv=notrunc status=none
head -c 4096 /dev/zero > "$S/zeros4k"
ln -s numbers "$S/link"
ln -s "$(printf 'l%.0s' $(seq 200))" "$S/longlink"
ln "$S/numbers" "$S/dir/hard"
printf 'é n\n' > "$S/dir/sp ace é"
printf 'nl' > "$S/dir/new
line"
seq 1 9000 > "$S/deep/a/b/c/f"
chmod 0741 "$S/one"
chmod 1777 "$S/empty"
if [ "$(id -u)" = 0 ]; then
	chown 12:34 "$S/one"
	mkfifo "$S/fifo"
	mknod "$S/chr" c 4 5
	mknod "$S/blk" b 8 1 # mkfs.jffs2 stores 16-bit device numbers
fi
touch -h -d @1000000000 "$S/deep/a/b/c/f" "$S/one" "$S/link"

# A directory's times are those of its newest dirent when that is newer
# than its inode (readinode.c), and mkfs.jffs2 numbers dirents across the
# whole image and stamps each with its child's mtime: so directories are
# compared without their mtime here and checked on their own below.
nodirtime() { sed -E 's/^(.* dir [0-7]+ [0-9-]+:[0-9-]+ - )[0-9]+/\1-/' "$1"; }
same_tree() {
	local name=$1 img=$2
	rm -rf "$T/out"
	flashfs extract -C "$T/out" "$img" > "$T/x.out" 2>&1
	is "$?" 0 "$name: extract exits 0"
	$MANIFEST "$S" | nodirtime /dev/stdin > "$T/m.src"
	$MANIFEST "$T/out" | nodirtime /dev/stdin > "$T/m.out"
	ok "$name: extracted tree equals the source" diff "$T/m.src" "$T/m.out"
	ok "$name: check finds it clean" flashfs check "$img"
}

for opts in "-l" "-b" "-b -e 8KiB" "-l -e 16KiB -n" "-b -n -e 256KiB" \
	"-l -p" "-b -p=1048576" "-l -X lzo" "-b -X lzo -x zlib" "-l -x zlib" "-b -m none" \
	"-l -m size -X lzo" "-l -s 8192 -e 32KiB" \
	"-b -c 16"; do
	img=$T/img.jffs2
	if ! mkfs.jffs2 $opts -r "$S" -o "$img" > "$T/mk.out" 2>&1; then
		skip "mkfs.jffs2 $opts failed: $(head -n 1 "$T/mk.out")" "mkfs.jffs2 $opts"
		continue
	fi
	same_tree "mkfs.jffs2 $opts" "$img"
done

# The erase size is found from cleanmarkers and summaries, and shown.
mkfs.jffs2 -b -e 128KiB -r "$S" -o "$T/e.jffs2"
ok "erase size from cleanmarkers" sh -c \
	"flashfs info '$T/e.jffs2' | grep -Eq '^erase_size +128 KiB' && flashfs info '$T/e.jffs2' | grep -Eq 'erase_size_from +cleanmarkers'"
ok "byte order shown" sh -c "flashfs info '$T/e.jffs2' | grep -Eq '^endian +big'"
for o in -l -b; do
	mkfs.jffs2 $o -e 64KiB -r "$S" -o "$T/ns.jffs2"
	sumtool $o -e 64KiB -i "$T/ns.jffs2" -o "$T/sum.jffs2"
	same_tree "sumtool $o" "$T/sum.jffs2"
	ok "sumtool $o: summary found, erase size from it" sh -c \
		"flashfs info '$T/sum.jffs2' | grep -Eq 'summary_present +yes' && flashfs info '$T/sum.jffs2' | grep -Eq 'erase_size_from +summary'"
done

# The directory time rule: deep/a/b/c shows the time of its newest dirent,
# which mkfs.jffs2 stamps with f's mtime.
got=$(python3 -c "import os,sys; print(int(os.stat(sys.argv[1]).st_mtime))" "$T/out/deep/a/b/c")
is "$got" 1000000000 "a directory takes its newest dirent's mctime, as the kernel shows it"

# Hand-made images, little and big endian.
for e in "" --big; do
	$NODES versions "$T/v.img" $e
	f=$(flashfs cat "$T/v.img" /f 2> /dev/null | python3 -c "
import sys; d = sys.stdin.buffer.read()
print(d == b'A' * 2048 + b'B' * 3952 + b'\0' * 1000 + b'A' * 1000 + b'C' * 1000)")
	is "$f" True "versions$e: each byte range from its newest node, holes zero, newest isize"
	is "$(flashfs cat "$T/v.img" /t 2> /dev/null | wc -c)" 1000 "versions$e: truncated by the newest node"
	is "$(flashfs cat "$T/v.img" /renamed 2> /dev/null)" second "versions$e: the newest dirent of a name wins"
	fails "versions$e: a deleted name is gone" flashfs cat "$T/v.img" /gone
	is "$(flashfs ls -l "$T/v.img" /f 2> /dev/null | awk '{print $1}')" "-rw-r-----" \
		"versions$e: metadata from the newest node, not the obsolete one"
	is "$(flashfs cat "$T/v.img" /d/hard2 2> /dev/null)" link "versions$e: a hard link"
	is "$(flashfs info "$T/v.img" | awk '$1 == "deleted_inodes" {print $2}')" 2 \
		"versions$e: two inodes deleted (unlinked, replaced)"
	ok "versions$e: check is clean" flashfs check "$T/v.img"
	$NODES collected "$T/c.img" $e
	ok "collected$e: a nameless, half-erased deleted inode is no damage" flashfs check "$T/c.img"
	is "$(flashfs info "$T/c.img" | awk '$1 == "deleted_inodes" {print $2}')" 1 \
		"collected$e: counted as deleted"
	is "$(flashfs ls "$T/c.img" / 2> /dev/null)" f "collected$e: only the live file is listed"

	$NODES rubin "$T/r.img" $e
	want=$(python3 -c "import sys; sys.stdout.buffer.write((b'the quick brown fox jumps over the lazy dog ' * 100)[:4096])" | md5sum)
	is "$(flashfs cat "$T/r.img" /dyn 2> /dev/null | md5sum)" "$want" "rubin$e: dynrubin (id 3) decodes"
	is "$(flashfs cat "$T/r.img" /mips 2> /dev/null | md5sum)" "$want" "rubin$e: rubinmips (id 5) decodes"

	$NODES lzma "$T/z.img" $e
	want=$(python3 -c "import sys; sys.stdout.buffer.write((b'0123456789abcdef' * 300)[:4096])" | md5sum)
	is "$(flashfs cat "$T/z.img" /z 2> /dev/null | md5sum)" "$want" "lzma$e: OpenWrt's LZMA (id 8) decodes"
	flashfs cat "$T/z.img" /copy > /dev/null 2> "$T/copy.err"
	ok "lzma$e: an unsupported id is named" grep -q "compression id 4 (copy) is not supported" "$T/copy.err"
	fails "lzma$e: check reports it" flashfs check "$T/z.img"

	$NODES xattr "$T/x.img" $e
	rm -rf "$T/xo"
	flashfs extract -C "$T/xo" "$T/x.img" > /dev/null 2>&1
	is "$(getfattr --absolute-names --only-values -n user.color "$T/xo/x" 2> /dev/null)" blue \
		"xattr$e: the newest datum of an xid"
	is "$(getfattr --absolute-names -d -m - "$T/xo/x" 2> /dev/null | grep -c '=')" 2 \
		"xattr$e: an xref with an odd xseqno unbinds"

	$NODES damage "$T/d.img" $e
	flashfs check "$T/d.img" > "$T/chk.out" 2>&1
	is "$?" 1 "damage$e: check exits 1"
	ok "damage$e: bad data CRC with offset and numbers" \
		grep -Eq "inode node at offset 116: bad data CRC \(stored 0x[0-9a-f]{8}, computed 0x[0-9a-f]{8}\)" "$T/chk.out"
	ok "damage$e: bad name CRC" grep -q "dirent node at offset 188: bad name CRC" "$T/chk.out"
	ok "damage$e: bad node CRC" grep -q "inode node at offset 304: bad node CRC" "$T/chk.out"
	ok "damage$e: garbage between nodes" grep -q "20 bytes at offset 236 are neither erased nor a node" "$T/chk.out"
	ok "damage$e: a dirent to a missing inode" grep -q 'dirent "dangling" .* points to inode 99' "$T/chk.out"
	is "$(flashfs cat "$T/d.img" /ok 2> /dev/null)" good "damage$e: the older sound node is read"
done

# Hostile input: truncations and random damage are refused or read, never a crash.
mkfs.jffs2 -l -r "$S" -o "$T/h.jffs2"
for cut in 11 12 100 5000 70000; do
	head -c $cut "$T/h.jffs2" > "$T/cut.jffs2"
	flashfs ls -lR "$T/cut.jffs2" > /dev/null 2>&1
	rc=$?
	ok "cut at $cut: exit $rc is an answer, not a crash" test "$rc" -lt 128
done
for seed in 1 2 3 4 5; do
	damage "$T/h.jffs2" "$T/dmg.jffs2" $seed 200
	flashfs extract -C "$T/dmg.$seed" "$T/dmg.jffs2" > /dev/null 2>&1
	rc=$?
	ok "random damage $seed: exit $rc, not a crash" test "$rc" -lt 128
done
done_testing
