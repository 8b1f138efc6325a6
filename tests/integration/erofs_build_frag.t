#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# ffmkfs.erofs' fragments and sharing: -E fragments (compressed files'
# last extents, and small files whole, in the packed inode, compressed
# as one), -E all-fragments (every compressed file whole there) and
# -E dedupe (a compressed file equal to an earlier one shares its
# pclusters, fragments does that too; with dedupe an extent whose bytes
# start like an earlier pcluster's takes that pcluster, the whole of it
# or its first part), with a few codecs, pcluster sizes, block sizes and
# index forms, on a tree of many sizes with copies of the same files in
# several places and files made of large parts of others at other
# offsets.  Every image must be mounted by the
# host kernel with the source's tree (xattrs included), be extracted by
# our reader to the same tree, and be found clean by fsck.erofs 1.9.3
# with --extract (decompressing every file) when built, and by Debian's
# 1.5 when the image needs no feature it lacks (1.5 refuses fragments).
# Then dump.erofs 1.9.3 shows the layout asked for, the options save
# bytes, the bytes do not depend on -j, and our reader reads what
# mkfs.erofs 1.9.3 makes with the same options.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/erofs_lib.sh"
need_root
command -v fsck.erofs > /dev/null || skip_all "fsck.erofs (erofs-utils) not installed"
modprobe erofs 2> /dev/null
grep -qw erofs /proc/filesystems || skip_all "the kernel has no EROFS support"

A=
for d in "${ANCHORS:-}" /work/anchors/bin /tmp/erofs-anchors/bin; do
	[ -n "$d" ] && [ -x "$d/fsck.erofs-1.9.3" ] && { A=$d; break; }
done
[ -n "$A" ] || echo "# erofs-utils 1.9.3 not built (../shared/tools/build-anchors.sh): kernel and 1.5 only"

python3 "$FF_TOP/tests/tools/erofs_tree.py" "$T/src" --small || skip_all "cannot build the source tree"
# larger files of text with noise (many extents, a tail each), and
# copies of some files elsewhere (equal fragments, equal files)
python3 - "$T/src" << 'PY' || skip_all "cannot build the large files"
import os, random, shutil, sys
top = os.path.join(sys.argv[1], 'frag')
os.makedirs(os.path.join(top, 'copy'))
r = random.Random(5)
words = [b'alpha', b'beta', b'gamma', b'delta', b'erofs', b'\n']
for i, n in enumerate([600_001, 90_001, 20_000, 5_000, 900, 13]):
    out = bytearray()
    while len(out) < n:
        out += r.randbytes(50) if r.random() < 0.01 else r.choice(words) + b' '
    with open(os.path.join(top, 'f%d' % i), 'wb') as f:
        f.write(out[:n])
for i in range(6):
    shutil.copy(os.path.join(top, 'f%d' % i), os.path.join(top, 'copy', 'f%d' % i))
    shutil.copy(os.path.join(top, 'f%d' % i), os.path.join(top, 'g%d' % i))
# parts of f0 and f1 at other offsets, between new bytes (dedupe)
f0 = open(os.path.join(top, 'f0'), 'rb').read()
f1 = open(os.path.join(top, 'f1'), 'rb').read()
with open(os.path.join(top, 'h0'), 'wb') as f:
    f.write(r.randbytes(777) + f0[:150_000] + r.randbytes(5_000) + f1[3_333:] + b'end')
with open(os.path.join(top, 'h1'), 'wb') as f:
    f.write(f0[250_001:420_000] + r.randbytes(30_000) + f0[100_000:200_000])
# f0's first 300,000 bytes, then others (fragments: its first
# pclusters are f0's, as mkfs.erofs 1.9.3 shares them)
with open(os.path.join(top, 'k0'), 'wb') as f:
    f.write(f0[:300_000] + r.randbytes(3_000) + f1[:40_000])
