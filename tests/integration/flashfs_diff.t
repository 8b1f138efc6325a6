#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# flashfs diff.  Oracle: squashfs-tools-ng's sqfsdiff on pairs of mksquashfs
# images whose sources differ in exactly one attribute each, compared like
# for like (sqfsdiff -T against our default, which compares mtimes; plain
# sqfsdiff against --no-times).  sqfsdiff 1.2.0 prints a changed symlink
# target but exits 0, so its verdict is "different" when it exits 1 or
# prints a report; it does not compare xattrs, so the xattr pair is checked
# against getfattr on kernel mounts of the two images instead.  Then images
# against their source directories (SquashFS by mksquashfs, YAFFS2, UBI by
# ubinize and mkfs.ubi), --json against docs/schemas/diff.schema.json, and
# bad input.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/yaffs2_lib.sh"
need_root
command -v mksquashfs > /dev/null || skip_all "mksquashfs not installed"
command -v sqfsdiff > /dev/null || skip_all "sqfsdiff (squashfs-tools-ng) not installed"
SCHEMA=$FF_TOP/docs/schemas/diff.schema.json

cd "$T" || exit 2
stamp() { find "$1" -exec touch -h -d @1600000000 {} +; }
mkdir base base/d
printf 'hello world\n' > base/f
echo g > base/d/g
ln -s f base/l
mknod base/c c 1 3
mkfifo base/p
echo x > base/x
setfattr -n user.a -v 1 base/x
echo k > base/k
ln base/k base/kl
stamp base
mksquashfs base A.sqfs -noappend -quiet -no-progress > /dev/null

# sqfsdiff's verdict: 1 when it exits 1 or prints a difference, else its exit
sqfs_verdict() {
	local out rc
	out=$(sqfsdiff "$@" 2>&1)
	rc=$?
	[ "$rc" -eq 0 ] && [ -n "$out" ] && rc=1
	echo "$rc"
}

# "path:kind:attr,attr ..." for each record of a --json report
summary() {
	python3 -c '
import json, sys
d = json.load(sys.stdin)
print(" ".join("%s:%s:%s" % (e["path"], e["kind"], ",".join(c["attribute"] for c in e.get("changes", [])))
               for e in d["differences"]))'
}

# pair NAME WANT_SUMMARY COMMAND — B.sqfs from a copy of base changed by
# COMMAND (run inside it); WANT_SUMMARY is what flashfs diff must report.
pair() {
	local name=$1 want=$2 cmd=$3 ours theirs blind=
	rm -rf v && cp -a base v && (cd v && eval "$cmd") && stamp v
	[ "$name" = mtime ] && touch -d @1600000001 v/f
	[ "$name" = xattr ] && blind=--no-xattrs # sqfsdiff does not look at them
	mksquashfs v B.sqfs -noappend -quiet -no-progress > /dev/null
	flashfs diff $blind A.sqfs B.sqfs > /dev/null 2>&1
	ours=$?
	theirs=$(sqfs_verdict -T --old A.sqfs --new B.sqfs)
	is "$ours" "$theirs" "$name: flashfs diff $blind and sqfsdiff -T agree (both $theirs)"
	flashfs diff --no-times $blind A.sqfs B.sqfs > /dev/null 2>&1
	ours=$?
	theirs=$(sqfs_verdict --old A.sqfs --new B.sqfs)
	is "$ours" "$theirs" "$name: flashfs diff --no-times $blind and sqfsdiff agree (both $theirs)"
	is "$(flashfs diff --json A.sqfs B.sqfs | summary)" "$want" "$name: reported as '$want'"
}

pair same "" "true"
pair mode "/f:changed:mode" "chmod 600 f"
pair uid "/f:changed:uid" "chown 1000 f"
pair gid "/f:changed:gid" "chgrp 1000 f"
pair mtime "/f:changed:mtime" "true"
pair content "/f:changed:contents" "printf 'hello worle\n' > f"
pair size "/f:changed:size" "echo more >> f"
pair target "/l:changed:target" "ln -sfn d l"
pair rdev "/c:changed:rdev" "rm c && mknod c c 1 5"
pair xattr "/x:changed:xattr" "setfattr -n user.a -v 2 x"
pair added "/n:added:" "echo n > n"
pair removed "/p:removed:" "rm p"
pair type "/p:changed:type" "rm p && touch p"
pair hardlink "/kl:changed:link" "rm kl && cp -p k kl"

