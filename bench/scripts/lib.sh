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

# gen_tree DIR MB — a generated tree of about MB megabytes in 40
# directories: text slices and (one file in five) noise, 300 B .. 2 MiB,
# the same bytes every run, times fixed.  For the builders' benches when no
# rootfs is at hand.
gen_tree() {
	mkdir -p "$1"
	python3 - "$1" "$2" << 'PY'
import os, random, sys
r = random.Random(1)
root, total, i = sys.argv[1], 0, 0
words = [bytes(r.choice(b"abcdefghijklmnop ") for _ in range(r.randint(2, 9))) for _ in range(500)]
text = b" ".join(r.choice(words) for _ in range(1 << 20))  # ~6 MB of text, sliced
while total < int(sys.argv[2]) << 20:
    d = os.path.join(root, "d%02d" % (i % 40))
    os.makedirs(d, exist_ok=True)
    n = r.choice((300, 1000, 4096, 10000, 50000, 200000, 2 << 20))
    at = r.randrange(len(text) - n)
    data = r.randbytes(n) if i % 5 == 0 else text[at:at + n]
    open(os.path.join(d, "f%05d" % i), "wb").write(data)
    total += n
    i += 1
PY
	find "$1" -exec touch -h -d @1600000000 {} +
}

# rootfs_or_tree — a Debian minbase rootfs when one is there (BENCH_SRC,
# /var/tmp/minbase, build/rootfs/minbase from `make bench-rootfs`), else a
# generated ~50 MB tree in $work; prints its path.
rootfs_or_tree() {
	local d
	for d in "${BENCH_SRC:-}" /var/tmp/minbase "$top/build/rootfs/minbase"; do
		[ -n "$d" ] && [ -d "$d" ] && { echo "$d"; return; }
	done
	gen_tree "$work/tree" 50
	echo "$work/tree"
}

# runs_of CMD... — "wall cpu rss_kib" of each of $runs runs, one line each
# (nothing, and status 1, when CMD fails)
runs_of() {
	local i t0 t1
	for i in $(seq "$runs"); do
		t0=$EPOCHREALTIME
		/usr/bin/time -f '%U %S %M' -o "$work/t" "$@" > /dev/null 2>&1 || return 1
		t1=$EPOCHREALTIME
		awk -v a="$t0" -v b="$t1" '{printf "%.3f %.3f %d\n", b - a, $1 + $2, $3}' "$work/t"
	done
}
# best CMD... — the fastest of runs_of; median CMD... — its median
best() { runs_of "$@" | sort -n | head -n 1; }
median() { runs_of "$@" | sort -n | awk '{v[NR] = $0} END {if (NR) print v[int((NR + 1) / 2)]}'; }
