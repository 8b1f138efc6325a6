#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# ubifs-kernel-check.sh -s powercut|badblocks [-b BINDIR] [-w WORKDIR] —
# the host's half of scenarios/ubifs_powercut.sh and
# scenarios/ubifs_badblocks.sh (issue 29, items 4b and 4c): one guest boot,
# in which the kernel writes UBIFS on nandsim and sends back nanddump -o
# dumps, each NAME.img with the kernel's own reading of it (NAME.manifest,
# NAME.xattrs: ff_manifest/ff_xattrs of its mount); then, for each dump,
# our reader (flashfs extract) must give that manifest and those xattrs,
# and flashfs check must find the dump clean.
# Prints TAP; "1..0 # SKIP" where the guest cannot run.
set -u
. "$(dirname "$0")/host-begin.sh" ubifs "$@"
case $suite in
powercut | badblocks) ;;
*) echo "usage: ubifs-kernel-check.sh -s powercut|badblocks [-b BINDIR] [-w WORKDIR]" >&2; exit 2 ;;
esac
data=$scratch/data
got=$scratch/got
mkdir -p "$data/bin" "$got"
# setfattr for the guest's workload (getfattr is already there; both need
# only the C library)
command -v setfattr > /dev/null && cp "$(command -v setfattr)" "$data/bin/"

"$here/run-guest.sh" -n "ubifs-$suite" -b "$bindir" -w "$work" -d "$data" -x "$got" \
	-t "${NANDSIM_TIMEOUT:-600}" "$here/scenarios/ubifs_$suite.sh" > "$scratch/out"
rc=$?
[ $rc = 3 ] && { echo "1..0 # SKIP the guest cannot run here"; exit 0; }
[ $rc = 2 ] && echo "not ok - guest run completed (see $work/logs/ubifs-$suite.log)" >> "$scratch/out"

# reecc IMG — the torn dumps' pages get their ECC codes anew from their
# data: the tear (pc_tear) cut a page's data and left its codes, and the
# kernel read the dump after `nandwrite -o`, which made the codes anew; our
# reader, which repairs a raw dump's bit flips by its codes, must read what
# the kernel read (with the old codes the cut page is beyond repair, as a
# real torn page is)
reecc() {
	local geom
	geom=$("$bindir/flashfs" info "$1" 2> /dev/null |
		awk '$1 == "ubi_nand_page_size" {p = $2} $1 == "ubi_nand_oob_size" {o = $2}
			$1 == "ubi_peb_size" {b = $2} END {if (p && o) print p, o, b / p}')
	[ -n "$geom" ] || return 0
	# shellcheck disable=SC2086
	python3 "$top/tests/tools/nand_flip.py" "$1" "$1.ecc" $geom codes > /dev/null && mv "$1.ecc" "$1"
}

# host_checks NAME — our reader on the dump NAME.img against the kernel's
# reading of it
host_checks() {
	local n=$1 x=$scratch/x-$1
	if [ ! -f "$got/$n.img" ] || [ ! -f "$got/$n.manifest" ]; then
		echo "not ok - $n: the dump and the kernel's manifest came back from the guest"
		return
	fi
	rm -rf "$x"
	case $n in pc5 | pc6) reecc "$got/$n.img" ;; esac
	if ! "$bindir/flashfs" extract --no-progress -C "$x" "$got/$n.img" > "$x.out" 2>&1; then
		sed 's/^/#   /' "$x.out" | tail -n 5
		echo "not ok - $n: flashfs extract of the dump"
		return
	fi
	ff_manifest "$x" > "$x.manifest"
	if cmp -s "$got/$n.manifest" "$x.manifest"; then
		echo "ok - $n: our reader's tree is the kernel's ($(wc -l < "$x.manifest") objects)"
	else
		diff "$got/$n.manifest" "$x.manifest" | head -n 20 | sed 's/^/#   /'
		echo "not ok - $n: our reader's tree is the kernel's"
	fi
	if [ -f "$got/$n.xattrs" ]; then
		ff_xattrs "$x" > "$x.xattrs"
		if cmp -s "$got/$n.xattrs" "$x.xattrs"; then
			echo "ok - $n: our reader's xattrs are the kernel's ($(wc -l < "$x.xattrs"))"
		else
			diff "$got/$n.xattrs" "$x.xattrs" | head -n 10 | sed 's/^/#   /'
			echo "not ok - $n: our reader's xattrs are the kernel's"
		fi
	fi
	# what the dump asked of the reader (journal replay, orphans, bad blocks)
	"$bindir/flashfs" info "$got/$n.img" > "$x.info" 2>&1
	echo "#   $n: $(grep -E '^(ubi_nand_bad_blocks|commit_number|journal_buds|journal_nodes_applied|journal_removed_ranges|orphans) ' "$x.info" |
		tr -s ' \n' '  ')"
	info_expect "$n" "$x.info"
	if "$bindir/flashfs" check "$got/$n.img" > "$x.check" 2>&1; then
		echo "ok - $n: flashfs check finds the dump clean"
	else
		head -n 10 "$x.check" | sed 's/^/#   /'
		echo "not ok - $n: flashfs check finds the dump clean"
	fi
	rm -rf "$x"
}

