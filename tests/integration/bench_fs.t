#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# flashfs bench chooses the file system (issue 31 item 4, issue 27): it runs
# every format of the registry that has a build hook, without naming one.
# Each image it keeps is byte-identical (cmp) to what the format's own
# program builds with the same options under SOURCE_DATE_EPOCH, and mounts
# in the host kernel with the source's tree; the JSON names the file
# system; --fs restricts, -O passes a format's flag to the formats taking it.
# The target's storage picks the flash file systems: a NAND run adds UBIFS
# rows, a NOR run JFFS2 rows, each byte-identical to ffmkfs.ubifs or
# ffmkfs.jffs2 with the same geometry and codec.
. "$(dirname "$0")/../lib.sh"

command -v python3 > /dev/null || skip_all "python3 not installed"
for b in mkfs.squashfs ffmkfs.erofs ffmkfs.jffs2 ffmkfs.ubifs; do
	[ -x "$FF_BIN/$b" ] || skip_all "builders not built ($b)"
done

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
is "$builds" "squashfs ubifs erofs jffs2" "the registry's formats with a build hook"

# a block device (eMMC): the read-only images only
flashfs bench -q -j2 -t emmc --min-time 0 --repeats 1 -c gzip:level=9 -c lz4:hc -c zstd:level=3 \
	-b 64K --work-dir "$T/w" --json "$T/r.json" "$T/src" > "$T/bench.out" 2>&1
ok "bench over every file system that builds" test $? -eq 0
valid() { python3 "$FF_TOP/tests/tools/json_validate.py" "$FF_TOP/docs/schemas/bench.schema.json" "$1"; }
ok "the JSON validates against bench.schema.json" valid "$T/r.json"
py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
is "$(py "$T/r.json" '" ".join(sorted(set(r["fs"] for r in d["results"])))')" "erofs squashfs" \
	"results of both file systems"
is "$(py "$T/r.json" 'd["settings"]["flash_type"]')" block "the JSON says the storage: block"
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

# rows of one file system: "label kept-image" per line
rows() { py "$1" "'\\n'.join(r['label'] + ' ' + r['image'] for r in d['results'] if r['fs'] == '$2')"; }

# NAND (a 4 KiB-page part with 256 KiB erase blocks, 64 MiB): UBIFS joins,
# with its own setting of each codec the run has (lz4: none)
flashfs bench --no-progress --no-color -j2 --min-time 0 --repeats 1 -c gzip:level=9 -c zstd:level=3 -c lzo -c lz4 \
	-b 64K -t slc-nand --page-size 4K --erase-block 256K --flash-size 64M --work-dir "$T/wn" \
	--json "$T/nand.json" "$T/src" > "$T/nand.out" 2>&1
ok "a NAND run" test $? -eq 0
ok "... its JSON validates" valid "$T/nand.json"
is "$(py "$T/nand.json" 'd["settings"]["flash_type"]')" nand "... and says nand"
is "$(py "$T/nand.json" '" ".join(sorted(set(r["fs"] for r in d["results"])))')" \
	"erofs squashfs ubifs" "... SquashFS, EROFS and UBIFS"
is "$(py "$T/nand.json" '" ".join(r["label"] + ":" + str(r["block_size"]) for r in d["results"] if r["fs"] == "ubifs")')" \
	"ubifs/lzo1x_999-7:4096 ubifs/zlib-6:4096 ubifs/zstd-3:4096" \
	"UBIFS: its one setting of lzo, gzip and zstd, in 4 KiB blocks whatever -b says"
n=0
while read -r label img; do
	x=$(py "$T/nand.json" "[r['codec'] for r in d['results'] if r['label'] == '$label'][0]")
	x=${x/gzip/zlib}
	rm -f "$T/ref.img"
	ffmkfs.ubifs -m 4096 -e 253952 -c 256 -x "$x" -r "$T/src" "$T/ref.img" > /dev/null 2>&1
	ok "$label: byte-identical to ffmkfs.ubifs -m 4096 -e 253952 -c 256 -x $x" cmp "$img" "$T/ref.img"
	n=$((n + 1))
done < <(rows "$T/nand.json" ubifs)
is "$n" 3 "every UBIFS image compared"
ok "the table lists UBIFS" grep -q "ubifs/zstd-3" "$T/nand.out"

# NOR (128 KiB erase blocks): JFFS2 joins, with codec none too
flashfs bench -q -j2 --min-time 0 --repeats 1 -c gzip:level=9 -c lzo -c none -b 64K \
	-t spi-nor --erase-block 128K --work-dir "$T/wj" --json "$T/nor.json" \
	--csv "$T/nor.csv" "$T/src" > "$T/nor.out" 2>&1
