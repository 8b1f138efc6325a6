#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Big-endian SquashFS 4.0 (issue 28 item 2): the images AVM's firmware and
# some vendor toolchains write, every field big-endian.  No Debian tool
# reads or writes them, so Debian's mksquashfs makes a little-endian image
# of a generated tree, tests/tools/sqfs4_swap.py (written from the format
# description) turns it big-endian, and flashfs's extraction of that must
# equal unsquashfs's extraction of the original (the oracle).  Every codec,
# with compressor options blocks, fragments, xattrs (inline and out of
# line), hard links, devices, sparse files, exportable or not, and the
# metadata block headers in either order (AVM keeps them little-endian).
# Then damaged big-endian images must be refused cleanly.
. "$(dirname "$0")/../lib.sh"
need_root
command -v mksquashfs > /dev/null || skip_all "mksquashfs (squashfs-tools) not installed"
command -v unsquashfs > /dev/null || skip_all "unsquashfs (squashfs-tools) not installed"

SWAP="python3 $FF_TOP/tests/tools/sqfs4_swap.py"
S=$T/src
mkdir -p "$S/dir/many" "$S/empty"
seq 1 60000 > "$S/big"                       # several 128 KiB blocks and a tail
head -c 5000 /dev/urandom > "$S/random"      # does not compress: stored raw
printf 'hi\n' > "$S/dir/small"
ln "$S/dir/small" "$S/dir/hard"              # a hard link
ln -s ../big "$S/dir/link"
truncate -s 600000 "$S/sparse"               # holes, then one byte
printf x >> "$S/sparse"
mkfifo "$S/fifo"
mknod "$S/dir/chr" c 1 3
mknod "$S/blk" b 8 1
touch "$S/odd name é"
for i in $(seq 1 400); do echo "$i" > "$S/dir/many/file-$i"; done # inode table over 8 KiB
setfattr -n user.colour -v blue "$S/big"
setfattr -n user.colour -v blue "$S/dir/small" # a shared xattr set
setfattr -n security.label -v top "$S/dir"
setfattr -n trusted.long -v "$(printf 'a%.0s' $(seq 1 300))" "$S/random" # stored out of line

# A failed probe prints the image's name, so two failures never compare equal.
info_json() {
	flashfs info --json "$1" | python3 -c "import json,sys; d=json.load(sys.stdin)['squashfs']; print($2)" 2> /dev/null ||
		echo "no info for $1"
}

# round NAME HEADERS MKSQUASHFS-OPTIONS...: LE image, turned BE, read back.
round() {
	local name=$1 headers=$2 le=$T/$1.le.sqfs be=$T/$1.be.sqfs
	shift 2
	mksquashfs "$S" "$le" -noappend -quiet -no-progress "$@" > /dev/null
	$SWAP --headers "$headers" "$le" "$be"
	is "$?" 0 "$name: sqfs4_swap.py turns the image big-endian"
	is "$(head -c 4 "$be")" sqsh "$name: the magic is big-endian"
	unsquashfs -q -n -d "$T/$name.u" "$le" > /dev/null 2>&1
	flashfs extract --no-progress -C "$T/$name.f" "$be" > "$T/$name.err" 2>&1
	is "$?" 0 "$name: flashfs extract exits 0"
	same_manifest "$name: flashfs extracts the BE image as unsquashfs the LE one" "$T/$name.u" "$T/$name.f"
	ok "$name: flashfs check is clean" flashfs check -q "$be"
	is "$(info_json "$be" 'd["byte_order"]')" big "$name: info says byte_order big"
	is "$(info_json "$be" 'd["compressor"], d["compressor_options"], "exportable" in d["flags"], d["inodes"], d["fragments"], d["xattr_ids"]')" \
		"$(info_json "$le" 'd["compressor"], d["compressor_options"], "exportable" in d["flags"], d["inodes"], d["fragments"], d["xattr_ids"]')" \
		"$name: compressor, options block, export table and counts as the LE image's"
}

# Python's library recompresses gzip and xz metadata; the other codecs'
# metadata is left uncompressed by mksquashfs so the tool can reach it
# (their data blocks are still compressed).
RAW_META="-noI -noId -noX -noF"
round gzip be -comp gzip -Xcompression-level 7 -Xwindow-size 12 -no-exports
round gzip-avm le -comp gzip -b 65536
round xz le -comp xz -Xbcj x86 -Xdict-size 50% -always-use-fragments
round xz-nofrag be -comp xz -no-fragments
round lzo be -comp lzo -Xalgorithm lzo1x_999 -Xcompression-level 7 $RAW_META
round lz4 le -comp lz4 -Xhc $RAW_META -no-exports
round zstd be -comp zstd -Xcompression-level 9 $RAW_META

