#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Runs the libFuzzer targets (called by `make fuzz` and `make fuzz-regress`).
#
#   run-fuzz.sh fuzz    FUZZ_BUILD SECONDS TARGET...
#   run-fuzz.sh ci      FUZZ_BUILD SEED TARGET...
#   run-fuzz.sh regress FUZZ_BUILD TARGET...
#
# fuzz: each target runs SECONDS in fork mode, so one crash or OOM does not
# end the run; the corpus grows in FUZZ_BUILD/corpus/<target> across runs
# and every finding lands in FUZZ_BUILD/artifacts/<target>/.  Exit 1 when a
# run added an artifact.
# ci: the reproducible pass CI runs.  Each target starts from an empty
# corpus plus the seeds (FUZZ_BUILD/seeds, made byte-identical each time by
# make-seeds.sh) and the committed inputs, in one process (no fork mode:
# its jobs' seeds and the order their results merge in depend on timing),
# with libFuzzer's -seed=SEED and a fixed number of executions (-runs, from
# ci_runs below, a few minutes at most each on a 2-core CI box) rather than a time
# limit, -reload=0 (re-reading the corpus directory every few seconds runs
# inputs at times that depend on speed) and without address randomisation
# (norandom), so the same commit fuzzes the same inputs (on a quiet machine
# it does; under load some timing dependence is left, see docs/fuzzing.md);
# two targets run at a time (FUZZ_CI_JOBS).  A cap
# of 5x that minute only guards CI's budget on a much slower machine (then
# the pass is cut short and says so).  FUZZ_CI_PERCENT scales the runs.
# The first crash ends the target's pass and fails it.
# regress: every committed seed (tests/fuzz/corpus/<target>/) and regression
# input (tests/fuzz/regress/<target>/) runs once; exit 1 on any failure.
set -u
mode=$1
fb=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
flags=(-timeout=20 -rss_limit_mb=2560 -malloc_limit_mb=2048)

max_len() {
	case $1 in
	squashfs | yaffs2 | ubi | image) echo 262144 ;;
	decompress) echo 140000 ;;
	cstream) echo 65536 ;;
	tar) echo 131072 ;;
	ubifs) echo 65536 ;;
	erofs | jffs2) echo 32768 ;;
	cramfs | squashfs_legacy) echo 16384 ;;
	*) echo 8192 ;;
	esac
}

# Executions per target for the CI pass: 31-66 s each when first
# measured here (2 shared cores, clang 14, ASan + UBSan, seed 1); on
# 2026-12-04, with more code under the targets, 9-228 s each, decompress
# at its cap, 556 s in all two at a time.
ci_runs() {
	case $1 in
	squashfs) echo 450000 ;;
	yaffs2) echo 18000 ;;
	ubi) echo 100000 ;;
	decompress) echo 1100000 ;;
	cstream) echo 150000 ;;
	spec) echo 200000 ;;
	pseudo) echo 700000 ;;
	tar) echo 700000 ;;
	action) echo 150000 ;;
	options) echo 400000 ;; # 55 s here (ASan + UBSan, seed 1, a busy machine)
	image) echo 30000 ;;
	# the formats that came with the registry: 30-70 s each here
	# (2026-12-05, 5% runs under load: ubifs 300 in 7 s, erofs 400 in
	# 3 s, cramfs/jffs2/squashfs_legacy 2000 in 6 s, romfs 4000 in 4 s)
	ubifs) echo 3000 ;;
	erofs) echo 4000 ;;
	cramfs | jffs2 | squashfs_legacy) echo 20000 ;;
	romfs) echo 40000 ;;
	esac
}

# Address-space randomisation changes the pointer values that the
# instrumented comparisons feed into libFuzzer's mutations (seen as
# different corpora from the same seed), so the CI pass runs without it.
norandom() {
	if setarch "$(uname -m)" -R true 2> /dev/null; then
		setarch "$(uname -m)" -R "$@"
	else
		echo "note: setarch -R not permitted here; the pass may not repeat exactly" >&2
		"$@"
	fi
}

input_dirs() {
	local d
	for d in "$fb/seeds/$1" "$here/corpus/$1" "$here/regress/$1"; do
		[ -d "$d" ] && echo "$d"
	done
}

# private_tmp DIR CMD...: CMD with TMPDIR=DIR (made empty first); what CMD
# leaves there is named and fails the run (the targets' scratch directories
# must go when a pass ends: CI once left hundreds in /tmp).
private_tmp() {
	local dir=$1 rc=0 left
	shift
	rm -rf "$dir"
	mkdir -p "$dir"
	TMPDIR=$dir "$@" || rc=$?
	left=$(find "$dir" -mindepth 1 -maxdepth 1 | head -3)
	if [ -n "$left" ]; then
		echo "$(basename "$dir"): left in its TMPDIR $dir: $(echo $left)"
		[ "$rc" -ne 0 ] || rc=1
	fi
	rm -rf "$dir"
	return $rc
}

