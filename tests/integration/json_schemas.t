#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Every --json output against its schema in docs/schemas/ (JSON Schema
# 2020-12, python3-jsonschema's Draft202012Validator through
# tests/tools/json_validate.py), on real images: SquashFS from mkfs.squashfs
# and from mksquashfs, YAFFS2 from mkfs.yaffs2, UBI from mkfs.ubi and from
# ubinize.  Oracles for the values: the source tree (os.lstat) for ls
# records, unsquashfs -s for the superblock (bytes_used, dictionary, NFS
# export, counts), stat(1) for image sizes.  Each schema is shown to reject
# a document with one field broken the way issue 20 found it.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/yaffs2_lib.sh"
need_root
python3 -c 'import jsonschema; jsonschema.Draft202012Validator' 2> /dev/null ||
	skip_all "python3-jsonschema with Draft 2020-12 not installed (scripts/install-deps)"
command -v mksquashfs > /dev/null || skip_all "mksquashfs (squashfs-tools) not installed"
command -v unsquashfs > /dev/null || skip_all "unsquashfs (squashfs-tools) not installed"

S=$FF_TOP/docs/schemas
VALIDATE="python3 $FF_TOP/tests/tools/json_validate.py"
cd "$T" || exit 2

# valid NAME SCHEMA FILE — the document validates
valid() { ok "$1: valid against $(basename "$2")" $VALIDATE "$2" "$3"; }
# py FILE EXPR — prints EXPR evaluated with d = the document
py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(($2))" "$1"; }
# broken NAME SCHEMA FILE PYTHON — the schema rejects the document after PYTHON edits d
broken() {
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); $4; json.dump(d, open(sys.argv[2], 'w'))" \
		"$3" broken.json
	fails "$1: rejected by $(basename "$2")" $VALIDATE "$2" broken.json
}
sb_bytes_used() { python3 -c 'import struct,sys; print(struct.unpack_from("<Q", open(sys.argv[1], "rb").read(48), 40)[0])' "$1"; }
unsq() { unsquashfs -s "$1" | sed -n "s/^$2 //p"; }

make_kinds_tree src
rm -f src/sock

# --- mkfs.squashfs --json --------------------------------------------------
mkfs.squashfs --json -q -c xz -X dict=65536 src ours.sqfs > mkfs.json 2> mkfs.err
valid "mkfs.squashfs (xz)" "$S/mkfs.squashfs.schema.json" mkfs.json
is "$(py mkfs.json 'd["image_size"]')" "$(stat -c %s ours.sqfs)" "mkfs.squashfs: image_size is the file size written"
is "$(py mkfs.json 'd["bytes_used"]')" "$(sb_bytes_used ours.sqfs)" "mkfs.squashfs: bytes_used is the superblock's"
is "$(py mkfs.json 'd["compressor_options"]["dict"], type(d["compressor_options"]["level"]).__name__')" \
	"(65536, 'int')" "mkfs.squashfs: compressor options are typed members"
for c in gzip lzo lz4 zstd; do
	mkfs.squashfs --json -q -c "$c" src "$c.sqfs" > "mkfs-$c.json"
	valid "mkfs.squashfs ($c)" "$S/mkfs.squashfs.schema.json" "mkfs-$c.json"
done
broken "mkfs.squashfs: options as one string" "$S/mkfs.squashfs.schema.json" mkfs.json \
	'd["compressor_options"] = "level=9,dict=65536"'
broken "mkfs.squashfs: image_size as a string" "$S/mkfs.squashfs.schema.json" mkfs.json \
	'd["image_size"] = str(d["image_size"])'
broken "mkfs.squashfs: no schema key" "$S/mkfs.squashfs.schema.json" mkfs.json 'del d["schema"]'

# --- flashfs info --json: SquashFS from both writers -----------------------
mksquashfs src theirs.sqfs -noappend -quiet -no-progress -comp xz -Xdict-size 65536 -no-exports > /dev/null
for img in ours.sqfs theirs.sqfs; do
	flashfs info --json "$img" > "info-$img.json"
	valid "info $img" "$S/info.schema.json" "info-$img.json"
	is "$(py "info-$img.json" 'd["image_size"]')" "$(stat -c %s "$img")" "info $img: image_size is the file size"
	is "$(py "info-$img.json" 'd["squashfs"]["bytes_used"]')" "$(unsq "$img" 'Filesystem size' | cut -d' ' -f1)" \
		"info $img: bytes_used as unsquashfs -s"
	is "$(py "info-$img.json" 'd["squashfs"]["compressor_options"]["dict"]')" "$(unsq "$img" '\tDictionary size')" \
		"info $img: the stored dictionary as unsquashfs -s"
	is "$(py "info-$img.json" 'd["squashfs"]["inodes"], d["squashfs"]["fragments"]')" \
		"($(unsq "$img" 'Number of inodes'), $(unsq "$img" 'Number of fragments'))" "info $img: counts as unsquashfs -s"
	if unsquashfs -s "$img" | grep -q '^Filesystem is exportable'; then want=True; else want=False; fi
	is "$(py "info-$img.json" '"exportable" in d["squashfs"]["flags"]')" \
		"$want" "info $img: flags lists exportable as unsquashfs -s says"
	# one key for each fact (flashfs-info/2): no created beside mod_time, no
	# exportable beside flags
	is "$(py "info-$img.json" 'sorted(k for k in ("created", "exportable") if k in d["squashfs"])')" \
		"[]" "info $img: no duplicated keys"
	is "$(py "info-$img.json" 'd["squashfs"]["mod_time"]')" \
		"$(date -u -d "$(unsq "$img" 'Creation or last append time')" +%s)" \
		"info $img: mod_time as unsquashfs -s' creation time"
