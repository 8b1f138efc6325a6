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

# take_turns N A B... — runs the commands A, B... (words, unquoted) in turn, N
# times each, so that a change of machine load during the run hits all the same
take_turns() {
	local _turn _n=$1 _cmd
	shift
	# (names the commands' own variables do not use: bash scopes are dynamic)
	for _turn in $(seq "$_n"); do
		for _cmd; do
			$_cmd || return 1
		done
	done
}

# median_rss — lines "seconds kb" on stdin; prints "median-seconds max-kb"
median_rss() {
	sort -n | awk '{t[NR] = $1; if ($2 > m) m = $2} END {if (NR) print t[int((NR + 1) / 2)], m}'
}

# corpora — "NAME DIR" lines: BENCH_SRC alone when set; else the embedded
# sample (made if missing; BENCH_CORPORA=minbase leaves it out) and a
# minbase rootfs, /var/tmp/minbase or build/rootfs/minbase (make bench-rootfs)
corpora() {
	local d
	if [ -n "${BENCH_SRC:-}" ]; then
		echo "$(basename "$BENCH_SRC") $BENCH_SRC"
		return
	fi
	if [ "${BENCH_CORPORA:-embedded minbase}" != minbase ]; then
		[ -d "$top/build/embedded-rootfs/root" ] ||
			"$top/bench/rootfs/make-embedded-rootfs.sh" "$top/build/embedded-rootfs" > /dev/null
		echo "embedded $top/build/embedded-rootfs/root"
	fi
	for d in /var/tmp/minbase "$top/build/rootfs/minbase"; do
		[ -d "$d" ] && { [ "$d" = /var/tmp/minbase ] || [ -f "$d/.complete" ]; } &&
			{ echo "minbase $d"; return; }
	done
	echo "bench: no minbase rootfs (/var/tmp/minbase, or make bench-rootfs): embedded corpus only" >&2
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
# turns A B — runs the words A and B (unquoted) in turn $runs times,
# each through runs_of once, so that a change of load hits both alike;
# leaves their lines in $work/a and $work/b
turns() {
	local i
	: > "$work/a"
	: > "$work/b"
	for i in $(seq "$runs"); do
		runs=1 runs_of $1 >> "$work/a" || return 1
		runs=1 runs_of $2 >> "$work/b" || return 1
	done
}
# fastest FILE — its line of the least wall time
fastest() { sort -n "$1" | head -n 1; }
# best CMD... — the fastest of runs_of; median CMD... — its median
best() { runs_of "$@" | sort -n | head -n 1; }
median() { runs_of "$@" | sort -n | awk '{v[NR] = $0} END {if (NR) print v[int((NR + 1) / 2)]}'; }

# ---- The newest peer tools (issue 33) ----
# ANCHORS=DIR names a ../shared/tools/build-anchors.sh output (its programs
# are DIR/bin/NAME-VERSION: mksquashfs-4.7.5, unsquashfs-4.7.5,
# squashfuse_ll-0.6.2, mkfs.erofs-1.9.3...) or that bin folder itself.
# Without it the benches compare against Debian's tools only and say so.

# anchors_bin — the folder holding them; status 1 when ANCHORS is unset or holds none
anchors_bin() {
	local d
	[ -n "${ANCHORS:-}" ] || return 1
	for d in "$ANCHORS/bin" "$ANCHORS"; do
		compgen -G "$d/*-[0-9]*" > /dev/null && { echo "$d"; return 0; }
	done
	return 1
}

# anchor NAME — the newest NAME-VERSION there (mksquashfs: .../mksquashfs-4.7.5)
anchor() {
	local d
	d=$(anchors_bin) || return 1
	compgen -G "$d/$1-[0-9]*" | sort -V | tail -n 1 | grep .
}

# tool_version PROG — its version: from a NAME-VERSION file name, else the
# first dotted number its -version (or --version) prints
tool_version() {
	local b=${1##*/}
	case $b in
	*-[0-9]*) echo "${b##*-}" ;;
	*) { "$1" -version 2>&1 || "$1" --version 2>&1; } | grep -o -m 1 '[0-9]\+\.[0-9.]*[0-9]' | head -n 1 ;;
	esac
}

# anchors_note NAME... — one line: the heads used, with versions and paths,
# or that none are and how to get them
anchors_note() {
	local n p used=
	if [ -z "${ANCHORS:-}" ]; then
		echo "heads: not used (ANCHORS unset), Debian's $* only; for the newest releases:" \
			"../shared/tools/build-anchors.sh OUT MIRROR..., then ANCHORS=OUT make ..."
		return
	fi
	for n; do
		if p=$(anchor "$n"); then
			used="$used $n $(tool_version "$p") ($p)"
		else
			used="$used $n: none in $ANCHORS"
		fi
	done
	echo "heads:$used"
}

# loadavg — the 1, 5 and 15 minute load averages
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }

# timed CMD... — like measure, one run: prints "wall cpu kb" (CPU = user + system)
timed() {
	local t0=$EPOCHREALTIME t1
	/usr/bin/time -f '%U %S %M' -o "$work/time.out" "$@" > /dev/null 2> "$work/cmd.err" ||
		{ echo "bench: failed: $*" >&2; tail -n 3 "$work/cmd.err" >&2; return 1; }
	t1=$EPOCHREALTIME
	awk -v a="$t0" -v b="$t1" '{printf "%.4f %.3f %d\n", b - a, $1 + $2, $3}' "$work/time.out"
}

# spread — lines "wall cpu kb" (timed, runs_of) on stdin; prints
# "median min max median-cpu max-kb", or nothing for no lines
spread() {
	local f=$work/spread
	cat > "$f"
	[ -s "$f" ] || return 0
	# shellcheck disable=SC2046
	set -- $(sort -n -k1,1 "$f" | awk '{w[NR] = $1} END {print w[int((NR + 1) / 2)], w[1], w[NR]}') \
		$(sort -n -k2,2 "$f" | awk '{c[NR] = $2; if ($3 > m) m = $3} END {print c[int((NR + 1) / 2)], m}')
	printf '%.3f %.3f %.3f %.3f %d\n' "$@"
}

# med_range MED MIN MAX — "1.23 (1.20-1.31)"; "-" when MED is empty
med_range() {
	[ -n "${1:-}" ] || { echo -; return; }
	awk -v a="$1" -v b="$2" -v c="$3" 'BEGIN {d = a < 10 ? 3 : 2; printf "%.*f (%.*f-%.*f)", d, a, d, b, d, c}'
}
