#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Hostile images: thousands of seeded random mutations (bit flips,
# truncations, byte runs, boundary values, superblock table-pointer swaps,
# hits inside the SquashFS metadata tables) of valid images of each format,
# codec and YAFFS2 layout, and of UBI images (fields of the EC and VID
# headers and volume-table records changed with their CRCs fixed).  On each, `flashfs check`, `flashfs ls -lR` and
# `flashfs extract` must end with exit 0/1/2 (a failure with a message on
# stderr), within a timeout, and extract must write nothing outside its
# target directory.  Driver: tests/fuzz/mutate.py.
#
#   FF_MUTATIONS=N     how many mutations (default 2000, spread over images)
#   FF_MUTATE_SEED=S   the seed (default 1); a failure reproduces with both
#   FF_MUTATE_JOBS=J   parallel runs (default 2)
# Failing images are kept in $FF_BUILD/harden-mutate/ with a .why file.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/harden_lib.sh"

for p in flashfs mkfs.squashfs mkfs.yaffs2 mkfs.ubi; do
	command -v $p > /dev/null || skip_all "$p not built"
done
count=${FF_MUTATIONS:-2000}
seed=${FF_MUTATE_SEED:-1}
jobs=${FF_MUTATE_JOBS:-2}
keep=$FF_BUILD/harden-mutate
flashfs=$(command -v flashfs)

harden_tree "$T/src"
ok "valid images of every format and codec built" harden_images "$T/src" "$T/img"
ok "valid UBI images built" harden_ubi_images "$T/src" "$T/ubi"
ubi_imgs=("$T"/ubi/*)
for img in "$T"/img/* "$T"/ubi/*; do
	ok "unmutated $(basename "$img") checks clean" flashfs check -q "$img"
done

# The driver's own sanity: an image it damages must not all pass as clean,
# or the mutations would not be reaching the parsers.
$MUTATE emit --out "$T/probe" --seed "$seed" --count 40 "$T"/img/sqfs-gzip.img > /dev/null
bad=0
for m in "$T"/probe/*; do
	flashfs check -q "$m" > /dev/null 2>&1 || bad=$((bad + 1))
done
ok "mutations are detected by check ($bad of 40 flagged)" test "$bad" -gt 10
# The same for UBI.  Its field mutations fix the header and record CRCs,
# so those must reach the checks on the fields themselves, not stop at a
# CRC mismatch.
$MUTATE emit --out "$T/probe-ubi" --seed "$seed" --count 60 "${ubi_imgs[@]}" \
	> "$T/probe-ubi.list"
bad=0
fields=0
past_crc=0
while IFS=$'\t' read -r name what; do
	flashfs check -q "$T/probe-ubi/$name" > /dev/null 2> "$T/probe.err" || bad=$((bad + 1))
	case $what in
	*"ubi "*field*)
		fields=$((fields + 1))
		grep -qi 'crc' "$T/probe.err" || past_crc=$((past_crc + 1))
		;;
	esac
done < "$T/probe-ubi.list"
ok "UBI mutations are detected by check ($bad of 60 flagged)" test "$bad" -gt 15
ok "UBI field mutations get past the CRC checks ($past_crc of $fields)" \
	test "$fields" -gt 10 -a "$past_crc" -ge $((fields * 3 / 4))

rm -rf "$keep"
sq=("$T"/img/sqfs-*.img "$T"/img/mksquashfs-*.img)
y2=("$T"/img/yaffs2-*)
n_sq=$((count / 2))
n_y2=$((count / 4))
n_ubi=$((count - n_sq - n_y2))
ok "$n_sq SquashFS mutations (seed $seed): clean exits, no hangs, no escapes" \
	$MUTATE run $MUTATE_RUN_OPTS --flashfs "$flashfs" --work "$T/work" --keep "$keep" --jobs "$jobs" \
	--seed "$seed" --count $n_sq "${sq[@]}"
ok "$n_y2 YAFFS2 mutations (seed $seed): clean exits, no hangs, no escapes" \
	$MUTATE run $MUTATE_RUN_OPTS --flashfs "$flashfs" --work "$T/work" --keep "$keep" --jobs "$jobs" \
	--seed "$seed" --count $n_y2 "${y2[@]}"
ok "$n_ubi UBI mutations (seed $seed): clean exits, no hangs, no escapes" \
	$MUTATE run $MUTATE_RUN_OPTS --flashfs "$flashfs" --work "$T/work" --keep "$keep" --jobs "$jobs" \
	--seed "$seed" --count $n_ubi "${ubi_imgs[@]}"

# Saved reproducers of past findings; open bugs (tests/fuzz/regress/OPEN) are TODO.
for img in "$FF_TOP"/tests/fuzz/regress/mutate/*; do
	[ -f "$img" ] || continue
	name=mutate/$(basename "$img")
	why=$(awk -v f="$name" '$1 == f { $1 = ""; sub(/^ /, ""); print; exit }' \
		"$FF_TOP/tests/fuzz/regress/OPEN")
	_tap_n=$((_tap_n + 1))
	if out=$($MUTATE replay --flashfs "$flashfs" --work "$T/work" --timeout 20 "$img" 2>&1); then
		echo "ok $_tap_n - replay $name${why:+ # TODO open bug: $why}"
	else
		echo "not ok $_tap_n - replay $name${why:+ # TODO open bug: $why}"
		printf '%s\n' "$out" | sed 's/^/#   /'
		[ -n "$why" ] || _tap_fail=$((_tap_fail + 1))
	fi
done
done_testing