# noise stored as is in h2, its blocks again in h3 at another offset
# (with text enough that compressing each file gains: else it is flat)
noise = r.randbytes(24_000)
with open(os.path.join(top, 'h2'), 'wb') as f:
    f.write(noise + f0[300_000:360_000])
with open(os.path.join(top, 'h3'), 'wb') as f:
    f.write(f0[:1_000] + noise[5_000:] + f0[460_000:520_000])
PY
mkdir -p "$T/mnt" "$T/x"
# the source's manifest once, for the 30-odd comparisons (erofs_lib.sh)
$MANIFEST "$T/src" > "$T/src.man"
SRC_MAN=$T/src.man

# Under `make asan check` (CI's second pass of the suite) the -j
# comparisons are thinned: they add no option the builds above do not
# already put before the sanitizers (lz4hc, lzma and zstd; fragments,
# all-fragments, dedupe, ztailpacking, -C 16384 each), only the builds at
# -j1 and the equal bytes.  The ASan pass keeps the first tree's lz4hc
# fragments and zstd fragments,dedupe pairs (one worker with fragments and
# with dedupe) and the segments' all-fragments pair (one and three
# workers); the plain pass runs all six.
thin=
case $FF_BUILD in */asan) thin=1 ;; esac

# check NAME FSCK15 IMG: the kernel's mount and our reader's extraction
# both equal the source; fsck.erofs clean (1.5 when FSCK15=1).
check() {
	local name=$1 fsck=$2 img=$3
	erofs_mount_is "$name" "$img"
	erofs_extract_is "$name" "$img"
	ok "$name: flashfs check finds it clean" flashfs check "$img"
	[ "$fsck" = 1 ] && ok "$name: fsck.erofs 1.5 finds it clean" fsck.erofs "$img"
	[ -n "$A" ] && ok "$name: fsck.erofs 1.9.3 --extract finds it clean" \
		"$A/fsck.erofs-1.9.3" --extract "$img"
	return 0
}

# build NAME FSCK15 OPTIONS...: ffmkfs.erofs, then check.  The image
# stays as $T/NAME.img.
build() {
	local name=$1 fsck=$2
	shift 2
	if ! ffmkfs.erofs --quiet -U clear "$@" "$T/$name.img" "$T/src" > "$T/mkfs.log" 2>&1; then
		ok "$name: ffmkfs.erofs $*" sh -c "cat '$T/mkfs.log'; false"
		return
	fi
	check "$name" "$fsck" "$T/$name.img"
}

build plain-lz4hc 1 -z lz4hc
build frag-lz4hc 0 -z lz4hc -E fragments
build frag-lz4-C64k 0 -z lz4 -C 65536 -E fragments
build frag-lzma-ztail 0 -z lzma -C 131072 -E fragments,ztailpacking
build frag-legacy-zstd 0 -z zstd -E fragments,legacy-compress
build frag-deflate-b1024 0 -z deflate -b 1024 -C 4096 -E fragments
build allfrag-lz4hc 0 -z lz4hc -E all-fragments
build allfrag-zstd-ztail 0 -z zstd,6 -C 16384 -E all-fragments,ztailpacking
build dedupe-lz4hc 0 -z lz4hc -E dedupe
build dedupe-lzma-ztail 0 -z lzma -E dedupe,ztailpacking
build dedupe-zstd-C16k 0 -z zstd -C 16384 -E dedupe
build dedupe-deflate-b1024 0 -z deflate -b 1024 -C 8192 -E dedupe,legacy-compress
build fragdedupe-lz4hc 0 -z lz4hc -E fragments,dedupe

