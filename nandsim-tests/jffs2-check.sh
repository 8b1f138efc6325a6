#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# jffs2-check.sh [-b BINDIR] [-w WORKDIR] -s workload|damage — issue 30:
# the guest's kernel as the truth for our JFFS2 reader, one boot.
#
#   workload  scenarios/jffs2.sh: the kernel writes JFFS2 on mtdram; its
#             dumps and its own view of each come back; flashfs extract
#             of each dump must give that view, flashfs check must run
#   damage    scenarios/jffs2_damage.sh: images made here (ffmkfs.jffs2,
#             mkfs.jffs2) and damaged here; the kernel's view of each is
#             the truth our extract must equal
#
# Prints TAP; "1..0 # SKIP" where the guest cannot run.
set -u
suite=workload
. "$(dirname "$0")/host-begin.sh" jffs2 "$@"
. "$here/mtd-host.sh"
data=$scratch/data
got=$scratch/got
out=$scratch/out
mkdir -p "$data" "$got"
mtd_ship "$data" "$work" || { echo "1..0 # SKIP no kernel package for the guest"; exit 0; }

host_ok() { echo "ok - $1" >> "$out"; }
host_fail() { # NAME DETAIL-FILE
	echo "not ok - $1" >> "$out"
	[ -n "${2:-}" ] && head -n 20 "$2" | sed 's/^/#   /' >> "$out"
}

# compare_view NAME IMAGE TRUTH-PREFIX [CHECK-EXPECT] — flashfs extract of
# IMAGE equals the kernel's manifest (and xattrs, when the guest sent
# them); flashfs check exits CHECK-EXPECT (0 clean, "any" 0 or 1, never
# a crash)
compare_view() {
	local n=$1 img=$2 truth=$3 want=${4:-0} x=$scratch/x.$RANDOM rc
	if [ ! -f "$img" ] || [ ! -f "$truth.manifest" ]; then
		host_fail "$n: the guest sent the image and the kernel's view"
		return
	fi
	if grep -q UNMOUNTABLE "$truth.manifest"; then
		host_fail "$n: the kernel could not mount it, nothing to compare"
		return
	fi
	"$bindir/flashfs" extract -C "$x" "$img" > "$scratch/extract.out" 2>&1
	rc=$?
	if [ $rc -gt 1 ]; then
		host_fail "$n: flashfs extract (exit $rc)" "$scratch/extract.out"
	fi
	mkdir -p "$x"
	ff_manifest "$x" > "$scratch/m.ours"
	if cmp -s "$truth.manifest" "$scratch/m.ours"; then
		host_ok "$n: flashfs extract gives the kernel's tree ($(wc -l < "$scratch/m.ours") objects, extract exit $rc)"
	else
		diff "$truth.manifest" "$scratch/m.ours" > "$scratch/m.diff"
		host_fail "$n: flashfs extract gives the kernel's tree" "$scratch/m.diff"
	fi
	if [ -f "$truth.xattrs" ] && command -v getfattr > /dev/null; then
		ff_xattrs "$x" > "$scratch/x.ours"
		if cmp -s "$truth.xattrs" "$scratch/x.ours"; then
			host_ok "$n: the same xattrs ($(wc -l < "$scratch/x.ours"))"
		else
			diff "$truth.xattrs" "$scratch/x.ours" > "$scratch/x.diff"
			host_fail "$n: the same xattrs" "$scratch/x.diff"
		fi
	fi
	"$bindir/flashfs" check "$img" > "$scratch/check.out" 2>&1
	rc=$?
	if [ "$want" = any ] && [ $rc -le 1 ] || [ "$rc" = "$want" ]; then
		host_ok "$n: flashfs check exits $rc${5:+ ($5)}"
	else
		host_fail "$n: flashfs check exits $want, not $rc" "$scratch/check.out"
	fi
	rm -rf "$x"
}

boot() { # NAME SCENARIO
	"$here/run-guest.sh" -n "$1" -b "$bindir" -w "$work" -d "$data" -x "$got" \
		-t "${NANDSIM_TIMEOUT:-600}" "$here/scenarios/$2" > "$out"
	local rc=$?
	[ $rc = 3 ] && { echo "1..0 # SKIP the guest cannot run here"; exit 0; }
	[ $rc = 2 ] && echo "not ok - guest run completed (see $work/logs/$1.log)" >> "$out"
}

workload() {
	boot jffs2 jffs2.sh
	compare_view "d1 (synced, mounted)" "$got/jffs2-d1.img" "$got/jffs2-d1" 0
	compare_view "d2 (power cut mid-write)" "$got/jffs2-d2.img" "$got/jffs2-d2" any
	compare_view "d3 (after umount)" "$got/jffs2-d3.img" "$got/jffs2-d3" 0
}

