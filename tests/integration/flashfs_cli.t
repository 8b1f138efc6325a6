#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# The flashfs command line: --help and exit codes of every subcommand,
# info (text and JSON), --offset (global and per command), images inside
# compressed containers, cat errors, extract --force and subpaths,
# extraction as a non-root user, and YAFFS2 images through the same
# commands.  Oracles: the source tree (manifest.py), python's json module.
. "$(dirname "$0")/../lib.sh"
need_root
command -v mksquashfs >/dev/null || skip_all "mksquashfs not installed"

mkdir -p "$T/src/dir/sub"
seq 1 50000 > "$T/src/dir/numbers"
echo hi > "$T/src/hi"
ln -s hi "$T/src/link"
mkfifo "$T/src/fifo"
mknod "$T/src/null" c 1 3
chown 3:4 "$T/src/hi"
mksquashfs "$T/src" "$T/img" -noappend -quiet -no-progress -comp zstd >/dev/null 2>&1
IMG=$T/img

for cmd in info ls cat extract check; do
	ok "$cmd --help exits 0" flashfs "$cmd" --help
	out=$(flashfs "$cmd" --help)
	ok "$cmd --help shows usage" grep -q "usage: flashfs $cmd" <<<"$out"
	flashfs "$cmd" --no-such-option >/dev/null 2>&1
	is "$?" 2 "$cmd with a bad option exits 2"
	flashfs "$cmd" "$T/missing-image" x >/dev/null 2>&1
	is "$?" 2 "$cmd on a missing image exits 2"
done
flashfs info "$T/src/hi" >/dev/null 2>&1
is "$?" 2 "info on something that is not an image exits 2"

info=$(flashfs info --json "$IMG")
is "$(python3 -c 'import json,sys; d=json.load(sys.stdin); s=d["squashfs"]; print(d["format"], s["compressor"], s["block_size"], s["files"], s["directories"], s["symlinks"], s["devices"], s["fifos"])' <<<"$info")" \
	"squashfs zstd 131072 2 3 1 1 1" "info --json is valid JSON with the right counts"
ok "info text names the compressor" grep -q '^compressor  *zstd' <<<"$(flashfs info "$IMG")"

(head -c 12345 /dev/urandom; cat "$IMG") > "$T/offset.img"
is "$(flashfs --offset 12345 cat "$T/offset.img" hi)" hi "global --offset"
is "$(flashfs cat --offset=12345 "$T/offset.img" hi)" hi "per-command --offset"
fails "without --offset the image is not found" flashfs cat "$T/offset.img" hi

for z in gzip xz zstd; do
	if command -v "$z" >/dev/null; then
		"$z" -c "$IMG" > "$T/img.$z"
		ok "image inside a $z container: cat" cmp <(flashfs cat "$T/img.$z" dir/numbers) "$T/src/dir/numbers"
	else
		skip "$z not installed" "$z container"
	fi
done

flashfs cat "$IMG" hi nothing-here > "$T/cat.out" 2>"$T/cat.err"
is "$?" 1 "cat of a missing path exits 1"
is "$(cat "$T/cat.out")" hi "cat still prints the files that exist"
ok "cat names the missing path" grep -q "nothing-here" "$T/cat.err"
flashfs cat "$IMG" dir >/dev/null 2>&1
is "$?" 1 "cat of a directory exits 1"

flashfs ls -l "$IMG" > "$T/ls.txt"
ok "ls -l shows the symlink target" grep -q ' link -> hi$' "$T/ls.txt"
ok "ls -l shows device numbers" grep -q '^crw.* 1,3 .* null$' "$T/ls.txt"
ok "ls -l shows numeric owners" grep -q '^-rw.* 3/4 .* hi$' "$T/ls.txt"
is "$(flashfs ls "$IMG" dir)" "numbers
sub" "ls PATH lists that directory"
flashfs check "$IMG" >/dev/null
is "$?" 0 "check of a clean image exits 0"