done
is "$(py info-theirs.sqfs.json 'type(d["squashfs"]["flags"]).__name__, "exportable" in d["squashfs"]["flags"]')" \
	"('list', False)" "info: flags is an array, without exportable for -no-exports"
# a compressed container: image_size is the file's, the container is named
xz -k -c ours.sqfs > ours.sqfs.xz
flashfs info --json ours.sqfs.xz > info-xz.json
valid "info (xz container)" "$S/info.schema.json" info-xz.json
is "$(py info-xz.json 'd["image_size"], d["container"], d["decompressed_size"]')" \
	"($(stat -c %s ours.sqfs.xz), 'xz', $(stat -c %s ours.sqfs))" \
	"info xz: image_size the file's, container xz, decompressed_size the image's"
is "$(py info-ours.sqfs.json '"container" in d')" False "info plain: no container key"
is "$(flashfs info ours.sqfs | sed -n 's/^mod_time  *//p')" \
	"$(date -u -d @"$(py info-ours.sqfs.json 'd["squashfs"]["mod_time"]')" +%Y-%m-%dT%H:%M:%SZ)" \
	"info text: mod_time shown as an ISO 8601 date"
mksquashfs src plain.sqfs -noappend -quiet -no-progress > /dev/null
flashfs info --json plain.sqfs > info-plain.json
valid "info (gzip, no options block)" "$S/info.schema.json" info-plain.json
is "$(py info-plain.json 'd["squashfs"]["compressor_options"]')" None "info: no options block is null"
broken "info: flags as a comma string" "$S/info.schema.json" info-ours.sqfs.json \
	'd["squashfs"]["flags"] = ",".join(d["squashfs"]["flags"])'
broken "info: the old exportable key" "$S/info.schema.json" info-ours.sqfs.json 'd["squashfs"]["exportable"] = True'
broken "info: the old created key" "$S/info.schema.json" info-ours.sqfs.json 'd["squashfs"]["created"] = "1970-01-01T00:00:00Z"'
broken "info: container not a known name" "$S/info.schema.json" info-xz.json 'd["container"] = "rar"'
broken "info: compressor options as one string" "$S/info.schema.json" info-ours.sqfs.json \
	'd["squashfs"]["compressor_options"] = "dict=65536"'
broken "info: a squashfs image without its squashfs part" "$S/info.schema.json" info-ours.sqfs.json 'del d["squashfs"]'

# --- flashfs ls --json: records against the source tree --------------------
flashfs ls -R --json theirs.sqfs > ls.json
valid "ls -R theirs.sqfs" "$S/ls.schema.json" ls.json
ok "ls: every record matches the source's lstat" python3 - ls.json src <<'PY'
import json, os, stat, sys
d = json.load(open(sys.argv[1])); src = sys.argv[2]
types = {stat.S_IFREG: "file", stat.S_IFDIR: "directory", stat.S_IFLNK: "symlink",
         stat.S_IFBLK: "block-device", stat.S_IFCHR: "char-device", stat.S_IFIFO: "fifo"}
want = set()
for root, dirs, files in os.walk(src):
    for n in dirs + files:
        want.add(os.path.join(root, n)[len(src):])
got = {e["path"] for e in d["entries"]}
assert got == want, (sorted(got ^ want))
for e in d["entries"]:
    st = os.lstat(src + e["path"])
    assert e["type"] == types[stat.S_IFMT(st.st_mode)], e
    assert e["mode"] == stat.S_IMODE(st.st_mode), e
    assert (e["uid"], e["gid"], e["mtime"]) == (st.st_uid, st.st_gid, int(st.st_mtime)), e
    if e["type"] in ("file", "symlink"):
        assert e["size"] == st.st_size, e
    assert e["target"] == (os.readlink(src + e["path"]) if e["type"] == "symlink" else None), e
    if e["type"].endswith("-device"):
        assert e["rdev"] == {"major": os.major(st.st_rdev), "minor": os.minor(st.st_rdev)}, e
    else:
        assert e["rdev"] is None, e
