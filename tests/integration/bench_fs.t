#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# flashfs bench chooses the file system (issue 31 item 4, issue 27): it runs
# every format of the registry that has a build hook, without naming one.
# Each image it keeps is byte-identical (cmp) to what the format's own
# program builds with the same options under SOURCE_DATE_EPOCH, and mounts
# in the host kernel with the source's tree; the JSON names the file
# system; --fs restricts, -O passes a format's flag to the formats taking it.
. "$(dirname "$0")/../lib.sh"

command -v python3 > /dev/null || skip_all "python3 not installed"
[ -x "$FF_BIN/mkfs.squashfs" ] && [ -x "$FF_BIN/ffmkfs.erofs" ] || skip_all "builders not built"

python3 - "$T/src" <<'PY'
import os, random, sys
root = sys.argv[1]
rnd = random.Random(31)
words = [''.join(rnd.choice('abcdefghij') for _ in range(rnd.randint(2, 8))) for _ in range(200)]
def text(n):
    s = ''
    while len(s) < n:
        s += rnd.choice(words) + (' ' if rnd.random() < 0.9 else '\n')
    return s[:n].encode()
def put(path, data):
    p = os.path.join(root, path)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, 'wb') as f:
        f.write(data)
for n in (0, 1, 4095, 4096, 65537, 200000):
    put('sizes/f%d' % n, text(n))
put('bin/random', bytes(rnd.getrandbits(8) for _ in range(70000)))
put('zeros/z', bytes(140000))
put('dup/a', text(30000))
put('dup/b', open(os.path.join(root, 'dup/a'), 'rb').read())
for i in range(40):
    put('many/e%02d' % i, text(i * 91))
os.symlink('../sizes/f1', os.path.join(root, 'dup/link'))
os.makedirs(os.path.join(root, 'empty/dir'))
PY
# old times, so SOURCE_DATE_EPOCH clamps nothing in either program
find "$T/src" -exec touch -h -d @1500000000 {} +
export SOURCE_DATE_EPOCH=1700000000

# the formats that build, from the registry: the bench must run each
flashfs formats --json > "$T/formats.json"
builds=$(python3 -c 'import json,sys; print(" ".join(f["name"] for f in json.load(open(sys.argv[1]))["formats"] if f["build"]))' "$T/formats.json")
is "$builds" "squashfs erofs" "the registry's formats with a build hook"

flashfs bench -q -j2 --min-time 0 --repeats 1 -c gzip:level=9 -c lz4:hc -c zstd:level=3 \
	-b 64K --work-dir "$T/w" --json "$T/r.json" "$T/src" > "$T/bench.out" 2>&1
ok "bench over every file system that builds" test $? -eq 0
valid() { python3 "$FF_TOP/tests/tools/json_validate.py" "$FF_TOP/docs/schemas/bench.schema.json" "$1"; }
ok "the JSON validates against bench.schema.json" valid "$T/r.json"
py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
is "$(py "$T/r.json" '" ".join(sorted(set(r["fs"] for r in d["results"])))')" "erofs squashfs" \
	"results of both file systems"
# EROFS' ztailpacking is a variant flag: each EROFS setting runs without and with it
is "$(py "$T/r.json" 'len(d["results"])')" 9 "three codecs × one size × (SquashFS + EROFS without and with ztailpacking)"
is "$(py "$T/r.json" 'sorted(set(r["block_name"] for r in d["results"]))')" \
	"['block size', 'pcluster size']" "each result says what its size is"
ok "the recommendations name the file system" \
	py "$T/r.json" 'all(e["explanation"].split("/")[0].split()[-1] in ("squashfs", "erofs") for e in d["recommendations"])'