ok "a NOR run" test $? -eq 0
ok "... its JSON validates" valid "$T/nor.json"
is "$(py "$T/nor.json" 'd["settings"]["flash_type"]')" nor "... and says nor"
is "$(py "$T/nor.json" '" ".join(sorted(set(r["fs"] for r in d["results"])))')" \
	"erofs jffs2 squashfs" "... SquashFS, EROFS and JFFS2"
is "$(py "$T/nor.json" '" ".join(r["label"] for r in d["results"] if r["fs"] == "jffs2")')" \
	"jffs2/zlib-3 jffs2/lzo1x_999 jffs2/none" "JFFS2: mkfs.jffs2's zlib (level 3), lzo and none"
ok "the CSV carries JFFS2" grep -q '^jffs2,"",jffs2/zlib-3,gzip,' "$T/nor.csv"
j2ref() {
	case "$1" in
	*zlib-3) echo "-x rtime" ;;
	*lzo1x_999) echo "-X lzo -x zlib -x rtime" ;;
	*none) echo "-m none" ;;
	esac
}
n=0
while read -r label img; do
	rm -f "$T/ref.img"
	ffmkfs.jffs2 -l -s 4096 -e 128KiB $(j2ref "$label") -r "$T/src" -o "$T/ref.img" > /dev/null 2>&1
	ok "$label: byte-identical to ffmkfs.jffs2 -l -s 4096 -e 128KiB $(j2ref "$label")" \
		cmp "$img" "$T/ref.img"
	n=$((n + 1))
done < <(rows "$T/nor.json" jffs2)
is "$n" 3 "every JFFS2 image compared"
# and to mtd-utils' own mkfs.jffs2, the oracle
if mk=$(PATH=$PATH:/usr/sbin:/sbin command -v mkfs.jffs2); then
	"$mk" -l -s 4096 -e 128KiB -x rtime -r "$T/src" -o "$T/deb.img" > /dev/null 2>&1
	ok "jffs2/zlib-3: byte-identical to mtd-utils' mkfs.jffs2 -x rtime" \
		cmp "$(rows "$T/nor.json" jffs2 | sed -n 1p | cut -d' ' -f2)" "$T/deb.img"
else
	skip "mtd-utils' mkfs.jffs2 not installed" "the JFFS2 row against mkfs.jffs2"
fi
# JFFS2's flags: rtime kept, sumtool's summaries
flashfs bench -q --min-time 0 --repeats 1 -c gzip --fs jffs2 -O rtime -O summary --work-dir "$T/wf" \
	--json "$T/j2f.json" "$T/src" > /dev/null 2>&1
ffmkfs.jffs2 -l -s 4096 --summary -r "$T/src" -o "$T/ref.img" > /dev/null 2>&1
ok "-O rtime -O summary: byte-identical to ffmkfs.jffs2 --summary" \
	cmp "$(rows "$T/j2f.json" jffs2 | cut -d' ' -f2)" "$T/ref.img"
for f in nand nor; do
	ok "$f: the recommendations name the file system" \
		py "$T/$f.json" 'all(e["explanation"].split("/")[0].split()[-1] in ("squashfs", "erofs", "ubifs", "jffs2") for e in d["recommendations"])'
	# the three access patterns work on every image, flash file systems too
	ok "$f: every result has its sequential, random 4 KiB and stat costs" \
		py "$T/$f.json" 'all(r["read_cost"]["sequential_bytes"] > 0 and r["read_cost"]["stat_entries"] > 0 and r["read_cost"]["random_amplification"] > 0 for r in d["results"])'
done
fails "--flash-type with an unknown word" \
	flashfs bench -q -c lz4 --flash-type tape "$T/src"
fails "--erase-block that is not a power of two" \
	flashfs bench -q -c lz4 --erase-block 100K "$T/src"
fails "--self-check with -c none (no codec to time)" \
	flashfs bench -q --self-check -c none --fs jffs2 "$T/src"

# --fs restricts; -O goes to the formats that take it; unknown ones fail
flashfs bench -q --min-time 0 --repeats 1 -c lz4 -b 64K --fs erofs -t emmc --json "$T/e.json" "$T/src"
is "$(py "$T/e.json" '" ".join(r["fs"] for r in d["results"])')" "erofs erofs" "--fs erofs: EROFS only (without and with ztailpacking)"
flashfs bench -q --min-time 0 --repeats 1 -c lz4 -b 64K -t emmc -O no-fragments --json "$T/o.json" "$T/src"
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
# ... but not a raw-flash image: the host has no MTD device to mount it from
flashfs bench -q --self-check --min-time 0 --repeats 1 -c zstd --fs ubifs,jffs2 --json "$T/sf.json" \
	"$T/src" > /dev/null 2>&1
is "$(py "$T/sf.json" '" ".join("%s:%s:%s" % (r["fs"], r["self_check"]["kernel"]["ran"], "no host kernel mount" in r["self_check"]["kernel"]["note"]) for r in d["results"])')" \
	"ubifs:False:True" "--self-check: UBIFS not mounted in the host kernel, and the note says why"
done_testing
