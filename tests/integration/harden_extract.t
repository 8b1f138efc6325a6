#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Extraction traversal: images crafted so that a naive extractor would write
# outside its target directory — duplicate names where a symlink (absolute,
# or a chain of links) is followed by a directory of the same name holding
# a file and a hard link, names containing '/' or '..', and PATH arguments
# through symlinks.  `flashfs extract` must refuse (exit 1 with a message)
# and write nothing outside the target.  Names that collide after case
# folding must be warned about.
#
# The images are made by mksquashfs with uncompressed metadata (-noI) and
# then one name in the directory table is rewritten in place (same length),
# which mksquashfs itself would never produce.
. "$(dirname "$0")/../lib.sh"

command -v flashfs > /dev/null || skip_all "flashfs not built"
command -v mksquashfs > /dev/null || skip_all "mksquashfs not installed"

# craft NAME OLD=NEW... — build $T/src into $T/NAME.img, then rename
# directory entries (each OLD must occur once in the image).
craft() {
	local name=$1
	shift
	mksquashfs "$T/src" "$T/$name.img" -noI -comp gzip -quiet -no-progress \
		> /dev/null || return 1
	python3 - "$T/$name.img" "$@" <<'PY'
import sys
path, pairs = sys.argv[1], sys.argv[2:]
d = bytearray(open(path, "rb").read())
for p in pairs:
    old, new = (s.encode() for s in p.split("=", 1))
    assert len(old) == len(new), p
    at = d.find(old)
    assert at >= 0 and d.find(old, at + 1) < 0, "%s: found %d times" % (old, d.count(old))
    d[at:at + len(old)] = new
open(path, "wb").write(d)
PY
}

# extract_safely NAME [PATH...] — extract $T/NAME.img into $T/out/x; must
# exit 1 or 2 with a message, and leave $T/outside* and $T/out untouched
# apart from x.
extract_safely() {
	local name=$1 out rc escaped
	shift
	rm -rf "$T/out"
	mkdir -p "$T/out"
	out=$(flashfs extract --no-progress -C "$T/out/x" "$T/$name.img" "$@" 2>&1)
	rc=$?
	escaped=$(find "$T"/outside* "$T/out" -mindepth 1 -not -path "$T/out/x" \
		-not -path "$T/out/x/*" 2> /dev/null)
	if [ -n "$escaped" ]; then
		echo "written outside the target: $escaped"
		return 1
	fi
	if [ $rc -ne 1 ] && [ $rc -ne 2 ]; then
		echo "exit $rc (want 1 or 2): $out"
		return 1
	fi
	case $out in
	*refus* | *outside* | *symlink* | *invalid* | *unsafe*) return 0 ;;
	*) echo "no refusal message: $out"; return 1 ;;
	esac
}

new_src() {
	rm -rf "$T/src" "$T"/outside*
	mkdir -p "$T/src" "$T/outside"
}

# 1. absolute symlink "aaa" -> $T/outside, then a directory also named
#    "aaa" holding a file and a hard link.
new_src
ln -s "$T/outside" "$T/src/aaa"
mkdir "$T/src/bbb"
printf 'evil\n' > "$T/src/bbb/evil"
printf 'linked\n' > "$T/src/zzz"
ln "$T/src/zzz" "$T/src/bbb/hardlink"
ok "crafted: absolute symlink then a same-named directory" craft dup-abs bbb=aaa
ok "extract refuses the directory behind an absolute symlink" extract_safely dup-abs
ok "the absolute symlink itself is extracted as a link" \
	test "$(readlink "$T/out/x/aaa")" = "$T/outside"
ok "unrelated files still extracted" test "$(cat "$T/out/x/zzz")" = linked

# 2. a chain: "aaa" -> "ccc" -> $T/outside2 (the second link named after the
#    first), then the directory renamed to "aaa".
new_src
mkdir -p "$T/outside2"
ln -s ccc "$T/src/aaa"
ln -s "$T/outside2" "$T/src/ccc"
mkdir "$T/src/bbb"
printf 'evil\n' > "$T/src/bbb/evil"
ok "crafted: symlink chain then a same-named directory" craft dup-chain bbb=aaa
ok "extract refuses writing through a symlink chain" extract_safely dup-chain

# 3. a relative symlink that climbs out ("up" -> ../..), then a directory
#    of that name.
new_src
ln -s ../.. "$T/src/upp"
mkdir "$T/src/uqq"
printf 'evil\n' > "$T/src/uqq/escaped"
ok "crafted: ../.. symlink then a same-named directory" craft dup-up uqq=upp
ok "extract refuses writing through a ../.. symlink" extract_safely dup-up

# 4. names with '/' and '..' that point above the target.
new_src
printf 'evil\n' > "$T/src/dd_evil"

ok "crafted: an entry named ../evil" craft bad-names dd_evil=../evil
ok "extract refuses an entry named ../evil" extract_safely bad-names

new_src
ln -s "$T/outside" "$T/src/ss"
printf 'evil\n' > "$T/src/ss_evil"
ok "crafted: symlink ss and an entry named ss/evil" craft slash ss_evil=ss/evil
ok "extract refuses an entry whose name contains a slash" extract_safely slash

new_src
mkdir "$T/src/sub"
printf 'evil\n' > "$T/src/sub/zz"
ok "crafted: an entry named .." craft dots zz=..
ok "extract refuses an entry named .." extract_safely dots