# info_expect NAME INFO — the dumps hold what they were made to hold, so
# that a change in the kernel's behaviour cannot leave a check empty
info_expect() {
	local n=$1 info=$2 re what
	case $n in
	pc2 | pc4 | pc5 | pc6 | bb-journal) re="^journal_nodes_applied +[1-9]" what="journal nodes replayed" ;;
	pc1) re="^orphans +[1-9]" what="an orphan (the file deleted while open)" ;;
	bb-dump) re="^ubi_nand_bad_blocks +3$" what="the 3 bad blocks by their OOB marker" ;;
	*) return ;;
	esac
	if grep -qE "$re" "$info"; then
		echo "ok - $n: our reader sees $what"
	else
		echo "not ok - $n: our reader sees $what"
	fi
}

# info_value INFO KEY — a value of `flashfs info`'s text
info_value() {
	awk -v k="$2" '$1 == k { print $2; exit }' "$1"
}

# flip_checks NAME — bit flips as a chip read without ECC shows them, put
# into the kernel's dump NAME (whose OOBs hold the codes the kernel's
# software Hamming ECC wrote): our reader must find the codes, repair
# every single flip (the tree is still the kernel's reading of the
# unflipped dump), and count a step with two flips as beyond repair
flip_checks() {
	local n=$1 img=$got/$1.img x=$scratch/flip-$1 page oob ppb flips
	"$bindir/flashfs" info "$img" > "$x.info" 2>&1
	page=$(info_value "$x.info" ubi_nand_page_size)
	oob=$(info_value "$x.info" ubi_nand_oob_size)
	ppb=$(( $(info_value "$x.info" ubi_peb_size) / ${page:-1} ))
	if [ "$(info_value "$x.info" ubi_nand_ecc)" = hamming ]; then
		echo "ok - $n: our reader finds the kernel's Hamming codes in the dump's OOBs"
	else
		echo "not ok - $n: our reader finds the kernel's Hamming codes in the dump's OOBs"
		return
	fi
	flips=$(python3 "$top/tests/tools/nand_flip.py" "$img" "$x.img" "$page" "$oob" "$ppb" single)
	"$bindir/flashfs" info "$x.img" > "$x.info" 2>&1
	echo "#   $n with $flips flipped bits: $(grep -E '^ubi_nand_ecc' "$x.info" | tr -s ' \n' '  ')"
	if [ "$(info_value "$x.info" ubi_nand_ecc_corrected)" -gt 0 ] 2> /dev/null &&
		[ "$(info_value "$x.info" ubi_nand_ecc_failed)" = 0 ]; then
		echo "ok - $n, bits flipped: the headers' flips repaired, none beyond repair"
	else
		echo "not ok - $n, bits flipped: the headers' flips repaired, none beyond repair"
	fi
	rm -rf "$x"
	if "$bindir/flashfs" extract --no-progress -C "$x" "$x.img" > "$x.out" 2>&1 &&
		ff_manifest "$x" > "$x.manifest" && cmp -s "$got/$n.manifest" "$x.manifest"; then
		echo "ok - $n, $flips bits flipped: our reader's tree is still the kernel's"
	else
		tail -n 5 "$x.out" | sed 's/^/#   /'
		echo "not ok - $n, $flips bits flipped: our reader's tree is still the kernel's"
	fi
	rm -rf "$x"
	python3 "$top/tests/tools/nand_flip.py" "$img" "$x.img" "$page" "$oob" "$ppb" double > /dev/null
	"$bindir/flashfs" info "$x.img" > "$x.info" 2>&1
	if [ "$(info_value "$x.info" ubi_nand_ecc_failed)" -gt 0 ] 2> /dev/null; then
		echo "ok - $n, two bits flipped in one step: counted beyond repair"
	else
		sed 's/^/#   /' "$x.info" | tail -n 5
		echo "not ok - $n, two bits flipped in one step: counted beyond repair"
	fi
	rm -f "$x.img" "$x.info" "$x.out" "$x.manifest"
}

case $suite in
powercut) dumps="pc1 pc2 pc4 pc5 pc6" ;;
badblocks) dumps="bb-skip bb-dump bb-pad bb-plain bb-journal" ;;
esac
for n in $dumps; do
	host_checks "$n" >> "$scratch/out"
done
[ "$suite" = badblocks ] && flip_checks bb-dump >> "$scratch/out"
awk '/^#/ { print; next }
	/^(not )?ok - / { n++; sub(/^ok - /, "ok " n " - "); sub(/^not ok - /, "not ok " n " - "); print; if ($1 == "not") bad++; next }
	END { print "1.." n; exit bad > 0 }' "$scratch/out"