# The layout, in dump.erofs 1.9.3's words and the superblock's.
size() { stat -c %s "$T/$1.img"; }
feature() {
	flashfs info "$T/$1.img" | awk '$1 == "features_incompat" {print $2}' | tr ',' '\n' |
		grep -c "^$2"
}
is "$(feature frag-lz4hc fragments)" 1 "fragments: the superblock says so"
is "$(feature dedupe-lz4hc fragments)" 1 "dedupe: the superblock says so (DEDUPE is FRAGMENTS' bit)"
ok "fragments save bytes" test "$(size frag-lz4hc)" -lt "$(size plain-lz4hc)"
ok "all-fragments save bytes" test "$(size allfrag-lz4hc)" -lt "$(size plain-lz4hc)"
ok "dedupe saves bytes" test "$(size dedupe-lz4hc)" -lt "$(size plain-lz4hc)"
if [ -n "$A" ]; then
	D=$A/dump.erofs-1.9.3
	ext() { "$D" -e --path="$2" "$T/$1.img" 2>&1 | awk '$1 ~ /^[0-9]+:$/'; }
	ok "fragments: dump.erofs names the packed inode" \
		sh -c "'$D' -s '$T/frag-lz4hc.img' | grep -q 'packed nid: *[1-9]'"
	is "$(ext frag-lz4hc /frag/f4 | awk '{print $7 $8 $9 $10}')" "0..0|0" \
		"fragments: a small file is all in the packed inode"
	is "$(ext frag-lz4hc /frag/f0 | tail -1 | awk '{print $7 $8 $9 $10}')" "0..0|0" \
		"fragments: a large file's last extent is in the packed inode"
	ok "fragments: a large file's other extents are pclusters" \
		test "$(ext frag-lz4hc /frag/f0 | wc -l)" -gt 5
	is "$(ext allfrag-lz4hc /frag/f0 | awk '{print $7 $8 $9 $10}')" "0..0|0" \
		"all-fragments: a large file is all in the packed inode"
	ok "dedupe: a copy's extents are the original's" \
		sh -c "[ \"\$(ext() { '$D' -e --path=\$1 '$T/dedupe-lz4hc.img' | awk '\$1 ~ /^[0-9]+:\$/'; };
			ext /frag/f0)\" = \"\$('$D' -e --path=/frag/copy/f0 '$T/dedupe-lz4hc.img' |
			awk '\$1 ~ /^[0-9]+:\$/')\" ] && [ -n \"\$('$D' -e --path=/frag/f0 '$T/dedupe-lz4hc.img' |
			awk '\$1 ~ /^[0-9]+:\$/')\" ]"
	# extents of h0 and h1 on f0's and f1's pclusters
	phys() {
		"$D" -e --path="$2" "$T/$1.img" | awk '$1 ~ /^[0-9]+:$/ {print $7}' | sort -u
	}
	# (16 KiB pclusters take some 70 KB of input each: fewer start inside
	# the shared parts)
	for img in dedupe-lz4hc:3 dedupe-zstd-C16k:0; do
		min=${img#*:}
		img=${img%:*}
		phys $img /frag/f0 > "$T/p.f0"
		phys $img /frag/f1 > "$T/p.f1"
		phys $img /frag/h0 > "$T/p.h0"
		phys $img /frag/h1 > "$T/p.h1"
		ok "$img: h0 shares pclusters of f0" test "$(comm -12 "$T/p.f0" "$T/p.h0" | wc -l)" -gt $min
		ok "$img: h0 shares pclusters of f1" test "$(comm -12 "$T/p.f1" "$T/p.h0" | wc -l)" -gt 0
		ok "$img: h1 shares pclusters of f0" test "$(comm -12 "$T/p.f0" "$T/p.h1" | wc -l)" -gt $min
		phys $img /frag/h2 > "$T/p.h2"
		phys $img /frag/h3 > "$T/p.h3"
		ok "$img: h3 shares blocks stored as is in h2" \
			test "$(comm -12 "$T/p.h2" "$T/p.h3" | wc -l)" -gt 1
	done
	phys frag-lz4hc /frag/f0 > "$T/p.f0"
	phys frag-lz4hc /frag/k0 > "$T/p.k0"
	ok "fragments: a file that begins as f0 does shares f0's first pclusters" \
		test "$(comm -12 "$T/p.f0" "$T/p.k0" | wc -l)" -gt 1
fi
ok "dedupe: files that differ share pclusters (smaller than fragments alone)" \
	test "$(size fragdedupe-lz4hc)" -lt "$(size frag-lz4hc)"

# Determinism at any -j.
for opt in "-z lz4hc -E fragments" "-z lzma -E all-fragments" "-z zstd -E fragments,dedupe" \
	   "-z lz4hc -C 16384 -E dedupe,ztailpacking"; do
	[ -n "$thin" ] && case $opt in *lzma* | *ztailpacking) continue ;; esac
	# shellcheck disable=SC2086
	ffmkfs.erofs --quiet $opt -T 1 -U clear --workers=1 "$T/j1.img" "$T/src" > /dev/null 2>&1
	# shellcheck disable=SC2086
	ffmkfs.erofs --quiet $opt -T 1 -U clear --workers=2 "$T/j2.img" "$T/src" > /dev/null 2>&1
	ok "$opt: the same bytes at -j1 and -j2" cmp "$T/j1.img" "$T/j2.img"
