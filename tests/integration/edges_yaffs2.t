#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# mkfs.yaffs2's rough edges (issue 32 item 6):
# - an image larger than the --chip is refused, saying by how much, and
#   nothing is written (an older IMAGE stays as it was);
# - yaffs2utils' mkyaffs2 command line as Buildroot's fs/yaffs2 runs it
#   (-c 2048 -s 64 --all-root --yaffs-ecclayout) builds the image our own
#   spellings build; --yaffs-ecclayout puts the tags at OOB byte 0 as
#   yaffs2utils' yaffs_nand_oob_64 does (free bytes 0..39), not after the
#   bad-block marker as the Linux layout does;
# - on a terminal the same progress bar as mkfs.squashfs and extract.
. "$(dirname "$0")/../lib.sh"
command -v script >/dev/null || skip_all "script (util-linux) missing"

mkdir -p "$T/big" "$T/small/d"
head -c 40M /dev/urandom >"$T/big/f"
for i in $(seq 1 2100); do echo "$i" >"$T/small/d/f$i"; done
ln -s d/f1 "$T/small/link"

# --- an image larger than the chip
echo old >"$T/old.img"
mkfs.yaffs2 -q --chip nandsim-512 "$T/big" "$T/old.img" 2>"$T/err"
is "$?" 2 "40 MiB into the 32 MiB nandsim-512: exit 2"
ok "the message names the chip and its size" grep -q -- "--chip nandsim-512 (32 MiB)" "$T/err"
ok "the message says by how much" \
	grep -Eq "needs [0-9]+ erase blocks, the chip has 2048: [0-9]+ blocks \([0-9]+ KiB of pages\) too many" "$T/err"
is "$(cat "$T/old.img")" old "the old IMAGE is untouched"
ok "no temporary left" bash -c "[ \$(ls -A '$T' | grep -c '^\.') = 0 ]"
truncate -s 20M "$T/big/f"
ok "20 MiB fits the 32 MiB chip" mkfs.yaffs2 -q --chip nandsim-512 "$T/big" "$T/fits.img"
ok "... and reads back" bash -c "flashfs cat '$T/fits.img' f | cmp - '$T/big/f'"

# --- yaffs2utils' spellings
ok "mkyaffs2 -c 2048 -s 64 --all-root --yaffs-ecclayout" \
	mkfs.yaffs2 -q -c 2048 -s 64 --all-root --yaffs-ecclayout "$T/small" "$T/y2u.img"
ok "our spellings" mkfs.yaffs2 -q --page-size 2048 --oob-size 64 --all-root \
	--oob-layout offset0 "$T/small" "$T/ours.img"
ok "the same bytes" cmp "$T/y2u.img" "$T/ours.img"
ok "--pagesize, --sparesize, -v" mkfs.yaffs2 -q -v --pagesize 2048 --sparesize 64 --all-root \
	--yaffs-ecclayout "$T/small" "$T/y2u2.img"
ok "... the same bytes" cmp "$T/y2u.img" "$T/y2u2.img"
mkfs.yaffs2 -q -c 2048 -s 64 --all-root "$T/small" "$T/linux.img"
oob0() { od -An -tx1 -j 2048 -N 2 "$1" | tr -d ' '; }
is "$(oob0 "$T/linux.img")" ffff "linux layout: OOB bytes 0-1 left for the bad-block marker"
ok "--yaffs-ecclayout: tags from OOB byte 0" bash -c "[ '$(oob0 "$T/y2u.img")' != ffff ]"
is "$(flashfs ls -R "$T/y2u.img" | wc -l)" 2102 "the --yaffs-ecclayout image reads back"
is "$(flashfs ls -l "$T/y2u.img" link | awk '{print $2}')" "0/0" "--all-root: owner 0/0" 

# --- the progress bar on a terminal, none when piped
FF_PROGRESS_INTERVAL_MS=0 script -qec "mkfs.yaffs2 '$T/small' '$T/tty.img'" /dev/null >"$T/tty.out" 2>&1
ok "tty: the bar's frames" grep -aEq '\[#+ *\] +[0-9]+%  [0-9]+/2103 objects' "$T/tty.out"
ok "tty: the final frame" grep -aEq '\[#{20}\] 100%  2103/2103 objects  in [0-9]:[0-9]{2}' "$T/tty.out"
ok "tty: no 0.0 MB for a job that counts objects" bash -c "! grep -aq '0.0 MB' '$T/tty.out'"
mkfs.yaffs2 "$T/small" "$T/pipe.img" 2>"$T/pipe.err" >/dev/null
is "$(cat "$T/pipe.err")" "" "not a terminal: no bar"
FF_PROGRESS_INTERVAL_MS=0 script -qec "mkfs.yaffs2 -q '$T/small' '$T/tty.img'" /dev/null >"$T/tty.out" 2>&1
ok "tty with -q: no bar" bash -c "! grep -aq objects '$T/tty.out'"
mkfs.yaffs2 --progress -q "$T/small" "$T/p.img" 2>"$T/p.err"
ok "--progress: lines even when not a terminal" grep -q "2103/2103 objects" "$T/p.err"

done_testing
