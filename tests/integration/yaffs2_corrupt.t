#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Hand-damaged YAFFS2 images: a single flipped tags bit is corrected and
# counted, worse damage is reported by check (exit 1) naming the page,
# garbage and empty files are refused with a message naming the file, and
# nothing crashes (exit codes below 128; run under ASan in CI's asan build).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/yaffs2_lib.sh"
need_root
DUMP=$FF_TOOLS/yaffs2_dump
[ -x "$DUMP" ] || skip_all "yaffs2_dump test tool not built"

make_kinds_tree "$T/src"
mkfs.yaffs2 -q "$T/src" "$T/good.img"

# flip IMAGE OUT BYTE_OFFSET XOR — copy with one byte changed.
flip() {
	python3 - "$@" <<'PY'
import sys
src, dst, off, x = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4], 0)
b = bytearray(open(src, 'rb').read())
b[off] ^= x
open(dst, 'wb').write(b)
PY
}
RAW=2112
# Page 3's tags start at raw OOB byte 2 (linux layout).
flip "$T/good.img" "$T/onebit.img" $((3 * RAW + 2048 + 2 + 5)) 0x08
ok "one flipped tags bit: check is clean" "$DUMP" "$T/onebit.img" check
ok "one flipped tags bit: counted" sh -c "'$DUMP' '$T/onebit.img' info | grep -qx tags_ecc_fixed=1"
ok "one flipped tags bit: extract" "$DUMP" "$T/onebit.img" extract "$T/out1"
same_manifest "one flipped tags bit: tree intact" "$T/src" "$T/out1" --root-entry

flip "$T/good.img" "$T/twobit.img" $((3 * RAW + 2048 + 2 + 5)) 0x18
fails "two flipped tags bits: check reports" "$DUMP" "$T/twobit.img" check
"$DUMP" "$T/twobit.img" check > "$T/msg" 2>&1
ok "the report names the page" grep -q "page 3: tags ECC error" "$T/msg"

# A header with an impossible type (tags still valid).
flip "$T/good.img" "$T/type.img" $((2 * RAW + 0)) 0x40
fails "bad header type: check reports" "$DUMP" "$T/type.img" check
"$DUMP" "$T/type.img" check > "$T/msg" 2>&1
ok "the report names page and object" grep -q "page 2: object .*unknown type" "$T/msg"

# Truncated in the middle of a page: what is there is read, the tail reported.
head -c $((40 * RAW + 1000)) "$T/good.img" > "$T/trunc.img"
fails "truncated image: check reports" "$DUMP" "$T/trunc.img" check
"$DUMP" "$T/trunc.img" check > "$T/msg" 2>&1
ok "the report names the partial page" grep -q "partial page" "$T/msg"

head -c 300000 /dev/urandom > "$T/random.img"
fails "random bytes are refused" "$DUMP" "$T/random.img" info
"$DUMP" "$T/random.img" info 2> "$T/msg"
ok "the message names the file" grep -q "random.img: no YAFFS2 geometry" "$T/msg"
: > "$T/empty.img"
fails "an empty file is refused" "$DUMP" "$T/empty.img" info
head -c 270336 /dev/zero > "$T/zero.img"
fails "all zeros are refused" "$DUMP" "$T/zero.img" info
head -c 270336 /dev/zero | tr '\0' '\377' > "$T/erased.img"
fails "an erased chip holds no file system" "$DUMP" "$T/erased.img" info

# Random damage everywhere: any outcome but a crash.
for seed in 1 2 3 4 5 6 7 8; do
	damage "$T/good.img" "$T/fuzz.img" "$seed" 200
	rm -rf "$T/fz"
	"$DUMP" "$T/fuzz.img" extract "$T/fz" > /dev/null 2>&1
	rc=$?
	ok "fuzz $seed: no crash (exit $rc)" test "$rc" -lt 128
done