# the tree the damage images are made of: files over several nodes and
# erase blocks, directories, links, devices, xattrs
damage_tree() {
	local d=$1
	mkdir -p "$d"/{etc,bin,dev,deep/a/b,many}
	for i in $(seq 1 40); do seq "$i" $((i * 60)) > "$d/etc/f$i"; done
	for i in $(seq 1 30); do echo "$i" > "$d/many/entry-$i"; done
	seq 1 60000 > "$d/etc/numbers"
	head -c 100000 /dev/urandom > "$d/bin/random.bin"
	truncate -s 200000 "$d/etc/sparse"
	echo middle | dd of="$d/etc/sparse" bs=1 seek=100000 conv=notrunc status=none
	: > "$d/etc/empty"
	ln -s ../etc/numbers "$d/bin/link"
	ln "$d/etc/f1" "$d/bin/hard"
	mknod "$d/dev/null" c 1 3
	mknod "$d/dev/sda" b 8 0
	mkfifo "$d/dev/fifo"
	chown 1000:100 "$d/etc/f2"
	seq 1 3000 > "$d/deep/a/b/deepfile"
	find "$d" -exec touch -h -d @1700000000 {} +
}

damage() {
	local src=$scratch/tree img=$data/img kinds="datacrc hdrcrc namecrc torn zeroblock" k b
	local D="python3 $top/tests/tools/jffs2_damage.py"
	mkdir -p "$img" "$scratch/host"
	damage_tree "$src"
	"$bindir/ffmkfs.jffs2" -r "$src" -e 64KiB -o "$scratch/host/ff.img" ||
		host_fail "ffmkfs.jffs2 makes the image"
	mkfs.jffs2 -r "$src" -e 64KiB -o "$scratch/host/mk.img" 2> /dev/null ||
		host_fail "mkfs.jffs2 makes the image"
	for b in ff mk; do
		cp "$scratch/host/$b.img" "$img/$b-clean.img"
		for k in $kinds; do
			$D "$k" "$scratch/host/$b.img" "$img/$b-$k.img" > /dev/null
		done
	done
	# big-endian: the kernel mounts jffs2dump's little-endian conversion
	"$bindir/ffmkfs.jffs2" -b -r "$src" -e 64KiB -o "$scratch/host/ffbe-clean.img"
	mkfs.jffs2 -b -r "$src" -e 64KiB -o "$scratch/host/mkbe-clean.img" 2> /dev/null
	$D datacrc "$scratch/host/ffbe-clean.img" "$scratch/host/ffbe-datacrc.img" > /dev/null
	$D namecrc "$scratch/host/mkbe-clean.img" "$scratch/host/mkbe-namecrc.img" > /dev/null
	for b in ffbe-clean mkbe-clean ffbe-datacrc mkbe-namecrc; do
		jffs2dump -b -e "$img/$b.img" "$scratch/host/$b.img" > /dev/null 2>&1 ||
			host_fail "jffs2dump -b -e converts $b to little-endian"
	done
	# NAND: no cleanmarkers in the image, 128 KiB blocks (nandsim's 2K chip)
	"$bindir/ffmkfs.jffs2" -n -r "$src" -e 128KiB -o "$data/nand.img"
	ff_manifest "$src" > "$data/nand.manifest"
	boot jffs2-damage jffs2_damage.sh
	for b in ff mk; do
		for k in clean $kinds; do
			compare_view "$b-$k" "$img/$b-$k.img" "$got/$b-$k" \
				"$([ "$k" = clean ] && echo 0 || echo 1)"
		done
	done
	for b in ffbe-clean mkbe-clean ffbe-datacrc mkbe-namecrc; do
		# jffs2dump converts the node headers, not the payload: a
		# device's 16-bit number stays big-endian, so the kernel reads
		# the converted image's major and minor swapped; undone here
		[ -f "$got/$b.manifest" ] &&
			awk '$8 ~ /^[0-9a-f]+:[0-9a-f]+$/ { split($8, d, ":"); $8 = d[2] ":" d[1] } { print }' \
				"$got/$b.manifest" > "$got/$b.m" && mv "$got/$b.m" "$got/$b.manifest"
		compare_view "$b (big-endian)" "$scratch/host/$b.img" "$got/$b" \
			"$(case $b in *clean) echo 0 ;; *) echo 1 ;; esac)"
	done
}

case $suite in
workload) workload ;;
damage) damage ;;
*) echo "jffs2-check: unknown suite $suite" >&2; exit 2 ;;
esac
mtd_guest_tap "$out"