PY
broken "ls: mode as an octal string" "$S/ls.schema.json" ls.json 'd["entries"][0]["mode"] = "0755"'
broken "ls: a relative path" "$S/ls.schema.json" ls.json 'd["entries"][0]["path"] = "a"'

# --- flashfs check --json ---------------------------------------------------
flashfs check --json theirs.sqfs > check.json
valid "check (clean)" "$S/check.schema.json" check.json
is "$(py check.json 'd["verdict"], d["problem_count"]')" "('clean', 0)" "check: a clean verdict"
cp ours.sqfs bad.sqfs
off=$(python3 -c 'import struct,sys; print(96 + 40)')  # inside the first data block
printf 'XXXXXXXX' | dd of=bad.sqfs bs=1 seek="$off" conv=notrunc 2> /dev/null
flashfs check --json bad.sqfs > check-bad.json
rc=$?
valid "check (damaged)" "$S/check.schema.json" check-bad.json
is "$rc $(py check-bad.json 'd["verdict"], d["problem_count"] == len(d["problems"]) > 0')" "1 ('damaged', True)" \
	"check: damaged verdict with exit 1 and a record per problem"
is "$(py check-bad.json 'all(type(n) is int for p in d["problems"] for n in p["numbers"]), d["problems"][0]["where"] is not None')" \
	"(True, True)" "check: records have a place and integer numbers"
head -c 1000 ours.sqfs > trunc.sqfs
flashfs check --json trunc.sqfs > check-trunc.json 2> /dev/null
rc=$?
valid "check (unreadable)" "$S/check.schema.json" check-trunc.json
is "$rc $(py check-trunc.json 'd["verdict"]')" "2 unreadable" "check: an unreadable image gives a verdict too"
broken "check: clean with problems" "$S/check.schema.json" check-bad.json 'd["verdict"] = "clean"'

# --- YAFFS2 -----------------------------------------------------------------
mkfs.yaffs2 --json -q src y.img > mkfs-y.json
valid "mkfs.yaffs2" "$S/mkfs.yaffs2.schema.json" mkfs-y.json
is "$(py mkfs-y.json 'd["image_size"]')" "$(stat -c %s y.img)" "mkfs.yaffs2: image_size is the file size written"
mkfs.yaffs2 --json -q -z xz src y.img.xz > mkfs-yz.json
valid "mkfs.yaffs2 -z xz" "$S/mkfs.yaffs2.schema.json" mkfs-yz.json
is "$(py mkfs-yz.json 'd["image_size"], d["nand_bytes"]')" "($(stat -c %s y.img.xz), $(stat -c %s y.img))" \
	"mkfs.yaffs2 -z: image_size is the stream's size, nand_bytes the pages'"
flashfs info --json y.img > info-y.json
valid "info yaffs2" "$S/info.schema.json" info-y.json
is "$(py info-y.json 'd["image_size"], d["yaffs2"]["tags_ecc"]')" "($(stat -c %s y.img), True)" \
	"info yaffs2: image_size the file size, tags_ecc a boolean"
is "$(py info-y.json 'd["yaffs2"]["objects"]')" "$(($(find src -mindepth 1 | wc -l) - 1))" \
	"info yaffs2: objects counts all but the root and lost+found"
flashfs ls -R --json y.img > ls-y.json
valid "ls -R yaffs2" "$S/ls.schema.json" ls-y.json
flashfs check --json y.img > check-y.json
valid "check yaffs2" "$S/check.schema.json" check-y.json
broken "mkfs.yaffs2: inband_fallback as \"no\"" "$S/mkfs.yaffs2.schema.json" mkfs-y.json 'd["inband_fallback"] = "no"'
broken "info yaffs2: tags_ecc as \"yes\"" "$S/info.schema.json" info-y.json 'd["yaffs2"]["tags_ecc"] = "yes"'

# --- UBI ----------------------------------------------------------------------
mkfs.ubi -o ours.ubi -p 128KiB -m 2048 --squashfs src > /dev/null
flashfs info --json ours.ubi > info-ubi.json
valid "info mkfs.ubi image" "$S/info.schema.json" info-ubi.json
is "$(py info-ubi.json 'd["image_size"], d["ubi"]["peb_size"], d["ubi"]["volume_format"], "squashfs" in d')" \
	"($(stat -c %s ours.ubi), 131072, 'squashfs', True)" "info ubi: the UBI part and the volume's"