# 512-byte pages (inband, headers truncated to 496 bytes): damage in a
# header page, a header's name run into the tags, a truncated image, and
# random damage: reported or read, never a crash.
mkfs.yaffs2 -q --no-xattrs --chip nandsim-512 "$T/src" "$T/g512.img"
ok "512: the undamaged image checks clean" "$DUMP" "$T/g512.img" check
flip "$T/g512.img" "$T/t512.img" 0 0x40
fails "512: bad header type: check reports" "$DUMP" "$T/t512.img" check
"$DUMP" "$T/t512.img" check > "$T/msg" 2>&1
ok "512: the report names page 0 and the problem" grep -q "page 0: object .*unknown type" "$T/msg"
# The name field (bytes 10..265) without a terminator, and the tags (at
# 496) left intact: the decoder must stop at the field's end.
python3 - "$T/g512.img" "$T/n512.img" <<'PY'
import sys
b = bytearray(open(sys.argv[1], 'rb').read())
b[10:266] = b'x' * 256
open(sys.argv[2], 'wb').write(b)
PY
fails "512: unterminated name: check reports" "$DUMP" "$T/n512.img" check
"$DUMP" "$T/n512.img" check > "$T/msg" 2>&1
ok "512: ... naming the field" grep -q "page 0: object .*name not terminated" "$T/msg"
head -c $((100 * 512 + 300)) "$T/g512.img" > "$T/tr512.img"
fails "512: truncated image: check reports" "$DUMP" "$T/tr512.img" check
for seed in 1 2 3 4; do
	damage "$T/g512.img" "$T/fz512.img" "$seed" 100
	rm -rf "$T/fz"
	"$DUMP" "$T/fz512.img" extract "$T/fz" > /dev/null 2>&1
	rc=$?
	ok "512 fuzz $seed: no crash (exit $rc)" test "$rc" -lt 128
	"$DUMP" --page-size 512 --layout inband "$T/fz512.img" check > /dev/null 2>&1
	rc=$?
	ok "512 fuzz $seed, geometry forced: no crash (exit $rc)" test "$rc" -lt 128
done
# A 2K image opened as 512-byte inband pages: refused or read, no crash.
"$DUMP" --page-size 512 --layout inband "$T/good.img" check > /dev/null 2>&1
rc=$?
ok "2K image forced to 512 inband: no crash (exit $rc)" test "$rc" -lt 128

# Cut on an erase-block boundary, a YAFFS2 image is still a valid smaller
# file system: the end record (yaffs2/end_record.h) tells it is not the one
# written.  Every boundary of a small image: check and extract fail, and
# check names what is missing; a lost middle block is named too.
mkdir -p "$T/cut/dir"
head -c 300000 /dev/urandom > "$T/cut/dir/big.bin"
for i in 1 2 3 4 5 6; do echo "file $i" > "$T/cut/f$i"; done
mkfs.yaffs2 -q "$T/cut" "$T/cut.img"
BLK=$((RAW * 64))
NB=$(( $(stat -c %s "$T/cut.img") / BLK ))
ok "the uncut image has $NB > 2 blocks and checks clean" \
	sh -c "[ $NB -gt 2 ] && '$DUMP' '$T/cut.img' check"
for k in $(seq 1 $((NB - 1))); do
	head -c $((k * BLK)) "$T/cut.img" > "$T/cutk.img"
	flashfs check "$T/cutk.img" > "$T/msg" 2>&1
	is "$?" 1 "cut after block $k of $NB: check exits 1"
	ok "... and says the image was cut short" grep -q "image cut short" "$T/msg"
	rm -rf "$T/cutx"
	fails "... extract fails too" flashfs extract --no-progress -C "$T/cutx" "$T/cutk.img"
done
head -c $((2 * BLK)) "$T/cut.img" > "$T/cut2.img"
flashfs check "$T/cut2.img" > "$T/msg" 2>&1
ok "a file cut short is named with its size" \
	grep -q "/dir/big.bin: file cut short: data ends at byte [0-9]* of 300000" "$T/msg"
