#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# SquashFS before 4.0 (issue 28 item 2): 3.1 images of both byte orders,
# written by tests/tools/mksqfs3.py from a generated tree (Debian's
# mksquashfs writes only 4.0), read by Debian's unsquashfs (the oracle) and
# by flashfs; the two extractions must agree, and with the source.  Then
# damaged images must be refused cleanly, and, where the field corpus is
# beside the repository, real 2.x/3.x images (zlib and the vendor LZMA
# builds) must read as unsquashfs reads them.
. "$(dirname "$0")/../lib.sh"
command -v unsquashfs > /dev/null || skip_all "unsquashfs (squashfs-tools) not installed"

MK="python3 $FF_TOP/tests/tools/mksqfs3.py"
S=$T/src
mkdir -p "$S/dir/sub" "$S/empty"
seq 1 40000 > "$S/big"                       # several 64 KiB blocks
head -c 5000 /dev/urandom > "$S/random"      # stored raw: does not compress
printf 'hi\n' > "$S/dir/small"
ln "$S/dir/small" "$S/dir/hard"              # a hard link
ln -s ../big "$S/dir/sub/link"
truncate -s 300000 "$S/sparse"               # holes, then one byte
printf x >> "$S/sparse"
mkfifo "$S/fifo"
touch "$S/odd name é"
python3 -c "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])" "$S/sock"
if [ "$(id -u)" = 0 ]; then
	mknod "$S/dir/chr" c 1 3
	mknod "$S/blk" b 8 1
fi

# One image: unsquashfs and flashfs extract it, the trees must agree.
round() {
	local name=$1 img=$T/$1.sqfs
	shift
	$MK "$@" "$S" "$img"
	unsquashfs -q -n -d "$T/$name.u" "$img" > /dev/null 2>&1
	is "$?" 0 "$name: unsquashfs reads the generated image"
	flashfs extract -C "$T/$name.f" "$img" > "$T/$name.err" 2>&1
	is "$?" 0 "$name: flashfs extract exits 0"
	same_manifest "$name: flashfs extracts what unsquashfs extracts" "$T/$name.u" "$T/$name.f"
	same_manifest "$name: the extraction equals the source" "$S" "$T/$name.f"
	flashfs check "$img" > /dev/null 2>&1
	is "$?" 0 "$name: check finds the image clean"
}

round le
round be --be
round be-4k --be --block-size 4096           # metadata and lists across blocks
round le-raw --raw-meta --block-size 4096    # uncompressed metadata blocks

# The LZMA forms of firmware builds (unsquashfs reads none of them): the
# extraction must equal the source.
for c in "lzma-alone" "lzma-raw --be" "lzma-raw --lzma-props 1,2,0"; do
	n=$(echo "$c" | tr -c 'a-z0-9\n' _)
	$MK --comp $c --block-size 4096 "$S" "$T/$n.sqfs"
	flashfs extract -C "$T/$n.f" "$T/$n.sqfs" > /dev/null 2>&1
	same_manifest "$c: the extraction equals the source" "$S" "$T/$n.f"
done
flashfs info "$T/lzma_raw___lzma_props_1_2_0.sqfs" > "$T/info.lz" 2>&1
ok "info names the lc/lp/pb found for raw LZMA" grep -q 'lzma-raw lc=1 lp=2 pb=0' "$T/info.lz"

flashfs info "$T/be.sqfs" > "$T/info" 2>&1
ok "info: version 3.1" grep -q '^version *3.1$' "$T/info"
ok "info: big-endian" grep -q '^byte_order *big-endian$' "$T/info"
ok "info: gzip" grep -q '^compressor *gzip$' "$T/info"
is "$(flashfs cat "$T/le.sqfs" /big 2> /dev/null | md5sum)" "$(md5sum < "$S/big")" \
	"cat gives a multi-block file's bytes"
is "$(flashfs cat "$T/be.sqfs" /sparse 2> /dev/null | md5sum)" "$(md5sum < "$S/sparse")" \
	"cat gives a file with holes"
flashfs ls -lR "$T/be.sqfs" > "$T/ls" 2>&1
ok "ls -lR shows the symlink's target" grep -q 'link -> ../big' "$T/ls"

# Damage: refused with a message, never a crash or a hang.
head -c 2000 "$T/le.sqfs" > "$T/trunc.sqfs"
timeout 20 flashfs ls -lR "$T/trunc.sqfs" > /dev/null 2> "$T/trunc.err"
rc=$?
ok "a truncated image is refused (exit $rc)" [ "$rc" -gt 0 ] && [ "$rc" -lt 124 ]
ok "the refusal names the problem" grep -q -i 'past\|outside\|truncated' "$T/trunc.err"
crashes=0
for seed in 1 2 3 4 5 6 7 8; do
	damage "$T/be-4k.sqfs" "$T/dmg.sqfs" "$seed" 40
	timeout 20 flashfs check "$T/dmg.sqfs" > /dev/null 2>&1
	rc=$?
	[ "$rc" -ge 124 ] && crashes=$((crashes + 1)) && echo "# seed $seed: exit $rc"
	timeout 20 flashfs extract -C "$T/dmg.$seed" "$T/dmg.sqfs" > /dev/null 2>&1
	rc=$?
	[ "$rc" -ge 124 ] && crashes=$((crashes + 1)) && echo "# seed $seed: extract exit $rc"
done
is "$crashes" 0 "damaged images: no crash and no hang"

# Real images from the field are make check-field's job (never in the
# repository, so never in make check).
done_testing