# the same as a raw NAND dump (pages of 2048 + 64 bytes of OOB)
python3 "$FF_TOP/tests/tools/ubi_edit.py" ours.ubi 131072 nand-dump ours.nand 2048 64
flashfs info --json ours.nand > info-nand.json
valid "info raw NAND dump of a UBI image" "$S/info.schema.json" info-nand.json
is "$(py info-nand.json 'd["ubi"]["nand_page_size"], d["ubi"]["nand_oob_size"], d["ubi"]["nand_bad_blocks"]')" \
	"(2048, 64, 0)" "info NAND dump: the page and OOB sizes as integers"
if command -v ubinize > /dev/null; then
	cat > u.ini <<'INI'
[rootfs]
mode=ubi
image=theirs.sqfs
vol_id=0
vol_size=1MiB
vol_name=rootfs
vol_flags=autoresize
[data]
mode=ubi
image=y.img
vol_id=1
vol_type=static
vol_name=data
INI
	ubinize -o theirs.ubi -p 128KiB -m 2048 u.ini > /dev/null 2>&1
	for v in rootfs data; do
		flashfs info --json --volume "$v" theirs.ubi > "info-ubi-$v.json"
		valid "info ubinize image, volume $v" "$S/info.schema.json" "info-ubi-$v.json"
		flashfs ls -R --json --volume "$v" theirs.ubi > "ls-ubi-$v.json"
		valid "ls ubinize image, volume $v" "$S/ls.schema.json" "ls-ubi-$v.json"
		flashfs check --json --volume "$v" theirs.ubi > "check-ubi-$v.json"
		valid "check ubinize image, volume $v" "$S/check.schema.json" "check-ubi-$v.json"
	done
	is "$(py info-ubi-data.json '[(v["name"], v["flags"], v["crc_ok"]) for v in d["ubi"]["volumes"]], "yaffs2" in d')" \
		"([('rootfs', ['autoresize'], None), ('data', [], True)], True)" "info ubi: volumes as typed records"
	broken "info ubi: crc_ok as \"ok\"" "$S/info.schema.json" info-ubi-data.json 'd["ubi"]["volumes"][1]["crc_ok"] = "ok"'
else
	skip "ubinize (mtd-utils) not installed" "UBI images from ubinize"
fi

# --- flashfs bench --json ------------------------------------------------------
flashfs bench -q --min-time 0 --repeats 1 -c lz4 -b 128K --json bench.json src > /dev/null 2>&1
valid "bench" "$S/bench.schema.json" bench.json
is "$(py bench.json 'd["results"][0]["compressor_options"]')" "{'hc': False}" "bench: compressor options are typed members"
broken "bench: another schema version" "$S/bench.schema.json" bench.json 'd["schema"] = "flashfs-bench/1"'
broken "bench: compressor options as one string" "$S/bench.schema.json" bench.json \
	'd["results"][0]["compressor_options"] = d["results"][0]["options"]'
flashfs bench -q --self-check --min-time 0 --repeats 1 -c lz4 -b 128K --json bench-sc.json src > /dev/null 2>&1
valid "bench --self-check" "$S/bench.schema.json" bench-sc.json
is "$(py bench-sc.json 'sorted(d["results"][0]["self_check"]), type(d["results"][0]["self_check"]["comp"]["rounds"]).__name__')" \
	"(['band', 'comp', 'comp_deviation', 'comp_direct_mbps', 'decomp', 'decomp_deviation', 'decomp_direct_mbps', 'differs_factor', 'kernel'], 'int')" \
	"bench: self_check has both phases' paired figures and the kernel mount, rounds an integer"
broken "bench: self-check verdict in capitals" "$S/bench.schema.json" bench-sc.json \
	'd["results"][0]["self_check"]["comp"]["verdict"] = "DIFFERS"'
broken "bench: self-check interval as one string" "$S/bench.schema.json" bench-sc.json \
	'd["results"][0]["self_check"]["decomp"]["ratio_low"] = "0.95..1.05"'

# the flash file systems' rows (UBIFS, JFFS2: 4 KiB, codec none, unpadded sizes)
flashfs bench -q --min-time 0 --repeats 1 -c zstd -c none --fs ubifs,jffs2 --json bench-flash.json \
	src > /dev/null 2>&1
valid "bench: UBIFS and JFFS2 rows" "$S/bench.schema.json" bench-flash.json
broken "bench: a storage kind not in the enum" "$S/bench.schema.json" bench-flash.json \
	'd["settings"]["flash_type"] = "tape"'

# every schema file is itself a valid 2020-12 schema naming its version
for f in "$S"/*.schema.json; do
	ok "$(basename "$f"): a 2020-12 schema with a /N version" python3 -c '
import json, re, sys, jsonschema
s = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(s)
assert s["$schema"].endswith("2020-12/schema")
v = s["properties"]["schema"]["const"]
assert re.fullmatch(r"[a-z0-9.-]+/[1-9][0-9]*", v)' "$f"
done
done_testing