done

# Our reader on mkfs.erofs 1.9.3's images with the same options.
if [ -n "$A" ] && [ -x "$A/mkfs.erofs-1.9.3" ]; then
	for opt in "-zlz4hc -Efragments,dedupe" "-zlzma -C65536 -Eall-fragments" "-zlz4hc -Ededupe" \
		   "-zlz4 -Efragments,ztailpacking"; do
		# shellcheck disable=SC2086
		if "$A/mkfs.erofs-1.9.3" $opt "$T/theirs.img" "$T/src" > "$T/mkfs.log" 2>&1; then
			rm -rf "$T/x" && mkdir "$T/x"
			if flashfs extract -C "$T/x" "$T/theirs.img" > "$T/x.log" 2>&1; then
				same_manifest "mkfs.erofs 1.9.3 $opt: our reader extracts the source" \
					"$SRC_MAN" "$T/x"
			else
				ok "mkfs.erofs 1.9.3 $opt: flashfs extract" sh -c "cat '$T/x.log'; false"
			fi
		else
			ok "mkfs.erofs 1.9.3 $opt" sh -c "cat '$T/mkfs.log'; false"
		fi
	done
fi
# Tails found in the packed inode: a file that is the end of an earlier
# fragment points its fragment into it (-E fragments and all-fragments);
# with all-fragments a file whose tail only is an earlier fragment's end
# keeps its head as extents of its own and points the rest into it.  The
# packed inode then holds a_text's, d_small's and g_long's bytes alone.  Inodes
# found by their nids (the kernel's inode numbers), read from the image.
rm -rf "$T/src" && mkdir "$T/src"
python3 - "$T/src" << 'PY' || skip_all "cannot build the tails tree"
import os, random, sys
r = random.Random(11)
words = [b'alpha', b'beta', b'gamma', b'delta', b'erofs', b'\n']
def text(n):
    out = bytearray()
    while len(out) < n:
        out += r.randbytes(50) if r.random() < 0.01 else r.choice(words) + b' '
    return bytes(out[:n])
def put(name, b):
    with open(os.path.join(sys.argv[1], name), 'wb') as f:
        f.write(b)
