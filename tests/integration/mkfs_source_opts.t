#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# The source-tree options mean the same in mkfs.squashfs and mkfs.yaffs2:
# the same options on the same SOURCE give the tree a hand-made copy has
# (excluded paths removed, owner and times set by chown/touch), read back
# with unsquashfs (SquashFS) and flashfs extract (YAFFS2) and compared with
# manifest.py.  mksquashfs spellings give byte-identical images on both;
# bad values are usage errors naming the option.
. "$(dirname "$0")/../lib.sh"

need_root
for p in mkfs.squashfs mkfs.yaffs2 flashfs; do
	command -v $p > /dev/null || skip_all "$p not built"
done
command -v unsquashfs > /dev/null || skip_all "unsquashfs not installed"

S=$T/src
mkdir -p "$S/etc/skip/deep" "$S/bin" "$S/var/log"
printf 'root:x:0:0::/root:/bin/sh\n' > "$S/etc/passwd"
echo deep > "$S/etc/skip/deep/f"
head -c 70000 /dev/urandom > "$S/bin/tool"
ln -s tool "$S/bin/link"
echo noise > "$S/var/log/boot.log"
echo keep > "$S/var/log/keep.txt"
chown -R 1000:100 "$S"
find "$S" -exec touch -h -d @1700000000 {} +
touch -d @2000000000 "$S/bin/tool"

printf '# logs anywhere are build noise\n\n... *.log\n' > "$T/ex.list"
OPTS=(--exclude-file "$T/ex.list" -e etc/skip --force-uid nobody --force-gid nogroup
	--all-time 5 --no-xattrs)

# expected: the source as the options describe it
cp -a "$S" "$T/want"
rm -rf "$T/want/etc/skip" "$T/want/var/log/boot.log"
chown -hR 65534:65534 "$T/want"
find "$T/want" -exec touch -h -d @5 {} +

ok "squashfs: build with the source options" mkfs.squashfs -q "${OPTS[@]}" "$S" "$T/o.sqfs"
ok "yaffs2: build with the same options" mkfs.yaffs2 -q "${OPTS[@]}" "$S" "$T/o.y2"
unsquashfs -q -n -d "$T/sq" "$T/o.sqfs" > /dev/null 2>&1
flashfs extract --no-progress -C "$T/y2" "$T/o.y2" > /dev/null 2>&1
same_manifest "squashfs (unsquashfs): excludes, owner names, --all-time applied" \
	"$T/want" "$T/sq" --no-xattrs
same_manifest "yaffs2 (flashfs extract): the same tree" "$T/want" "$T/y2" --no-xattrs

# mksquashfs spellings of the shared options work in both builders; the
# image time is fixed, or two builds a second apart would differ
for b in squashfs yaffs2; do
	ok "$b: mksquashfs spellings build" env SOURCE_DATE_EPOCH=1700000000 mkfs.$b -q -ef "$T/ex.list" -root-owned \
		-all-time 7 -p 'made d 700 0 0' "$S" "$T/a.$b"
	ok "$b: GNU spellings build" env SOURCE_DATE_EPOCH=1700000000 mkfs.$b -q --exclude-file "$T/ex.list" --all-root \
		--all-time 7 --pseudo 'made d 700 0 0' "$S" "$T/b.$b"
	ok "$b: both spellings give the same image" cmp "$T/a.$b" "$T/b.$b"
done

# --mtime and SOURCE_DATE_EPOCH clamp newer times in both, older ones stay
flashfs extract --no-progress -C "$T/y2m" "$T/o.y2" > /dev/null 2>&1
for b in squashfs yaffs2; do
	mkfs.$b -q --mtime 1800000000 "$S" "$T/m.$b" &&
	env SOURCE_DATE_EPOCH=1800000000 mkfs.$b -q "$S" "$T/e.$b"
	ok "$b: SOURCE_DATE_EPOCH gives the --mtime image" cmp "$T/m.$b" "$T/e.$b"
