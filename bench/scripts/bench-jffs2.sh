#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# bench-jffs2.sh — issue 30's two figures.
# Build: ffmkfs.jffs2 against mtd-utils' mkfs.jffs2 (zlib, the default
# options, 128 KiB erase blocks) on a Debian minbase rootfs when one is
# there (lib.sh's rootfs_or_tree: BENCH_SRC, /var/tmp/minbase,
# build/rootfs/minbase), else on a generated ~50 MB tree: the two take
# turns BENCH_RUNS (3) times; wall and CPU seconds and peak RSS of each
# one's fastest run, the ratio ours / theirs (goal <= 0.50), and whether
# the images are the same bytes.
# Read: an image of about 64 MiB (minbase without var/cache and
# usr/share/locale, else a generated tree); `flashfs cat` of every
# regular file in one run against `cat IMAGE` from the page cache plus
# the time zlib's inflate takes on every zlib node's payload (as the
# kernel inflates it: raw deflate after the 2-byte header; Python's zlib,
# the loop alone timed), the three taking turns BENCH_RUNS + 2 times; the
# ratio ours / (cat + inflate) of the fastest runs (goal < 2), and the
# same ratio of CPU seconds.
# Not a test: the machine may be shared (the load average is printed).
set -u
. "$(dirname "$0")/lib.sh"
command -v mkfs.jffs2 > /dev/null || { echo "bench-jffs2: mkfs.jffs2 not installed" >&2; exit 2; }
src=$(rootfs_or_tree)

load() { cut -d' ' -f1-3 /proc/loadavg; }

build_figure() {
	local ref our
	echo "== build: source $src ($(du -sh "$src" | cut -f1)), $(nproc) CPUs, erase block 128 KiB, zlib; load $(load)"
	turns "mkfs.jffs2 -e 128KiB -r $src -o $work/ref.img" \
		"$bin/ffmkfs.jffs2 -e 128KiB -r $src -o $work/our.img" || { echo "build failed"; return 1; }
	ref=$(fastest "$work/a")
	our=$(fastest "$work/b")
	printf '%-14s %9s %9s %9s\n' tool "wall s" "cpu s" "rss KiB"
	printf '%-14s %9s %9s %9s\n' mkfs.jffs2 $ref ffmkfs.jffs2 $our
	awk -v a="${ref%% *}" -v b="${our%% *}" 'BEGIN {
		r = b / a
		printf "wall ratio ffmkfs.jffs2 / mkfs.jffs2: %.2f (goal <= 0.50: %s)\n", r, r <= 0.5 ? "met" : "MISSED" }'
	echo "load after: $(load)"
	if cmp -s "$work/ref.img" "$work/our.img"; then
		echo "images: identical ($(stat -c %s "$work/our.img") bytes)"
	else
		echo "images: DIFFERENT"
		return 1
	fi
}

# inflate_time IMAGE — "wall cpu nodes bytes": seconds zlib takes to
# inflate every zlib data node of a little-endian image (parsing aside)
inflate_time() {
	python3 - "$1" << 'PY'
import struct, sys, time, zlib
img = open(sys.argv[1], "rb").read()
pos, end, nodes = 0, len(img), []
while pos + 12 <= end:
    magic, kind, totlen = struct.unpack_from("<HHI", img, pos)
    if magic != 0x1985 or totlen < 12 or pos + totlen > end:
        pos += 4
        continue
    if kind == 0xE002 and totlen >= 68:
        csize, dsize, compr = struct.unpack_from("<IIB", img, pos + 48)
        if compr == 6:  # zlib; raw after a plain header, as the kernel does
            data = img[pos + 68:pos + 68 + csize]
            head = data[0] & 0x0f == 8 and (data[0] << 8 | data[1]) % 31 == 0 and not data[1] & 0x20
            nodes.append((data[2:] if head else data, -15 if head else 15, dsize))
    pos += (totlen + 3) & ~3
t0, c0, out = time.perf_counter(), time.process_time(), 0
for data, bits, dsize in nodes:
    out += len(zlib.decompress(data, bits, dsize))
print("%.4f %.4f %d %d" % (time.perf_counter() - t0, time.process_time() - c0, len(nodes), out))
PY
}

read_figure() {
	local rsrc=$src img=$work/read.img ex=() files inf our ref i
	if [ -d "$src/var/cache" ] && [ -d "$src/usr/share/locale" ]; then
		ex=(--exclude var/cache --exclude usr/share/locale)
		mapfile -d '' files < <(find "$src" \( -path "$src/var/cache" -o \
			-path "$src/usr/share/locale" \) -prune -o -type f -print0)
	else
		rsrc=$work/rtree
		gen_tree "$rsrc" 110
		mapfile -d '' files < <(find "$rsrc" -type f -print0)
	fi
	"$bin/ffmkfs.jffs2" -l -e 128KiB "${ex[@]}" -r "$rsrc" -o "$img" || { echo "read image failed"; return 1; }
	files=("${files[@]#"$rsrc"}")
	echo "== read: $(stat -c %s "$img")-byte image of $rsrc${ex[*]:+ (${ex[*]})}, ${#files[@]} files; load $(load)"
	cat "$img" > /dev/null
	printf '%s\0' "${files[@]}" > "$work/files"
	# one word each for turns; the paths go to one flashfs cat run
	printf '#!/bin/bash\nmapfile -d "" f < %s\nexec %s cat %s "${f[@]}"\n' "$work/files" \
		"$bin/flashfs" "$img" > "$work/ours.sh"
	printf '#!/bin/sh\nexec cat %s\n' "$img" > "$work/cat.sh"
	chmod +x "$work/ours.sh" "$work/cat.sh"
	"$work/ours.sh" | cmp -s - <(cd "$rsrc" && cat "${files[@]#/}") ||
		{ echo "flashfs cat's bytes differ from the source files'"; return 1; }
	: > "$work/a"
	: > "$work/b"
	: > "$work/c"
	for i in $(seq $((runs + 2))); do
		runs=1 runs_of "$work/ours.sh" >> "$work/a" || { echo "flashfs cat failed"; return 1; }
		runs=1 runs_of "$work/cat.sh" >> "$work/b" || return 1
		inflate_time "$img" >> "$work/c" || return 1
	done
	our=$(fastest "$work/a")
	ref=$(fastest "$work/b")
	inf=$(fastest "$work/c")
	printf '%-22s %9s %9s %9s\n' what "wall s" "cpu s" "rss KiB"
	printf '%-22s %9s %9s %9s\n' "flashfs cat (all)" $our "cat IMAGE" $ref
	set -- $inf
	printf '%-22s %9s %9s   (%s zlib nodes, %s bytes)\n' "zlib inflate" "$1" "$2" "$3" "$4"
	awk -v o="$our" -v c="$ref" -v i="$inf" 'BEGIN {
		split(o, O, " "); split(c, C, " "); split(i, I, " ")
		r = O[1] / (C[1] + I[1])
		printf "ratio flashfs cat / (cat + inflate): wall %.2f (goal < 2: %s), cpu %.2f\n",
			r, r < 2 ? "met" : "MISSED", O[2] / (C[2] + I[2]) }'
	echo "load after: $(load)"
}

fail=0
[ "${BENCH_JFFS2_READ_ONLY:-0}" = 1 ] || build_figure || fail=1
read_figure || fail=1
exit $fail