a = text(40_000)
head = bytearray(r.randbytes(7_000))
head[-1] = a[-30_001] ^ 1      # the common tail is 30,000 bytes, no more
put('a_text', a)
put('b_head', bytes(head) + a[-30_000:])
put('c_end', a[-20_000:])
d = text(3_500)                # a block or less: whole with -E fragments too
put('d_small', d)
put('e_end', d[-2_000:])
# a tail longer than an extent's input (1 MiB here): the map's lookback
# distances are sized for that (below 2048 lclusters: 2 MiB at -b 1024),
# so the head takes the rest
g = text(2_400_000)
put('g_long', g)
head = bytearray(r.randbytes(20_000))
head[-1] = g[-2_300_001] ^ 1
put('h_long', bytes(head) + g[-2_300_000:])
PY
# a new tree: its manifest anew (SRC_MAN is what the read-backs compare with)
$MANIFEST "$T/src" > "$T/src.man"
# tails IMG: "PATH I_SIZE WHOLE FRAGOFF" for each file and the packed
# inode (PATH packed), from the superblock, inodes and map headers
tails() {
	local info
	info=$(flashfs info "$1") || return 1
	mount -t erofs -o loop,ro "$1" "$T/mnt" || return 1
	(cd "$T/mnt" && stat -c '%n %i' -- *) > "$T/nids"
	umount "$T/mnt"
	echo "packed $(echo "$info" | awk '$1 == "packed_nid" {print $2}')" >> "$T/nids"
	python3 - "$1" "$(echo "$info" | awk '$1 == "block_size" {print $2}')" \
		"$(echo "$info" | awk '$1 == "meta_blkaddr" {print $2}')" "$T/nids" << 'PY'
import struct, sys
img = open(sys.argv[1], 'rb').read()
meta = int(sys.argv[3]) * int(sys.argv[2])
for line in open(sys.argv[4]):
    name, nid = line.split()
    at = meta + int(nid) * 32
    fmt, icount = struct.unpack_from('<HH', img, at)
    ext = fmt & 1
    size = struct.unpack_from('<Q' if ext else '<I', img, at + 8)[0]
    hdr = at + (64 if ext else 32) + (12 + (icount - 1) * 4 if icount else 0)
    hdr = (hdr + 7) // 8 * 8
    whole = struct.unpack_from('<Q', img, hdr)[0]
    if whole >> 63:
        print(name, size, 1, whole & ((1 << 63) - 1))
    else:
        print(name, size, 0, struct.unpack_from('<I', img, hdr)[0])
PY
}
# field NAME COL: from $T/tails.txt (2 size, 3 whole, 4 fragoff)
field() { awk -v n="$1" -v c="$2" '$1 == n {print $c}' "$T/tails.txt"; }
build tails-allfrag 0 -z lz4hc -E all-fragments
build tails-frag 0 -z lz4hc -E fragments
build tails-allfrag-b1024 0 -z lz4hc -b 1024 -E all-fragments
A_LEN=$(stat -c %s "$T/src/a_text")
D_LEN=$(stat -c %s "$T/src/d_small")
G_LEN=$(stat -c %s "$T/src/g_long")
if tails "$T/tails-allfrag.img" > "$T/tails.txt"; then
	is "$(field packed 2)" $((A_LEN + D_LEN + G_LEN)) \
		"all-fragments: the packed inode holds a_text, d_small and g_long alone"
	is "$(field c_end 3) $(field c_end 4)" \
		"1 $(($(field a_text 4) + A_LEN - $(stat -c %s "$T/src/c_end")))" \
		"all-fragments: c_end, a_text's end, is all a fragment inside a_text's"
	is "$(field e_end 3) $(field e_end 4)" \
		"1 $(($(field d_small 4) + D_LEN - $(stat -c %s "$T/src/e_end")))" \
		"all-fragments: e_end, d_small's end, is all a fragment inside d_small's"
	ok "all-fragments: b_head has extents and a fragment inside a_text's" \
		test "$(field b_head 3)" = 0 -a "$(field b_head 4)" -gt "$(field a_text 4)" \
		-a "$(field b_head 4)" -lt $(($(field a_text 4) + A_LEN))
	ok "all-fragments: h_long has extents and a fragment inside g_long's" \
		test "$(field h_long 3)" = 0 -a "$(field h_long 4)" -gt "$(field g_long 4)" \
		-a "$(field h_long 4)" -lt $(($(field g_long 4) + G_LEN))
else
	ok "all-fragments: the tails image's inodes" false
