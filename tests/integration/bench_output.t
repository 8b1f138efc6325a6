#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# flashfs bench outputs: the JSON validates against docs/schemas/bench.schema.json,
# the CSV carries the same results, the plot is written (SVG and PNG via
# gnuplot), the table shows the recommendations, the self-check prints
# both figures and the interval of their ratio, sizes do not depend on -j, and bad input is refused.
. "$(dirname "$0")/../lib.sh"

schema=$FF_TOP/docs/schemas/bench.schema.json
mkdir -p "$T/src/etc" "$T/src/bin"
python3 - "$T/src" <<'PY'
import os, random, sys
rnd = random.Random(1)
for i in range(40):
    with open(os.path.join(sys.argv[1], 'etc', 'f%02d' % i), 'w') as f:
        f.write(' '.join(str(rnd.randint(0, 99)) for _ in range(rnd.randint(10, 9000))))
with open(os.path.join(sys.argv[1], 'bin', 'blob'), 'wb') as f:
    f.write(bytes(rnd.getrandbits(8) for _ in range(150000)))
PY

# one file system: these are the outputs' tests (bench_fs.t runs them all)
run() { flashfs bench --fs squashfs --no-color --min-time 0.01 --repeats 2 "$@"; }

run -c gzip -c lz4 -c zstd:level=3 -b 64K,128K --json "$T/r.json" --csv "$T/r.csv" \
	--plot "$T/r.svg" "$T/src" > "$T/table.txt" 2> "$T/err.txt"
is "$?" 0 "exit 0 on a clean run"

if python3 -c 'import jsonschema' 2> /dev/null; then
	ok "JSON validates against docs/schemas/bench.schema.json" python3 -c '
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))' "$T/r.json" "$schema"
	# the schema is not vacuous: a result without image_size must fail
	fails "schema rejects a result without image_size" python3 -c '
import json, sys, jsonschema
d = json.load(open(sys.argv[1])); del d["results"][0]["image_size"]
jsonschema.validate(d, json.load(open(sys.argv[2])))' "$T/r.json" "$schema"
else
	skip "python3-jsonschema not installed" "JSON schema validation"
fi
is "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["results"]))' "$T/r.json")" 6 \
	"JSON has 6 results"
is "$(tail -n +2 "$T/r.csv" | wc -l)" 6 "CSV has 6 rows"
ok "CSV and JSON agree on image sizes" python3 -c '
import csv, json, sys
j = sorted((r["label"], r["block_size"], r["image_size"]) for r in json.load(open(sys.argv[1]))["results"])
c = sorted((r["label"], int(r["block_size"]), int(r["image_size"])) for r in csv.DictReader(open(sys.argv[2])))
sys.exit(j != c)' "$T/r.json" "$T/r.csv"
ok "CSV rows sorted by image size" python3 -c '
import csv, sys
s = [int(r["image_size"]) for r in csv.DictReader(open(sys.argv[1]))]
sys.exit(s != sorted(s))' "$T/r.csv"
ok "table shows the three recommendations" grep -q "S smallest image" "$T/table.txt"
ok "table explains the fastest read" grep -q "reads fastest" "$T/table.txt"
ok "lz4 is larger than gzip here (sanity of sizes)" python3 -c '
import json, sys
r = {(x["label"], x["block_size"]): x["image_size"] for x in json.load(open(sys.argv[1]))["results"]}
sys.exit(not r[("squashfs/lz4", 131072)] > r[("squashfs/gzip", 131072)])' "$T/r.json"
ok "no progress line when stderr is not a terminal" test ! -s "$T/err.txt"

if command -v gnuplot > /dev/null; then
	ok "SVG plot written" grep -q "<svg" "$T/r.svg"
	if gnuplot -e 'set terminal pngcairo' 2> /dev/null; then
		ok "PNG plot written" run -q -c lz4 -b 128K --plot "$T/r.png" "$T/src"
		ok "PNG has the PNG magic" sh -c "head -c 4 '$T/r.png' | grep -q PNG"
	else
		skip "gnuplot has no pngcairo terminal" "PNG plot"
	fi