# 5. an extraction PATH through a symlink.
new_src
mkdir -p "$T/src/real"
printf 'data\n' > "$T/outside/victim"
ln -s "$T/outside" "$T/src/link"
printf 'in image\n' > "$T/src/real/victim"
mksquashfs "$T/src" "$T/pathlink.img" -quiet -no-progress > /dev/null
rm -rf "$T/out"
mkdir -p "$T/out"
out=$(flashfs extract --no-progress -C "$T/out/x" "$T/pathlink.img" link/victim 2>&1)
rc=$?
ok "extract PATH through a symlink fails with a message (exit $rc)" \
	test \( $rc -eq 1 -o $rc -eq 2 \) -a -n "$out"
ok "extract PATH of a real file works (so the refusal above is about the link)" \
	flashfs extract --no-progress -C "$T/out/y" "$T/pathlink.img" real/victim
is "$(cat "$T/outside/victim")" data "extract PATH through a symlink leaves the outside file alone"

# 6. names that collide after case folding: a warning naming the image, the
#    directory and both names, once per name, where the target may ignore
#    case or with --warn-case (not on a case-sensitive target); on a target that ignores
#    case the second name is an "exists" error, even with --force, and a
#    directory is not merged into its case twin.
new_src
mkdir -p "$T/src/sub" "$T/src/Dir" "$T/src/dir"
printf 'upper\n' > "$T/src/README"
printf 'lower\n' > "$T/src/readme"
printf 'other\n' > "$T/src/unique"
printf 'e1\n' > "$T/src/sub/$(printf '\xc3\x89')t$(printf '\xc3\xa9')"     # Été
printf 'e2\n' > "$T/src/sub/$(printf '\xc3\xa9')t$(printf '\xc3\xa9')"     # été
printf 'k1\n' > "$T/src/sub/K"
printf 'k2\n' > "$T/src/sub/$(printf '\xe2\x84\xaa')"                      # KELVIN SIGN
printf 'f\n' > "$T/src/Dir/f"
printf 'g\n' > "$T/src/dir/g"
mksquashfs "$T/src" "$T/case.img" -quiet -no-progress -all-root > /dev/null
rm -rf "$T/out"
mkdir -p "$T/out"
flashfs extract --no-progress -C "$T/out/x" "$T/case.img" > "$T/case.out" 2>&1
rc=$?
is "$rc" 0 "case-colliding names extract on a case-sensitive target"
ok "... without a warning: this target tells case apart" \
	sh -c "! grep -q 'same name when case is ignored' '$T/case.out'"
rm -rf "$T/out/x"
flashfs extract --no-progress --warn-case -C "$T/out/x" "$T/case.img" > "$T/case.out" 2>&1
is "$?" 0 "--warn-case: the same extraction, with warnings"
ok "both case-colliding files kept" test "$(cat "$T/out/x/README" "$T/out/x/readme" 2> /dev/null)" = "upper
lower"
warned() {
	grep -qF "warning: $T/case.img: $1: \"$2\" and \"$3\" are the same name when case is ignored" \
		"$T/case.out"
}
ok "warns about README/readme naming image, directory and both names" warned / README readme
ok "warns about directories Dir/dir" warned / Dir dir
ok "UTF-8 folding: warns about Été/été" warned sub "$(printf '\xc3\x89t\xc3\xa9')" "$(printf '\xc3\xa9t\xc3\xa9')"
ok "UTF-8 folding: warns about K/KELVIN SIGN" warned sub K "$(printf '\xe2\x84\xaa')"
is "$(grep -c 'same name when case is ignored' "$T/case.out")" 4 "one warning per colliding pair, none for unique names"

# A target that ignores case: a vfat image, mounted by the kernel or,
# where the kernel has no vfat (containers), by fusefat.
if [ "$(id -u)" != 0 ] || ! command -v mkfs.vfat > /dev/null; then
	skip "needs root and mkfs.vfat (dosfstools)" "case collisions on a case-insensitive target"
elif ! vfat_mount "$T/vfat.img" "$T/ci" 16M; then
	skip "no vfat here: the kernel has no vfat module and fusefat is missing or cannot mount" \
		"case collisions on a case-insensitive target"
else
	probe=$T/ci/probe
	echo x > "$probe"
	ok "the vfat mount ignores case (test premise)" test -e "$T/ci/PROBE"
	rm -f "$probe"
	for force in "" --force; do
		what="vfat${force:+ $force}"
		out=$(flashfs extract --no-progress $force -C "$T/ci/x" "$T/case.img" 2>&1)
		rc=$?
		is "$rc" 1 "$what: the second name is an error (exit 1)"
		ok "$what: the error names readme and README" \
			grep -qF "case.img: readme: already exists as \"README\"" <<< "$out"
		is "$(cat "$T/ci/x/README")" upper "$what: README is not overwritten by readme"
		ok "$what: the error names dir and Dir" \
			grep -qF "case.img: dir: already exists as \"Dir\"" <<< "$out"
		is "$(ls "$T/ci/x/Dir" | tr '\n' ' ')" "f " "$what: dir/ is not merged into Dir/"
		is "$(cat "$T/ci/x/unique")" other "$what: other files extracted"
	done
	is "$(ls "$T/ci" | tr '\n' ' ')" "x " "vfat: nothing written outside the target"
	umount "$T/ci" 2> /dev/null || fusermount3 -u "$T/ci"
fi
done_testing
