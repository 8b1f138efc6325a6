#!/bin/bash
# Runs the libFuzzer targets (called by `make fuzz` and `make fuzz-regress`).
#
#   run-fuzz.sh fuzz    FUZZ_BUILD SECONDS TARGET...
#   run-fuzz.sh regress FUZZ_BUILD TARGET...
#
# fuzz: each target runs SECONDS in fork mode, so one crash or OOM does not
# end the run; the corpus grows in FUZZ_BUILD/corpus/<target> across runs
# and every finding lands in FUZZ_BUILD/artifacts/<target>/.  Exit 1 when a
# run added an artifact.
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
	squashfs | yaffs2) echo 262144 ;;
	decompress) echo 140000 ;;
	cstream) echo 65536 ;;
	tar) echo 131072 ;;
	*) echo 8192 ;;
	esac
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
	if "$fb/fuzz_$t" "${flags[@]}" -runs=1 "${files[@]}" > "$fb/regress_$t.log" 2>&1; then
		echo "fuzz_$t: ${#files[@]} inputs ok"
	else
		echo "fuzz_$t: FAILED (${#files[@]} inputs), log $fb/regress_$t.log"
		grep -E '^Running:|^SUMMARY|ERROR:' "$fb/regress_$t.log" | tail -3
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
regress)
	for t in "$@"; do regress_one "$t" || fail=1; done
	;;
*)
	echo "usage: run-fuzz.sh fuzz|regress FUZZ_BUILD ..." >&2
	exit 2
	;;
esac
exit $fail