# the reference command line for one result: the same options, the format's own program
ref() {
	python3 - "$T/r.json" "$1" <<'PY'
import json, sys
r = [x for x in json.load(open(sys.argv[1]))["results"] if x["label"] + "@" + str(x["block_size"]) == sys.argv[2]][0]
codec, bs = r["codec"], r["block_size"]
co = r["compressor_options"]
if r["fs"] == "squashfs":
    args = ["mkfs.squashfs", "-q", "--noappend", "-c", codec, "-b", str(bs)]
    if codec == "gzip": args += ["-X", "level=%d" % co["level"]]
    if codec == "zstd": args += ["-X", "level=%d" % co["level"]]
    if codec == "lz4" and co.get("hc"): args += ["-X", "hc"]
    print(" ".join(args) + " SRC IMG")
else:
    z = {"gzip": "deflate,%d" % co.get("level", 9), "zstd": "zstd,%d" % co.get("level", 3),
         "lz4": "lz4hc" if co.get("hc") else "lz4"}[codec]
    e = " -Eztailpacking" if "ztailpacking" in r["flags"].split(",") else ""
    print("ffmkfs.erofs --quiet -z%s -C%d%s IMG SRC" % (z, bs, e))
PY
}
n=0
for key in $(py "$T/r.json" '" ".join(r["label"] + "@" + str(r["block_size"]) for r in d["results"])'); do
	img=$(py "$T/r.json" "[r['image'] for r in d['results'] if r['label'] + '@' + str(r['block_size']) == '$key'][0]")
	cmd=$(ref "$key")
	cmd=${cmd//SRC/$T/src}
	cmd=${cmd//IMG/$T/ref.img}
	rm -f "$T/ref.img"
	$cmd > "$T/ref.out" 2>&1
	ok "$key: the kept image is byte-identical to: ${cmd//$T\//}" cmp "$img" "$T/ref.img"
	n=$((n + 1))
done
is "$n" 9 "every kept image compared"

# the host kernel mounts each and shows the source's tree
if [ "$(id -u)" = 0 ]; then
	mkdir -p "$T/mnt"
	for img in "$T/w"/*.img; do
		if mount -o loop,ro "$img" "$T/mnt" 2> "$T/mount.err"; then
			ok "$(basename "$img"): the kernel's tree equals the source" \
				diff -r --no-dereference "$T/src" "$T/mnt"
			umount "$T/mnt"
		else
			ok "$(basename "$img"): the kernel mounts it ($(head -c 200 "$T/mount.err"))" false
		fi
	done
else
	skip "kernel mounts need root" "kernel mounts of the kept images"
fi

# --fs restricts; -O goes to the formats that take it; unknown ones fail
flashfs bench -q --min-time 0 --repeats 1 -c lz4 -b 64K --fs erofs --json "$T/e.json" "$T/src"
is "$(py "$T/e.json" '" ".join(r["fs"] for r in d["results"])')" "erofs erofs" "--fs erofs: EROFS only (without and with ztailpacking)"
flashfs bench -q --min-time 0 --repeats 1 -c lz4 -b 64K -O no-fragments --json "$T/o.json" "$T/src"
is "$(py "$T/o.json" '" ".join(r["fs"] + ":" + r["flags"] for r in d["results"])')" \
	"squashfs:no-fragments erofs: erofs:ztailpacking" "-O no-fragments: given to the file system listing it"
fails "-O a flag no file system takes" \
	flashfs bench -q --min-time 0 --repeats 1 -c lz4 -b 64K -O no-such-flag "$T/src"
flashfs bench -q --min-time 0 --repeats 1 -c lz4 -b 64K -O no-such-flag "$T/src" 2> "$T/o.err"
ok "... and says which" grep -q "no-such-flag" "$T/o.err"
fails "--fs with a name that builds nothing" \
	flashfs bench -q --min-time 0 --repeats 1 -c lz4 -b 64K --fs nothing "$T/src"

# --self-check loop-mounts every image in the host kernel
if [ "$(id -u)" = 0 ]; then
	flashfs bench -q --self-check --min-time 0 --repeats 1 -c lz4 -b 64K --json "$T/s.json" \
		"$T/src" > /dev/null 2>&1
	is "$(py "$T/s.json" '" ".join("%s:%s:%s" % (r["fs"], r["self_check"]["kernel"]["ran"], r["self_check"]["kernel"]["same"]) for r in d["results"])')" \
		"squashfs:True:True erofs:True:True erofs:True:True" "--self-check: every image mounted by the kernel, same bytes"
else
	skip "kernel mounts need root" "--self-check kernel mounts"
fi
done_testing