ok "extract" flashfs extract --no-progress -C "$T/out" "$IMG"
same_manifest "extraction equals the source" "$T/src" "$T/out"
fails "extract again refuses to overwrite" flashfs extract --no-progress -C "$T/out" "$IMG"
echo changed > "$T/out/hi"
ok "extract --force overwrites" flashfs extract --no-progress --force -C "$T/out" "$IMG"
same_manifest "after --force the extraction equals the source" "$T/src" "$T/out"
ok "extract of one path" flashfs extract --no-progress -C "$T/part" "$IMG" dir/numbers
is "$(find "$T/part" | sed "s|$T/part||" | sort | tr '\n' ' ')" " /dir /dir/numbers " "only that path is created"

chmod 755 "$T"
mkdir -m 777 "$T/user"
if setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		flashfs extract --no-progress -C "$T/user/out" "$IMG" 2>"$T/user.err"
	is "$?" 1 "extract as non-root restores what it can, exit 1 for the device nodes it left out"
	is "$(grep -c 'cannot restore file owners' "$T/user.err")" 1 "owners skipped: warned once"
	is "$(grep -c 'cannot create device nodes' "$T/user.err")" 1 "devices skipped: warned once"
	same_manifest "non-root extraction has the right contents" "$T/src" "$T/user/out" --no-owner --no-special
else
	skip "setpriv cannot drop privileges here" "non-root extraction"
fi

if command -v mkfs.yaffs2 >/dev/null && rm -f "$T/src/null" && mkfs.yaffs2 "$T/src" "$T/y.img" >"$T/y.log" 2>&1; then
	ok "yaffs2: check" flashfs check -q "$T/y.img"
	ok "yaffs2: extract" flashfs extract --no-progress -C "$T/yout" "$T/y.img"
	same_manifest "yaffs2: extraction equals the source" "$T/src" "$T/yout" --no-xattrs
	is "$(flashfs info --json "$T/y.img" | python3 -c 'import json,sys; print(json.load(sys.stdin)["format"])')" yaffs2 "yaffs2: info detects the format"
else
	skip "mkfs.yaffs2 not usable: $(head -c 200 "$T/y.log" 2>/dev/null)" "yaffs2 images"
fi
# issue 20, item 5: info shows only what the image's options block stores.
# xz stores the dictionary and BCJ filters, never the preset level.
mksquashfs "$T/src" "$T/xzd.img" -noappend -quiet -no-progress -comp xz -Xdict-size 50% >/dev/null 2>&1
flashfs info "$T/xzd.img" > "$T/info.out" 2>&1
ok "xz (mksquashfs -Xdict-size 50%): info shows the stored dictionary" \
	grep -qE '^compressor_options +dict=65536$' "$T/info.out"
mkfs.squashfs -q -comp xz -X level=1 "$T/src" "$T/xz1.img"
flashfs info "$T/xz1.img" > "$T/info.out" 2>&1
ok "xz level=1, no options block: info invents no level" \
	sh -c "! grep -q 'level=' '$T/info.out' && grep -qE '^compressor_options +none stored' '$T/info.out'"
mksquashfs "$T/src" "$T/gz1.img" -noappend -quiet -no-progress -comp gzip -Xcompression-level 1 >/dev/null 2>&1
flashfs info "$T/gz1.img" > "$T/info.out" 2>&1
ok "gzip level 1 (stored by mksquashfs): shown" grep -qE '^compressor_options +level=1,' "$T/info.out"

# issue 20, item 9: the small ones.
rm -rf "$T/ne"
mkdir -p "$T/ne"
(cd "$T/ne" && flashfs extract "$IMG" /nonexist > ../ne.out 2>&1)
is "$?" 1 "extract of a PATH not in the image: exit 1"
ok "... names the path" grep -q "/nonexist: No such file" "$T/ne.out"
ok "... and creates nothing (no empty squashfs-root/)" test -z "$(ls -A "$T/ne")"
mkdir -p "$T/adir"
flashfs info "$T/adir" > "$T/adir.out" 2>&1
is "$(cat "$T/adir.out")" "flashfs info: $T/adir: Is a directory" "a directory as IMAGE: the file is named once"
ok "mkfs.squashfs --help: no stray '--version' on the --help line" \
	sh -c "! mkfs.squashfs --help | grep -qE -- '--help +--version'"
ok "mkfs.yaffs2 --version" sh -c "mkfs.yaffs2 --version | grep -q 'mkfs.yaffs2 (flashfs-tools)'"
ok "mount.fuse.flashfs --help exits 0" sh -c "mount.fuse.flashfs --help | grep -q usage"
done_testing