# The JSON document of a BE image is valid against the schema.
if python3 -c 'import jsonschema; jsonschema.Draft202012Validator' 2> /dev/null; then
	flashfs info --json "$T/gzip.be.sqfs" > "$T/info.json"
	ok "info --json of a BE image validates against info.schema.json" \
		python3 "$FF_TOP/tests/tools/json_validate.py" "$FF_TOP/docs/schemas/info.schema.json" "$T/info.json"
fi
flashfs info "$T/xz.be.sqfs" > "$T/info.txt" 2>&1
is "$(grep -c '^byte_order  *big$' "$T/info.txt")" 1 "info (text) shows byte_order big"

# --- damaged big-endian images ----------------------------------------------
GOOD=$T/gzip.be.sqfs
used=$(python3 -c "import struct,sys; print(struct.unpack_from('>Q', open(sys.argv[1],'rb').read(), 40)[0])" "$GOOD")

# no_crash NAME CMD...: exits below 128 (no signal, no sanitizer report).
no_crash() {
	local name=$1 rc
	shift
	"$@" > /dev/null 2> "$T/err"
	rc=$?
	is "$([ $rc -lt 128 ] && ! grep -q 'Sanitizer' "$T/err" && echo fine || echo "rc $rc")" fine "$name"
}
# refused NAME PATTERN IMAGE: check fails naming the problem; extract does
# not crash and leaves no partial tree behind a non-zero exit.
refused() {
	local name=$1 pattern=$2 img=$3
	flashfs check "$img" > /dev/null 2> "$T/err"
	is "$? $(grep -c -- "$pattern" "$T/err")" "2 1" "$name: check refuses it: $pattern"
	rm -rf "$T/x"
	no_crash "$name: extract does not crash" flashfs extract --no-progress -C "$T/x" "$img"
}
# put64 SRC DST OFFSET VALUE: a copy with a big-endian u64 replaced.
put64() {
	python3 -c "import struct,sys; b=bytearray(open(sys.argv[1],'rb').read()); struct.pack_into('>Q', b, int(sys.argv[3]), int(sys.argv[4], 0)); open(sys.argv[2],'wb').write(b)" "$@"
}

head -c $((used / 2)) "$GOOD" > "$T/trunc.sqfs"
refused "truncated to half" "bytes_used $used > file size $((used / 2))" "$T/trunc.sqfs"
head -c 60 "$GOOD" > "$T/short.sqfs"
refused "cut inside the superblock" "too few for a superblock" "$T/short.sqfs"
put64 "$GOOD" "$T/id.sqfs" 48 0x7fffffff00
refused "id table past the end" "id table 549755813632 past end of image" "$T/id.sqfs"
put64 "$GOOD" "$T/dir.sqfs" 72 0x60
refused "directory table before the inode table" "out of order or past end" "$T/dir.sqfs"
frag=$(python3 -c "import struct,sys; print(struct.unpack_from('>Q', open(sys.argv[1],'rb').read(), 80)[0])" "$GOOD")
put64 "$GOOD" "$T/fragidx.sqfs" "$frag" 0x10
refused "fragment table index pointing into the data" "fragment table block 0" "$T/fragidx.sqfs"
for seed in 1 2 3 4 5 6; do
	damage "$GOOD" "$T/d.sqfs" "$seed" 8
	no_crash "8 random bytes (seed $seed): check does not crash" flashfs check "$T/d.sqfs"
	rm -rf "$T/x"
	no_crash "8 random bytes (seed $seed): extract does not crash" flashfs extract --no-progress -C "$T/x" "$T/d.sqfs"
done

# The writer makes little-endian images only: appending to a BE image is
# refused, and the image is left as it was.
cp "$GOOD" "$T/append.sqfs"
mkfs.squashfs -q "$S/dir" "$T/append.sqfs" > /dev/null 2> "$T/err"
is "$([ $? -ne 0 ] && echo failed) $(grep -c 'cannot append to a big-endian image' "$T/err")" "failed 1" \
	"mkfs.squashfs refuses to append to a BE image"
ok "the BE image is left as it was" cmp -s "$GOOD" "$T/append.sqfs"

done_testing