# the xattr pair's B.sqfs is gone; rebuild it and ask the kernel
rm -rf v && cp -a base v && setfattr -n user.a -v 2 v/x && stamp v
mksquashfs v B.sqfs -noappend -quiet -no-progress > /dev/null
mkdir ma mb
if mount -o loop,ro A.sqfs ma 2> /dev/null && mount -o loop,ro B.sqfs mb 2> /dev/null; then
	ok "xattr pair: the kernel sees different user.a values" \
		test "$(getfattr -n user.a --only-values ma/x)" != "$(getfattr -n user.a --only-values mb/x)"
	ok "xattr pair: flashfs diff of the two mounts reports the same" \
		test "$(flashfs diff --json ma mb | summary)" = "/x:changed:xattr"
	umount ma mb
else
	umount ma 2> /dev/null
	skip "loop mount failed" "xattr pair: kernel oracle"
	skip "loop mount failed" "xattr pair: mounts compared"
fi

# sqfsdiff's ignore options mean the same here
rm -rf v && cp -a base v && chmod 600 v/f && chown 1000:1000 v/k && printf 'hello worle\n' > v/x && stamp v
setfattr -n user.a -v 1 v/x
mksquashfs v B.sqfs -noappend -quiet -no-progress > /dev/null
for ign in "-P -O -C" "-P -O" "-P -C" "-O -C"; do
	# shellcheck disable=SC2086
	flashfs diff $ign A.sqfs B.sqfs > /dev/null 2>&1
	# shellcheck disable=SC2086
	is "$?" "$(sqfs_verdict $ign --old A.sqfs --new B.sqfs)" "ignoring $ign: flashfs diff and sqfsdiff agree"
done

# our writer against mksquashfs, then images against their sources
mkfs.squashfs base O.sqfs > /dev/null
ok "mkfs.squashfs and mksquashfs images of one tree: same" flashfs diff A.sqfs O.sqfs
is "$(sqfs_verdict -T --old A.sqfs --new O.sqfs)" 0 "... as sqfsdiff -T says"
make_kinds_tree src
mksquashfs src k.sqfs -noappend -quiet -no-progress > /dev/null
ok "SquashFS image against its source directory: same" flashfs diff k.sqfs src
ok "... and the other way round" flashfs diff src k.sqfs
cp -a src src2 && chmod 700 src2/dir/sub && touch -d @1600000000 src2/dir/sub
is "$(flashfs diff --json k.sqfs src2 | summary)" "/dir/sub:changed:mode" "a changed source directory: the change"
mkfs.yaffs2 src k.yaffs2 > /dev/null
ok "YAFFS2 image against its source directory: same" flashfs diff k.yaffs2 src
ok "YAFFS2 image against the SquashFS image: same" flashfs diff k.yaffs2 k.sqfs
mkfs.yaffs2 src2 k2.yaffs2 > /dev/null
is "$(flashfs diff --json k2.yaffs2 src | summary)" "/dir/sub:changed:mode" "YAFFS2 image of the changed tree: the change"
if command -v ubinize > /dev/null; then
	printf '[rootfs]\nmode=ubi\nimage=k.sqfs\nvol_id=0\nvol_name=rootfs\n' > u.ini
	ubinize -o k.ubi -p 128KiB -m 2048 u.ini > /dev/null 2>&1
	ok "ubinize's UBI image against the SquashFS image: same" flashfs diff k.ubi k.sqfs
	ok "... and against the source directory" flashfs diff k.ubi src
else
	skip "ubinize (mtd-utils) not installed" "ubinize's UBI image against the SquashFS image"
	skip "ubinize (mtd-utils) not installed" "... and against the source directory"
fi
mkfs.ubi -o m.ubi -p 128KiB -m 2048 --squashfs src2 > /dev/null
is "$(flashfs diff --json k.sqfs m.ubi | summary)" "/dir/sub:changed:mode" "mkfs.ubi --squashfs of the changed tree: the change"
# one volume per side (A/B firmware): IMAGE:VOLUME, --volume-a/--volume-b
mkfs.squashfs -q -noappend src2 k2.sqfs
printf '[a]\nmode=ubi\nimage=k.sqfs\nvol_id=0\nvol_name=rootfs_a\n[b]\nmode=ubi\nimage=k2.sqfs\nvol_id=1\nvol_name=rootfs_b\n' > ab.ini
ubinize -o ab.ubi -p 128KiB -m 2048 ab.ini > /dev/null 2>&1
is "$(flashfs diff --json ab.ubi:rootfs_a ab.ubi:rootfs_b | summary)" "/dir/sub:changed:mode" \
	"IMAGE:rootfs_a IMAGE:rootfs_b: the change between the volumes"