else
	skip "gnuplot not installed" "plots"
fi
# issue 20, item 7: the plot tells settings apart and marks the picks and
# the target; the table fits 100 columns when not a terminal.
run -q -c gzip:level=1 -c gzip:level=9 -c zstd:level=3 -c zstd:level=15 -c lz4 -b 64K,128K \
	--target-flash slc-nand --plot "$T/p.gp" "$T/src" > /dev/null 2>&1
ok "--plot FILE.gp writes the gnuplot script" grep -q "set multiplot" "$T/p.gp"
colour() { grep -o "title \"$1\"" "$T/p.gp" > /dev/null && grep -m1 -o "lc rgb \"#[0-9a-f]*\" pt [0-9]* title \"$1\"" "$T/p.gp"; }
g1=$(colour squashfs/gzip-1); g9=$(colour squashfs/gzip-9); z3=$(colour squashfs/zstd-3)
z15=$(colour squashfs/zstd-15)
ok "one colour per codec family (gzip-1, gzip-9)" test "${g1%% pt*}" = "${g9%% pt*}" -a -n "$g1"
ok "one colour per codec family (zstd-3, zstd-15)" test "${z3%% pt*}" = "${z15%% pt*}" -a -n "$z3"
ok "gzip-9 and zstd-15 differ in colour" test "${g9%% pt*}" != "${z15%% pt*}"
ok "one marker per level within a family" test "${g1#* pt }" != "${g9#* pt }"
ok "settings are labelled on the plot, with the file system" grep -q '"squashfs/zstd-15 128K"' "$T/p.gp"
ok "the S, F and W picks are marked" sh -c "grep -q 'set label 10 \"S\"' '$T/p.gp' && grep -q 'set label 11 \"F\"' '$T/p.gp' && grep -q 'set label 12 \"W\"' '$T/p.gp'"
ok "the target flash bandwidth is marked" grep -q 'label 1 "target 25 MB/s"' "$T/p.gp"
run -c gzip -c lz4 -b 64K,128K "$T/src" > "$T/narrow.txt" 2> /dev/null
ok "table fits 100 columns when not a terminal" \
	awk 'length($0) > 100 { exit 1 }' "$T/narrow.txt"
ok "... and says how to see the rest" grep -q -- "--wide shows every column" "$T/narrow.txt"
run --wide -c gzip -c lz4 -b 64K,128K "$T/src" > "$T/wide.txt" 2> /dev/null
ok "--wide shows every flash column" grep -q "emmc" "$T/wide.txt"
# issue 32 item 7: the plot is opaque, gnuplot is checked before the run
# and its failure told without a raw wait status, the target's column is
# in the default table.
if command -v gnuplot >/dev/null; then
	ok "the SVG has an opaque white background" \
		grep -q '<rect x="0" y="0" width="2400" height="700" fill="#ffffff"' "$T/r.svg"
fi
# labels never overprint: gzip-6, -9, -10 and -12 sit almost on one point,
# and read alike at 1024 MB/s.  The oracle is gnuplot's own SVG: the boxes
# of the setting labels it drew (10-point text at its anchor) never meet.
if command -v gnuplot >/dev/null; then
	run -q -b 128K -c gzip:level=6 -c gzip:level=9 -c gzip:level=10 -c gzip:level=12 -c lz4 \
		-c zstd:level=3 -c zstd:level=15 --plot "$T/labels.svg" "$T/src" 2>/dev/null
	ok "setting labels never overprint (gnuplot's SVG text boxes)" python3 - "$T/labels.svg" <<'PY'
import re, sys
svg = open(sys.argv[1]).read()
boxes = []
for m in re.finditer(r'<g transform="translate\(([\d.]+),([\d.]+)\)"[^>]*font-size="([\d.]+)"'
                     r'[^>]*text-anchor="start">\s*<text>([^<]*)</text>', svg):
    x, y, fs, t = float(m.group(1)), float(m.group(2)), float(m.group(3)), m.group(4).strip()
    if re.match(r'^squashfs/(gzip|lz4|zstd)', t):
        boxes.append((x, y - fs, x + 0.55 * fs * len(t), y + 0.2 * fs, t))
