#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Every committed fuzz seed and regression reproducer (tests/fuzz/corpus/,
# tests/fuzz/regress/) runs once through its libFuzzer target, built with
# clang + ASan + UBSan by `make fuzz-bins` into build/fuzz.  A reproducer
# listed in tests/fuzz/regress/OPEN is a known, not yet fixed bug: it is
# reported as TODO so the suite stays usable while the fix is routed, and
# prove says "TODO passed" once it is fixed (then remove it from OPEN).
. "$(dirname "$0")/../lib.sh"

# The fuzz targets are one clang ASan + UBSan build whatever the suite's
# own build is, so under `make asan check` this file would repeat the plain
# check's run of the same binaries on the same inputs.
if nm "$FF_BIN/flashfs" 2> /dev/null | grep -q __asan_init; then
	skip_all "the suite is the ASan build (the fuzz targets are ASan builds the plain check runs)"
fi
command -v clang > /dev/null || skip_all "clang not installed (needed for libFuzzer)"
echo 'int LLVMFuzzerTestOneInput(const char *d, long n){(void)d;(void)n;return 0;}' \
	> "$T/probe.c"
clang -fsanitize=fuzzer,address,undefined "$T/probe.c" -o "$T/probe" 2> /dev/null ||
	skip_all "clang cannot link -fsanitize=fuzzer (libclang-rt-dev missing)"

# FF_FUZZ_BUILD picks the fuzz build directory (default build/fuzz, shared
# with `make fuzz`), so parallel checkouts or engineers need not share one.
fb=${FF_FUZZ_BUILD:-$FF_TOP/build/fuzz}
# A clean make environment: not the caller's BUILD, CFLAGS or jobserver.
if ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$FF_TOP" FUZZ_BUILD="$fb" fuzz-bins \
	> "$T/build.log" 2>&1; then
	echo "not ok 1 - make fuzz-bins"
	tail -n 30 "$T/build.log" | sed 's/^/#   /'
	echo "1..1"
	exit 1
fi
ok "fuzz targets built" test -x "$fb/fuzz_squashfs"

open_bug() {
	awk -v f="$1" '$1 == f { $1 = ""; sub(/^ /, ""); print; exit }' \
		"$FF_TOP/tests/fuzz/regress/OPEN" 2> /dev/null
}

# The targets' scratch directories go when each run ends (fuzz_tmp_dir):
# a private TMPDIR shows anything left behind.
mkdir "$T/tmp"
for dir in "$FF_TOP"/tests/fuzz/corpus/* "$FF_TOP"/tests/fuzz/regress/*; do
	[ -d "$dir" ] || continue
	t=$(basename "$dir")
	[ -x "$fb/fuzz_$t" ] || continue # e.g. regress/mutate: harden_mutate.t replays those
	for f in "$dir"/*; do
		[ -f "$f" ] || continue
		rel=${f#"$FF_TOP"/tests/fuzz/}
		why=$(open_bug "${rel#regress/}")
		_tap_n=$((_tap_n + 1))
		if TMPDIR=$T/tmp "$fb/fuzz_$t" -timeout=20 -rss_limit_mb=2560 -malloc_limit_mb=2048 \
			-runs=1 "$f" > "$T/run.log" 2>&1; then
			echo "ok $_tap_n - fuzz_$t $rel${why:+ # TODO open bug: $why}"
		elif [ -n "$why" ]; then
			echo "not ok $_tap_n - fuzz_$t $rel # TODO open bug: $why"
		else
			echo "not ok $_tap_n - fuzz_$t $rel"
			grep -E 'ERROR|SUMMARY|#[0-9]+ 0x.* in [a-z_]+ /' "$T/run.log" | head -n 8 |
				sed 's/^/#   /'
			_tap_fail=$((_tap_fail + 1))
		fi
	done
done
is "$(find "$T/tmp" -mindepth 1 | head -5)" "" "the targets left nothing in their TMPDIR"
done_testing
