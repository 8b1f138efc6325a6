#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# flashfs bench --self-check under load (issue 20): with two CPU hogs
# running beside it on a 2-core machine the harness and the plain loop
# must never be called different, only "agree" or "inconclusive"; and the
# check can say DIFFERS: FLASHFS_BENCH_SLOW_DIRECT=3, the test hook, makes
# the plain loop count every third pass, and then it must.  Nothing here
# asserts a time: only the verdicts the paired measurement gives.
. "$(dirname "$0")/../lib.sh"

python3 -c 'import jsonschema' 2> /dev/null || skip_all "python3-jsonschema not installed (scripts/install-deps)"
schema=$FF_TOP/docs/schemas/bench.schema.json

# a corpus of a few MB: text that compresses, and some that does not
mkdir -p "$T/src/etc" "$T/src/bin"
python3 - "$T/src" <<'PY'
import os, random, sys
rnd = random.Random(20)
words = ['init', 'mount', 'busybox', 'eth0', 'root', 'flash', 'nand', 'ubi', 'sbin', 'echo']
for i in range(60):
    with open(os.path.join(sys.argv[1], 'etc', 'conf%02d' % i), 'w') as f:
        f.write(' '.join(rnd.choice(words) + str(rnd.randint(0, 999)) for _ in range(rnd.randint(1000, 20000))))
with open(os.path.join(sys.argv[1], 'bin', 'blob'), 'wb') as f:
    f.write(rnd.randbytes(1 << 20))
PY
du -sk "$T/src" | awk '{ print "# corpus: " $1 " KiB" }'

# verdicts FILE — the verdict words of the self-check's lines, counted
verdicts() { awk '$3 == "comp" || $3 == "decomp" { print $NF }' "$1" | sort | uniq -c | tr -s ' ' | paste -sd,; }
# said FILE WORD — how many of those lines end in WORD
said() { awk -v w="$2" '($3 == "comp" || $3 == "decomp") && $NF == w' "$1" | wc -l; }

# On a 2-core virtual machine zstd -19 read 0.75x (compression) and 1.17x
# (decompression) when the harness's two workers and the plain loop with
# its companion ran on both CPUs at once: the machine's pairing, not the
# harness.  Run on one CPU by turns they agreed here, but in CI, with the
# ASan pass busy on the other CPU, decompression still read 0.63..0.76.
# Only a gap beyond 1.5x either way is called a difference; this corpus
# (the demo's, where it was seen) must never be.
"$FF_TOP/bench/rootfs/make-embedded-rootfs.sh" "$T/e" > /dev/null || skip_all "embedded rootfs did not build"
mkdir "$T/tmp"
TMPDIR=$T/tmp flashfs bench --fs squashfs --quick --self-check -q -c zstd:level=19 "$T/e/root" \
	> "$T/quiet.txt" 2> "$T/quiet.err"
rc=$?
sed 's/^/# /' "$T/quiet.txt" "$T/quiet.err"
is "$rc" 0 "zstd -19 on the demo's corpus: exit 0"
is "$(said "$T/quiet.txt" DIFFERS)" 0 "zstd -19 on the demo's corpus: never DIFFERS ($(verdicts "$T/quiet.txt"))"
ok "the report says both sides ran on one CPU by turns" grep -q "both on one" "$T/quiet.txt"
# its work directory (images, the kernel mount's log) goes when it ends
is "$(find "$T/tmp" -mindepth 1 | head -3)" "" "nothing left in TMPDIR"

hogs=()
stop_hogs() {
	local p
	for p in "${hogs[@]}"; do kill "$p" 2> /dev/null; done
	for p in "${hogs[@]}"; do wait "$p" 2> /dev/null; done
	hogs=()
}
trap 'stop_hogs; _tap_cleanup' EXIT
for i in 1 2; do
	sh -c 'while :; do :; done' &
	hogs+=($!)
done


flashfs bench --fs squashfs --self-check -q --min-time 0.05 -c lz4 -c gzip:level=6 -b 128K \
	--json "$T/busy.json" "$T/src" > "$T/busy.txt" 2> "$T/busy.err"
rc=$?
stop_hogs
sed 's/^/# /' "$T/busy.txt"
is "$rc" 0 "beside two CPU hogs: exit 0"
is "$(awk '$3 == "comp" || $3 == "decomp"' "$T/busy.txt" | wc -l)" 4 "a line per codec and phase"
is "$(said "$T/busy.txt" DIFFERS)" 0 "beside two CPU hogs: never DIFFERS ($(verdicts "$T/busy.txt"))"
is "$(($(said "$T/busy.txt" agree) + $(said "$T/busy.txt" inconclusive)))" 4 "every line agrees or is inconclusive"
ok "the interval and the pairs are printed" grep -qE ' [0-9.]+\.\.[0-9.]+ +15x[0-9]+ ' "$T/busy.txt"
ok "JSON validates against bench.schema.json" python3 -c '
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))' "$T/busy.json" "$schema"
is "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
out = set()
for r in d["results"]:
    for ph in ("comp", "decomp"):
        s = r["self_check"][ph]
        out.add((s["rounds"], s["verdict"] in ("agree", "inconclusive"),
                 s["ratio_low"] <= s["ratio_median"] <= s["ratio_high"], s["confidence"] >= 0.95))
    out.add(r["self_check"]["differs_factor"])
print(sorted(out, key=str))' "$T/busy.json")" "[(15, True, True, True), 1.5]" \
	"JSON: 15 pairs, the verdict, low <= median <= high, at least 95% confidence, differs beyond 1.5x"

# The hook slows the plain loop threefold: the check must see it, even
# where the machine alone puts the pair 0.7x apart.
FLASHFS_BENCH_SLOW_DIRECT=3 flashfs bench --fs squashfs --self-check -q --min-time 0.05 -c lz4 -c gzip:level=6 \
	-b 128K --json "$T/slow.json" "$T/src" > "$T/slow.txt" 2> "$T/slow.err"
rc=$?
sed 's/^/# /' "$T/slow.txt"
is "$rc" 1 "plain loop slowed threefold by the test hook: exit 1"
ok "it says DIFFERS ($(verdicts "$T/slow.txt"))" test "$(said "$T/slow.txt" DIFFERS)" -ge 1
is "$(said "$T/slow.txt" agree)" 0 "no line agrees"
is "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(sorted({r["self_check"][ph]["verdict"] != "agree" for r in d["results"] for ph in ("comp", "decomp")}))' \
	"$T/slow.json")" "[True]" "JSON: no phase agrees"

FLASHFS_BENCH_SLOW_DIRECT=two flashfs bench --self-check -q -c lz4 "$T/src" > /dev/null 2> "$T/bad.err"
is "$?" 2 "a bad hook value is a usage error"
ok "and says which" grep -q "FLASHFS_BENCH_SLOW_DIRECT 'two'" "$T/bad.err"

done_testing