ok "the missing objects are counted" grep -q "of the 8 objects written are missing" "$T/msg"
{ head -c "$BLK" "$T/cut.img"; tail -c +$((2 * BLK + 1)) "$T/cut.img"; } > "$T/hole.img"
fails "a block lost in the middle: check fails" flashfs check "$T/hole.img"
flashfs check "$T/hole.img" > "$T/msg" 2>&1
ok "... naming its sequence number" grep -q "sequence number 0x1001 is missing" "$T/msg"
# An image without the record (as other tools write them: the root's alias
# field erased) reads as before: cut short, it is still a valid smaller
# file system and nothing new is asserted.
python3 - "$T/cut.img" "$T/norec.img" <<'PY'
import sys
b = bytearray(open(sys.argv[1], 'rb').read())
i = b.find(b'flashfs-yaffs2 1 ')
while i >= 0:
    b[i:i + 160] = b'\xff' * 160
    i = b.find(b'flashfs-yaffs2 1 ', i + 1)
open(sys.argv[2], 'wb').write(b)
PY
ok "no record: the whole image is clean" flashfs check "$T/norec.img"
head -c $(( (NB - 1) * BLK)) "$T/norec.img" > "$T/norec-cut.img"
ok "no record: cut by a block, read as before (clean)" flashfs check "$T/norec-cut.img"
mkfs.yaffs2 -q --tags classic "$T/cut" "$T/cutc.img"
head -c $(( ( $(stat -c %s "$T/cutc.img") / BLK - 1) * BLK)) "$T/cutc.img" > "$T/cutck.img"
ok "classic tags: the whole image is clean" flashfs check "$T/cutc.img"
fails "classic tags: cut by one block, check fails" flashfs check "$T/cutck.img"

# mkfs errors name the object.
mkdir -p "$T/bad1" "$T/bad2"
ln -s "$(printf 'x%.0s' $(seq 1 160))" "$T/bad1/longlink"
exits 2 "160-byte symlink target is refused" mkfs.yaffs2 -q "$T/bad1" "$T/b1.img"
ok "the message names the link" grep -q "/longlink: symlink target is 160 bytes" "$T/exits.err"
mknod "$T/bad2/bigdev" c 300 1
exits 2 "device 300:1 is refused" mkfs.yaffs2 -q "$T/bad2" "$T/b2.img"
ok "the message names the device" grep -q "/bigdev: device 300:1" "$T/exits.err"
ok "no partial image" test ! -e "$T/b2.img"
exits 2 "bad --page-size (usage)" mkfs.yaffs2 -q --page-size 3000 "$T/src" "$T/x.img"
exits 2 "bad --chip (usage)" mkfs.yaffs2 -q --chip nosuch "$T/src" "$T/x.img"
exits 2 "unknown option (usage)" mkfs.yaffs2 -q --no-such-option "$T/src" "$T/x.img"
exits 2 "missing IMAGE (usage)" mkfs.yaffs2 -q "$T/src"
ok "no image from any refusal" test ! -e "$T/x.img"
ok "--chip list" sh -c "mkfs.yaffs2 --chip list | grep -q nandsim-2k-256m"

# Exit 1: built, but a file was skipped (--ignore-errors); without it the
# same file fails the build (exit 2, no image).
if command -v setpriv > /dev/null; then
	unreadable_tree "$T/priv"
	exits 1 "--ignore-errors skips an unreadable file" \
		as_nobody "$(command -v mkfs.yaffs2)" -q --ignore-errors "$T/priv/src" "$T/priv/out/i1"
	ok "... the warning names it" grep -q "secret.*skipped" "$T/exits.err"
	ok "... the image is written" test -s "$T/priv/out/i1"
	exits 2 "without --ignore-errors the unreadable file fails the build" \
		as_nobody "$(command -v mkfs.yaffs2)" -q "$T/priv/src" "$T/priv/out/i2"
	ok "... naming the file" grep -q "secret" "$T/exits.err"
	ok "... no image" test ! -e "$T/priv/out/i2"
else
	skip "setpriv not installed" "--ignore-errors exit 1"
fi
done_testing