fi
if [ -n "$A" ]; then
	# b_head: its head in pclusters, the rest (from a block boundary
	# after its own 7,000 bytes) the fragment
	"$A/dump.erofs-1.9.3" -e --path=/b_head "$T/tails-allfrag.img" |
		awk '$1 ~ /^[0-9]+:$/' > "$T/b.ext"
	ok "all-fragments: dump.erofs shows b_head's head in a pcluster" \
		sh -c "[ \$(wc -l < '$T/b.ext') -ge 2 ] && head -1 '$T/b.ext' | awk '\$7 != \"0..\"' | grep -q ."
	is "$(tail -1 "$T/b.ext" | awk '{print $7 $8 $9 $10}')" "0..0|0" \
		"all-fragments: dump.erofs shows b_head's last extent in the packed inode"
	ok "all-fragments: b_head's fragment starts after its own bytes" \
		test "$(tail -1 "$T/b.ext" | awk '{sub(/\.\./, "", $2); print $2}')" -ge 7000
else
	# (as above: without 1.9.3 the inodes' own map headers, read above,
	# are the check; a skip would fail a STRICT run without the anchors)
	echo "# erofs-utils 1.9.3 not built: dump.erofs's view of b_head not shown"
fi
if tails "$T/tails-frag.img" > "$T/tails.txt"; then
	is "$(field e_end 3) $(field e_end 4)" \
		"1 $(($(field d_small 4) + D_LEN - $(stat -c %s "$T/src/e_end")))" \
		"fragments: e_end, d_small's end, is all a fragment inside d_small's"
else
	ok "fragments: the tails image's inodes" false
fi
for opt in "-z lz4hc -E all-fragments" "-z lz4hc -E fragments"; do
	# shellcheck disable=SC2086
	ffmkfs.erofs --quiet $opt -T 1 -U clear --workers=1 "$T/j1.img" "$T/src" > /dev/null 2>&1
	# shellcheck disable=SC2086
	ffmkfs.erofs --quiet $opt -T 1 -U clear --workers=3 "$T/j2.img" "$T/src" > /dev/null 2>&1
	ok "tails, $opt: the same bytes at -j1 and -j3" cmp "$T/j1.img" "$T/j2.img"
done

# Segments: a packed inode of more than two segments (8 MiB each at 1 MiB
# windows), compressed as the fragments pass each segment's end, and a
# fragments file of more than two, cut at the same points at any -j.
rm -rf "$T/src" && mkdir "$T/src"
python3 - "$T/src" << 'PY' || skip_all "cannot build the segmented files"
import os, random, sys
r = random.Random(7)
words = [b'alpha', b'beta', b'gamma', b'delta', b'erofs', b'packed', b'\n']
piece = b' '.join(r.choice(words) for _ in range(200_000))
for name, n in [('a', 5_700_003), ('b', 5_800_000), ('c', 5_650_001), ('d', 16_900_000)]:
    with open(os.path.join(sys.argv[1], name), 'wb') as f:
        left = n
        while left:
            part = r.randbytes(64) + piece[r.randrange(len(piece) // 2):]
            f.write(part[:left])
            left -= min(left, len(part))
PY
$MANIFEST "$T/src" > "$T/src.man"
build seg-allfrag-lz4 0 -z lz4 -E all-fragments
build seg-frag-lz4 0 -z lz4 -E fragments
for opt in "-z lz4 -E all-fragments" "-z lz4 -E fragments"; do
	[ -n "$thin" ] && [ "$opt" = "-z lz4 -E fragments" ] && continue
	# shellcheck disable=SC2086
	ffmkfs.erofs --quiet $opt -T 1 -U clear --workers=1 "$T/j1.img" "$T/src" > /dev/null 2>&1
	# shellcheck disable=SC2086
	ffmkfs.erofs --quiet $opt -T 1 -U clear --workers=3 "$T/j2.img" "$T/src" > /dev/null 2>&1
	ok "segments, $opt: the same bytes at -j1 and -j3" cmp "$T/j1.img" "$T/j2.img"
done

done_testing