ok "IMAGE:rootfs_a against its own SquashFS image: same" flashfs diff ab.ubi:rootfs_a k.sqfs
ok "IMAGE:1 (an ID) against the changed source: same" flashfs diff ab.ubi:1 src2
is "$(flashfs diff --json --volume-a rootfs_a --volume-b rootfs_b ab.ubi ab.ubi | summary)" \
	"/dir/sub:changed:mode" "--volume-a/--volume-b: the same change"
ok "--volume-b alone, --volume for the other side" \
	flashfs diff --volume rootfs_b --volume-a 1 ab.ubi ab.ubi
flashfs diff ab.ubi:nosuch src > /dev/null 2> ab.err
is "$?" 2 "IMAGE:VOLUME with no such volume: exit 2"
ok "... the volume is named" grep -q nosuch ab.err
cp k.sqfs 'odd:name'
ok "a file whose name has a colon opens as it is" flashfs diff 'odd:name' k.sqfs
{ head -c 8192 /dev/zero; cat k.sqfs; } > blob
ok "--offset: an image inside a blob against its source: same" flashfs diff --offset 8192 blob src

# --json and -q
flashfs diff --json src base > d.json
is "$?" 1 "--json: exit 1 when different"
ok "--json: parses" python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["schema"] == "flashfs-diff/1" and not d["equal"] and d["differences"]' d.json
flashfs diff --json k.sqfs src > e.json
ok "--json: equal trees" python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["equal"] and d["differences"] == [] and d["new"]["format"] == "directory"' e.json
rm -rf v && cp -a src v && printf 'hello yaffs3\n' > v/small.txt && setfattr -n user.comment -v changed v/small.txt &&
	setfattr -x user.bin v/dir && rm v/chr && mknod v/chr c 1 4 && ln -sfn dir v/link && rm v/fifo && mkdir v/fifo &&
	rm v/dir/sub/hard2 && echo hard2 > v/dir/sub/hard2 && chown 7:8 v/zeros.bin &&
	chmod 600 v/zeros.bin && rm v/empty.txt && echo new > v/new
flashfs diff --json src v > f.json
if python3 -c 'import jsonschema' 2> /dev/null; then
	for j in d.json e.json f.json; do
		ok "--json: $j valid against diff.schema.json" python3 -c '
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))' "$j" "$SCHEMA"
	done
else
	for j in d.json e.json f.json; do skip "python3-jsonschema not installed" "--json: $j against the schema"; done
fi
out=$(flashfs diff -q src v)
is "$?:$out" "1:" "-q: exit 1 and nothing printed"
out=$(flashfs diff -q k.sqfs src)
is "$?:$out" "0:" "-q: exit 0 when the same"

# bad input: exit 2, the file named, nothing on stdout
flashfs diff A.sqfs missing.sqfs > out 2> err
is "$?:$(cat out)" "2:" "missing file: exit 2, no output"
ok "missing file: named" grep -q "missing.sqfs: No such file" err
head -c 65536 /dev/urandom > garbage.img
flashfs diff garbage.img A.sqfs > out 2> err
is "$?:$(cat out)" "2:" "garbage image: exit 2, no output"
ok "garbage image: named" grep -q "^flashfs diff: garbage.img: not a" err
mkdir dm && seq 1 100000 > dm/aaa && echo z > dm/zzz
mksquashfs dm dm.sqfs -noappend -quiet -no-progress > /dev/null
cp dm.sqfs dmbad.sqfs
printf 'XXXXXXXXXXXXXXXX' | dd of=dmbad.sqfs bs=1 seek=300 conv=notrunc 2> /dev/null
chmod 700 dm # a difference reported before the damage is met
flashfs diff dmbad.sqfs dm > out 2> err
is "$?:$(cat out)" "2:" "damaged file data: exit 2, no partial report"
ok "damaged file data: the image and the file named" grep -q "^flashfs diff: dmbad.sqfs: /aaa: reading: " err
flashfs diff A.sqfs > /dev/null 2>&1
is "$?" 2 "one tree only: usage error, exit 2"
flashfs diff --no-such-option A.sqfs A.sqfs > /dev/null 2>&1
is "$?" 2 "a bad option: exit 2"
ok "--help: exit 0 and the usage" sh -c "flashfs diff --help | grep -q 'usage: flashfs diff'"

done_testing
