#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# mkfs.ubi ends with a summary as the other mkfs programs do, and --json
# gives it against docs/schemas/mkfs.ubi.schema.json (issue 32 item 6).
# Oracles: ubinize -v's geometry lines for the same options and ini file,
# and the volume table of ubinize's own image (reserved LEBs), stat(1)
# for the image size.
. "$(dirname "$0")/../lib.sh"
command -v ubinize >/dev/null || skip_all "ubinize (mtd-utils) missing"
python3 -c 'import jsonschema; jsonschema.Draft202012Validator' 2>/dev/null ||
	skip_all "python3-jsonschema missing (scripts/install-deps)"
cd "$T" || exit 2

mkdir -p src/etc
seq 1 20000 >src/etc/data
mkfs.squashfs -q -noappend src r.sqfs
printf '[a]\nmode=ubi\nimage=r.sqfs\nvol_id=0\nvol_name=rootfs\nvol_size=1MiB\n[b]\nmode=ubi\nvol_id=3\nvol_name=data\nvol_size=600KiB\nvol_type=dynamic\nvol_flags=autoresize\n' >v.ini
GEOM=(-p 128KiB -m 2048 -Q 1234)
ubinize -v -o theirs.ubi "${GEOM[@]}" v.ini >ubinize.out 2>&1
mkfs.ubi -o ours.ubi "${GEOM[@]}" v.ini >sum.txt
is "$?" 0 "mkfs.ubi: exit 0"
ok "the same bytes as ubinize" cmp ours.ubi theirs.ubi
theirs() { sed -n "s|^ubinize: $1: *||p" ubinize.out | head -1; }
ok "summary: image, size, PEBs and geometry" grep -q \
	"^ours.ubi: UBI, $(stat -c %s ours.ubi) bytes, $(( $(stat -c %s ours.ubi) / 131072 )) PEBs of $(theirs 'PEB size') (LEB $(theirs 'LEB size')), min. I/O $(theirs 'min. I/O size'), sub-page $(theirs 'sub-page size'), image sequence 1234$" sum.txt
ok "summary: a line per volume" grep -q '^  volume 3 "data": dynamic, 614400 bytes in [0-9]* LEBs, 0 bytes of data, autoresize$' sum.txt

mkfs.ubi --json -o ours.ubi "${GEOM[@]}" v.ini >sum.json
ok "--json: valid against the schema" python3 "$FF_TOP/tests/tools/json_validate.py" \
	"$FF_TOP/docs/schemas/mkfs.ubi.schema.json" sum.json
py() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$@"; }
is "$(py sum.json 'd["leb_size"], d["vid_hdr_offset"], d["data_offset"], d["image_seq"]')" \
	"($(theirs 'LEB size'), $(theirs 'VID offset'), $(theirs 'data offset'), 1234)" "--json: geometry as ubinize -v"
is "$(py sum.json 'd["image_size"]')" "$(stat -c %s ours.ubi)" "--json: image_size is the file's"
flashfs info --json theirs.ubi >info.json
is "$(py sum.json '[(v["id"], v["name"], v["lebs"]) for v in d["volumes"]]')" \
	"$(py info.json '[(v["id"], v["name"], v["reserved_lebs"]) for v in d["ubi"]["volumes"]]')" \
	"--json: each volume's LEBs as ubinize's volume table reserves them"
is "$(py sum.json 'd["volumes"][0]["data_size"]')" "$(stat -c %s r.sqfs)" "--json: data_size is the contents'"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["pebs"]="3"; json.dump(d, open("bad.json","w"))' sum.json
fails "the schema rejects pebs as a string" python3 "$FF_TOP/tests/tools/json_validate.py" \
	"$FF_TOP/docs/schemas/mkfs.ubi.schema.json" bad.json
is "$(mkfs.ubi -q -o q.ubi "${GEOM[@]}" v.ini)" "" "-q: nothing on standard output"
mkfs.ubi --json -o sq.ubi "${GEOM[@]}" --squashfs src >sq.json
ok "--json with --squashfs: valid" python3 "$FF_TOP/tests/tools/json_validate.py" \
	"$FF_TOP/docs/schemas/mkfs.ubi.schema.json" sq.json

done_testing