bad = [(a[4], b[4]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
       if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]]
print('# %d labels; overlapping: %s' % (len(boxes), bad))
sys.exit(1 if bad or len(boxes) != 14 else 0)
PY
fi
ok "the target bandwidth's column is in the default (narrow) table" \
	sh -c "sed -n '/^    fs.codec/{n;p;q}' '$T/narrow.txt' | grep -q '@25MB/s'"
mkdir -p "$T/nognuplot" "$T/badgnuplot"
for t in flashfs; do ln -sf "$(command -v $t)" "$T/nognuplot/$t"; done
env PATH="$T/nognuplot" flashfs bench -q -c lz4 -b 128K --plot "$T/n.svg" "$T/src" 2>"$T/nognuplot.err"
is "$?" 2 "no gnuplot: exit 2"
ok "... said before the run, naming the package" grep -q "gnuplot is not installed (apt-get install gnuplot-nox)" "$T/nognuplot.err"
ok "... nothing was measured" bash -c "! grep -q lz4 '$T/nognuplot.err'"
printf '#!/bin/sh\ncat >/dev/null\necho "gnuplot: a bad day" >&2\nexit 3\n' >"$T/badgnuplot/gnuplot"
chmod +x "$T/badgnuplot/gnuplot"
env PATH="$T/badgnuplot:$PATH" flashfs bench --no-color --min-time 0.01 --repeats 1 -q -c lz4 -b 128K \
	--plot "$T/b.svg" "$T/src" 2>"$T/bad.err"
is "$?" 2 "a failing gnuplot: exit 2"
ok "... its exit status told as such" grep -q "gnuplot failed with exit status 3" "$T/bad.err"
ok "... no raw wait status" bash -c "! grep -q 'status 768' '$T/bad.err'"
ok "... and no plot left" test ! -e "$T/b.svg"
# the default set's xz+bcj follows the corpus' ELF machine, not the host's
elf() { # FILE E_MACHINE EI_DATA — an ELF header, then code-like bytes
	python3 - "$@" <<'PY'
import os, random, struct, sys
path, machine, data = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
order = '<' if data == 1 else '>'
hdr = b'\x7fELF' + bytes([1, data, 1]) + bytes(9) + struct.pack(order + 'HH', 2, machine)
rnd = random.Random(path)
with open(path, 'wb') as f:
    f.write(hdr + bytes(rnd.getrandbits(8) & 0x3f for _ in range(60000)))
PY
}
mkdir -p "$T/arm/bin" "$T/a64/bin"
elf "$T/arm/bin/prog" 40 1
elf "$T/arm/bin/prog2" 40 1
elf "$T/arm/bin/x86tool" 62 1
elf "$T/a64/bin/prog" 183 1
flashfs bench --fs squashfs --no-color --min-time 0 --repeats 1 -b 64K "$T/arm" > "$T/arm.txt" 2>/dev/null
ok "an ARM corpus on this host: xz+bcj uses the arm filter" \
	grep -q "Codecs: xz+bcj uses the arm filter: the corpus' ELF files are arm" "$T/arm.txt"
ok "... and xz+bcj is measured" grep -q "xz+bcj" <(sed -n '/^    fs.codec/,$p' "$T/arm.txt")
flashfs bench --fs squashfs --no-color --min-time 0 --repeats 1 -b 64K "$T/a64" > "$T/a64.txt" 2>/dev/null
ok "an aarch64 corpus: the report says no filter exists" \
	grep -q "aarch64: SquashFS's xz (and the Linux kernel's decoder) has no BCJ filter" "$T/a64.txt"