done
unsquashfs -q -n -d "$T/msq" "$T/m.squashfs" > /dev/null 2>&1
flashfs extract --no-progress -C "$T/my2" "$T/m.yaffs2" > /dev/null 2>&1
for d in msq my2; do
	is "$(stat -c %Y "$T/$d/bin/tool") $(stat -c %Y "$T/$d/etc/passwd")" \
		"1800000000 1700000000" "$d: the newer mtime is clamped, the older one kept"
done

# usage errors name the option and value, exit 2, write nothing
for b in squashfs yaffs2; do
	out=$(mkfs.$b --force-uid no-such-user-here "$S" "$T/x.$b" 2>&1)
	is "$?" 2 "$b: unknown user: exit 2"
	ok "$b: unknown user: message names it" grep -qF -- "--force-uid: 'no-such-user-here'" <<< "$out"
	out=$(SOURCE_DATE_EPOCH=soon mkfs.$b "$S" "$T/x.$b" 2>&1)
	is "$?" 2 "$b: bad SOURCE_DATE_EPOCH: exit 2"
	ok "$b: bad SOURCE_DATE_EPOCH: message names it" grep -qF "SOURCE_DATE_EPOCH: 'soon'" <<< "$out"
	out=$(mkfs.$b "$S" "$S/etc/img" 2>&1)
	is "$?" 2 "$b: IMAGE inside SOURCE: exit 2"
	ok "$b: IMAGE inside SOURCE: message says so" grep -qF "inside SOURCE" <<< "$out"
	ok "$b: no image written" test ! -e "$T/x.$b" -a ! -e "$S/etc/img"
	out=$(mkfs.$b --exclude-file "$T/nonexistent.list" "$S" "$T/x.$b" 2>&1)
	rc=$?
	ok "$b: missing exclude file fails (exit $rc)" test "$rc" -ne 0 -a "$rc" -lt 128
	ok "$b: missing exclude file: message names it" grep -qF nonexistent.list <<< "$out"
done

# --one-file-system: a mount point inside SOURCE stays, empty, in both
if mkdir -p "$S/mnt" && mount -t tmpfs none "$S/mnt" 2> /dev/null; then
	echo inside > "$S/mnt/inside"
	mkfs.squashfs -q --one-file-system "$S" "$T/ofs.sqfs" &&
	mkfs.yaffs2 -q --one-file-system "$S" "$T/ofs.y2"
	umount "$S/mnt"
	unsquashfs -q -n -d "$T/ofs-sq" "$T/ofs.sqfs" > /dev/null 2>&1
	flashfs extract --no-progress -C "$T/ofs-y2" "$T/ofs.y2" > /dev/null 2>&1
	for d in ofs-sq ofs-y2; do
		ok "$d: --one-file-system keeps the empty mount point" \
			sh -c "[ -d '$T/$d/mnt' ] && [ -z \"\$(ls -A '$T/$d/mnt')\" ] && [ -f '$T/$d/bin/tool' ]"
	done
	rmdir "$S/mnt"
else
	skip "cannot mount tmpfs here" "--one-file-system (squashfs)"
	skip "cannot mount tmpfs here" "--one-file-system (yaffs2)"
fi

# --ignore-errors: an unreadable file is skipped with a warning in both
if command -v setpriv > /dev/null; then
	unreadable_tree "$T/priv"
	for b in squashfs yaffs2; do
		out=$(as_nobody "$(command -v mkfs.$b)" --ignore-errors "$T/priv/src" "$T/priv/out/img.$b" 2>&1)
		ok "$b: --ignore-errors builds the image" test -s "$T/priv/out/img.$b"
		ok "$b: --ignore-errors warns about the file" grep -qF secret <<< "$out"
	done
else
	skip "setpriv not installed" "--ignore-errors (squashfs)"
	skip "setpriv not installed" "--ignore-errors (yaffs2)"
fi

done_testing