ci_one() {
	local t=$1 seed=$2 runs dirs log=$fb/ci/fuzz_$1.log start rc done_runs
	runs=$(($(ci_runs "$t") * ${FUZZ_CI_PERCENT:-100} / 100))
	mapfile -t dirs < <(input_dirs "$t")
	rm -rf "$fb/ci/corpus/$t" "$fb/ci/artifacts/$t"
	mkdir -p "$fb/ci/corpus/$t" "$fb/ci/artifacts/$t"
	start=$SECONDS
	private_tmp "$fb/ci/tmp/fuzz_$t" norandom "$fb/fuzz_$t" "${flags[@]}" -seed="$seed" -runs="$runs" -reload=0 -max_total_time=300 \
		-max_len="$(max_len "$t")" -print_final_stats=1 \
		-artifact_prefix="$fb/ci/artifacts/$t/" "$fb/ci/corpus/$t" "${dirs[@]}" \
		> "$log" 2>&1
	rc=$?
	done_runs=$(awk '/^stat::number_of_executed_units/ {print $2}' "$log")
	echo "fuzz_$t: seed $seed, ${done_runs:-?}/$runs runs, $((SECONDS - start)) s," \
		"$(grep -E '^#[0-9]+' "$log" | tail -1 | grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+')"
	if [ $rc -ne 0 ]; then
		echo "fuzz_$t: FAILED (exit $rc), log $log; reproduce with:"
		echo "  $fb/fuzz_$t $(ls "$fb/ci/artifacts/$t/"* 2> /dev/null | head -1)"
		grep -E '^SUMMARY|ERROR: libFuzzer|^==[0-9]+==ERROR|left in its TMPDIR' "$log" | head -5
		return 1
	fi
	[ "${done_runs:-0}" -ge "$runs" ] ||
		echo "fuzz_$t: note: stopped by the time cap, not the reproducible pass"
	return 0
}

fuzz_one() {
	local t=$1 secs=$2 dirs=() d before after
	mkdir -p "$fb/corpus/$t" "$fb/artifacts/$t"
	for d in "$fb/seeds/$t" "$here/corpus/$t" "$here/regress/$t"; do
		[ -d "$d" ] && dirs+=("$d")
	done
	before=$(find "$fb/artifacts/$t" -type f | wc -l)
	echo "== fuzz_$t: $secs s"
	"$fb/fuzz_$t" "${flags[@]}" -fork=1 -ignore_crashes=1 -ignore_ooms=1 \
		-ignore_timeouts=1 -max_total_time="$secs" -max_len="$(max_len "$t")" \
		-artifact_prefix="$fb/artifacts/$t/" "$fb/corpus/$t" "${dirs[@]}" \
		> "$fb/fuzz_$t.log" 2>&1
	after=$(find "$fb/artifacts/$t" -type f | wc -l)
	grep -E '^#[0-9]+: cov' "$fb/fuzz_$t.log" | tail -1
	if [ "$after" -gt "$before" ]; then
		echo "fuzz_$t: $((after - before)) new finding(s) in $fb/artifacts/$t/ (log $fb/fuzz_$t.log)"
		grep -E '^SUMMARY|ERROR: libFuzzer' "$fb/fuzz_$t.log" | sort | uniq -c | head -5
		return 1
	fi
}

regress_one() {
	local t=$1 files
	mapfile -t files < <(find "$here/corpus/$t" "$here/regress/$t" -type f 2> /dev/null | sort)
	[ "${#files[@]}" -gt 0 ] || return 0
	if private_tmp "$fb/tmp/fuzz_$t" "$fb/fuzz_$t" "${flags[@]}" -runs=1 "${files[@]}" \
		> "$fb/regress_$t.log" 2>&1; then
		echo "fuzz_$t: ${#files[@]} inputs ok"
	else
		echo "fuzz_$t: FAILED (${#files[@]} inputs), log $fb/regress_$t.log"
		grep -E '^Running:|^SUMMARY|ERROR:|left in its TMPDIR' "$fb/regress_$t.log" | tail -3
		return 1
	fi
}

fail=0
case $mode in
fuzz)
	secs=$1
	shift
	for t in "$@"; do fuzz_one "$t" "$secs" || fail=1; done
	;;
ci)
	seed=$1
	shift
	# FUZZ_CI_JOBS targets at a time (default 2, CI's cores): each is one
	# process on its own inputs and directories, so the pass is the same;
	# the reports come in target order when all have ended.
	out=$(mktemp -d)
	for t in "$@"; do
		while [ "$(jobs -rp | wc -l)" -ge "${FUZZ_CI_JOBS:-2}" ]; do wait -n; done
		(
			rc=0
			ci_one "$t" "$seed" > "$out/$t" 2>&1 || rc=$?
			echo "$rc" > "$out/$t.rc"
		) &
	done
	wait
	for t in "$@"; do
		cat "$out/$t"
		[ "$(cat "$out/$t.rc" 2> /dev/null)" = 0 ] || fail=1
	done
	rm -rf "$out"
	;;
regress)
	for t in "$@"; do regress_one "$t" || fail=1; done
	;;
*)
	echo "usage: run-fuzz.sh fuzz|ci|regress FUZZ_BUILD ..." >&2
	exit 2
	;;
esac
exit $fail