ok "... and xz+bcj is not measured" bash -c "! sed -n '/^    fs.codec/,\$p' '$T/a64.txt' | grep -q 'xz+bcj'"
flashfs bench --quick --no-color "$T/arm" > "$T/quick.txt" 2>/dev/null
is "$(sed -n '/^    fs.codec/,/^$/p' "$T/quick.txt" | sed -n '3,$p' | grep ' 128 ' | cut -c5-22 | tr -d ' ' | sort | tr '\n' ' ')" \
	"erofs/gzip-9 erofs/lz4 erofs/lz4hc erofs/zstd-3 squashfs/gzip-9 squashfs/lz4 squashfs/lz4hc squashfs/xz+bcj squashfs/zstd-3 " \
	"--quick: one usual setting per family and file system, xz with the corpus' filter (EROFS stores no BCJ filter)"
# the plot answers the question first: read time at the target relative
# to the best, per setting, the size beside it
ok "the first panel: read time at the target / the best's" \
	grep -q 'set title "read time at the target flash (25 MB/s) / the best' "$T/p.gp"
ok "... a bar per setting, best first at 1.0000, with its size" \
	grep -qE '^1\.0000 1 [0-9]+ "[0-9.]+%, [0-9.]+ MB/s"$' "$T/p.gp"
fails "plot name without .svg/.png refused" run -q -c lz4 -b 128K --plot "$T/r.gif" "$T/src"
ok "no partial plot left behind" test ! -e "$T/r.gif"

run -q --self-check -c lz4 -c gzip -b 128K "$T/src" > "$T/self.txt" 2>&1
ok "self-check prints harness and direct figures" grep -q "direct" "$T/self.txt"
ok "self-check has a line per codec and phase" \
	test "$(grep -cE '^  squashfs/(lz4|gzip) +128K (comp|decomp) .* (agree|inconclusive|DIFFERS)$' "$T/self.txt")" -eq 4
ok "self-check shows the ratio's interval and the pairs" grep -qE ' [0-9.]+\.\.[0-9.]+ +15x[0-9]+ ' "$T/self.txt"

# sizes are a property of the data, not of the thread count
flashfs bench -q -j1 --min-time 0 --repeats 1 -c zstd -b 64K --json "$T/j1.json" "$T/src"
flashfs bench -q -j2 --min-time 0 --repeats 1 -c zstd -b 64K --json "$T/j2.json" "$T/src"
is "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["image_size"])' "$T/j1.json")" \
	"$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["image_size"])' "$T/j2.json")" \
	"same image size with -j1 and -j2"

# a tar file is a corpus too, with the same data as the directory
tar -C "$T/src" -cf "$T/src.tar" .
flashfs bench -q --min-time 0 --repeats 1 -c zstd -b 64K --json "$T/t.json" "$T/src.tar"
is "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["corpus"]["bytes"])' "$T/t.json")" \
	"$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["corpus"]["bytes"])' "$T/j1.json")" \
	"tar corpus has the directory's bytes"

# an output that is not a regular file is written in place, never replaced
mkfifo "$T/fifo"
(timeout 60 cat "$T/fifo" > "$T/fifo.out") &
run -q -c lz4 -b 128K --json "$T/fifo" "$T/src"
wait
ok "a FIFO given as --json stays a FIFO" test -p "$T/fifo"
ok "the JSON went through the FIFO" grep -q flashfs-bench/2 "$T/fifo.out"

fails "unknown codec refused" run -q -c nosuch "$T/src"
fails "bad block size refused" run -q -b 3K "$T/src"
fails "bad flash speed refused" run -q -f 12furlongs "$T/src"
fails "weight out of range refused" run -q -w 2 "$T/src"
fails "missing source refused" run -q "$T/nope"
fails "no source refused" run -q
run -q -b 3K "$T/src" 2> "$T/bad.txt"
is "$?" 2 "usage errors exit 2"
ok "error names the bad value" grep -q "3K" "$T/bad.txt"
run -q -c nosuch -c lz4 -b 128K --json "$T/partial.json" "$T/src" 2> "$T/partial.txt"
is "$?" 1 "one unusable codec: the rest runs, exit 1"
ok "the skipped codec is named" grep -q "nosuch" "$T/partial.txt"
ok "--help works" flashfs bench --help
done_testing
