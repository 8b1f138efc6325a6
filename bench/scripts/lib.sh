# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Helpers for the bench-*.sh scripts: timing with peak RSS, medians,
# corpora.  Sourced; FF_BIN names our programs.

top=$(cd "$(dirname "$0")/../.." && pwd)
bin=${FF_BIN:-$top/build/bin}
runs=${BENCH_RUNS:-3}
work=${BENCH_WORK:-$(mktemp -d "${TMPDIR:-/tmp}/ff-bench.XXXXXX")}
trap 'rm -rf "$work"' EXIT

# measure CMD... — runs CMD once under /usr/bin/time (for the peak RSS);
# prints "SECONDS KB".  The clock is the shell's, to the microsecond:
# time's own %e has 10 ms steps, 4% of a 0.25 s extraction.
measure() {
	local t0=$EPOCHREALTIME t1
	/usr/bin/time -f '%M' -o "$work/time.out" "$@" > /dev/null 2> "$work/cmd.err" ||
		{ echo "bench: failed: $*" >&2; tail -n 3 "$work/cmd.err" >&2; return 1; }
	t1=$EPOCHREALTIME
	echo "$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.4f", b - a}') $(cat "$work/time.out")"
}

# The codecs to run (BENCH_CODECS narrows the list).
codecs=${BENCH_CODECS:-gzip lzo xz lz4 zstd}

# median_of N CMD... — runs CMD N times; prints "median-seconds max-rss-kb"
median_of() {
	local n=$1 i
	shift
	: > "$work/runs"
	for i in $(seq "$n"); do
		measure "$@" >> "$work/runs" || return 1
	done
	median_rss < "$work/runs"
}

# take_turns N A B — runs the commands A and B (words, unquoted) in turn, N times each,
# so that a change of machine load during the run hits both the same
take_turns() {
	local i
	for i in $(seq "$1"); do
		$2 && $3 || return 1
	done
}

# median_rss — lines "seconds kb" on stdin; prints "median-seconds max-kb"
median_rss() {
	sort -n | awk '{t[NR] = $1; if ($2 > m) m = $2} END {if (NR) print t[int((NR + 1) / 2)], m}'
}

# corpora: the embedded sample (made if missing) and the minbase rootfs if cached
corpora() {
	[ -d "$top/build/embedded-rootfs/root" ] ||
		"$top/bench/rootfs/make-embedded-rootfs.sh" "$top/build/embedded-rootfs" > /dev/null
	echo "embedded $top/build/embedded-rootfs/root"
	if [ -f "$top/build/rootfs/minbase/.complete" ]; then
		echo "minbase $top/build/rootfs/minbase"
	else
		echo "bench: build/rootfs/minbase not there (make bench-rootfs): embedded corpus only" >&2
	fi
}

# ratio A B [DIGITS] — A/B with DIGITS decimals (2): sizes need 4 to show a 4 KiB pad
ratio() { awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN { if (b > 0) printf "%.*f", d, a / b; else print "-" }'; }

machine() {
	echo "machine: $(nproc) CPUs, $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo), $(uname -r)"
}
