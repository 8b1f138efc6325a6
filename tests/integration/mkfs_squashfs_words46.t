#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# mksquashfs 4.6/4.7 words in mkfs.squashfs (issue 16 item 2): every word of
# their -help is either accepted or refused with a reason, and the words
# added for it work with mksquashfs' meaning.  Where mksquashfs 4.5.1 has
# the word (or an equivalent), both images are mounted by the kernel and
# their trees compared; where it has not, the mounted tree is checked
# against what the word means.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/mkfs_squashfs_lib.sh"

need_mount_and_mksquashfs

# A small tree: two levels of directories, a symlink, known times.
S=$T/src
mkdir -p "$S/a/b/c" "$S/x/y" "$S/empty"
echo one > "$S/a/b/c/f"
echo two > "$S/x/g"
echo three > "$S/x/y/h"
ln -s f "$S/a/b/c/l"
chmod 0750 "$S/a/b"
find "$S" -exec touch -h -d @1600000000 {} +
touch -d @1650000000 "$S/x/g"
# With -no-strip or -tarstyle and sources below the working directory, the
# root stands for that directory and takes its mtime: the tools run in $N,
# which nothing writes to ($T changes as the logs and images land in it, so
# the two tools saw roots a second apart).
N=$T/ns
mkdir "$N" && cp -a "$S" "$N/src" && touch -d @1600000000 "$N"

# kman IMAGE OUT [manifest options] — the kernel's view of IMAGE, root included
kman() {
	local img=$1 out=$2
	shift 2
	mount_image "$img" "$T/mnt" || return 1
	$MANIFEST --root-entry "$@" "$T/mnt" > "$out"
	local rc=$?
	umount "$T/mnt"
	return $rc
}

# same_as_mksquashfs NAME DIR "SOURCES" OURS... -- THEIRS...: both tools in
# DIR (relative SOURCES, a space-separated list), SOURCES IMAGE OPTIONS
# order; the mounted trees must be the same.
same_as_mksquashfs() {
	local name=$1 dir=$2 src=() ours=()
	read -r -a src <<< "$3"
	shift 3
	while [ $# -gt 0 ] && [ "$1" != -- ]; do ours+=("$1"); shift; done
	shift
	rm -f "$T/o.img" "$T/m.img"
	if ! (cd "$dir" && mksquashfs "${src[@]}" "$T/m.img" -noappend -quiet -no-progress "$@") \
		> "$T/m.log" 2>&1; then
		ok "$name: mksquashfs 4.5.1 builds the reference ($(tail -1 "$T/m.log"))" false
		return
	fi
	if ! (cd "$dir" && mkfs.squashfs "${src[@]}" "$T/o.img" "${ours[@]}" -noappend -quiet) \
		> "$T/o.log" 2>&1; then
		ok "$name: mkfs.squashfs builds it ($(tail -1 "$T/o.log"))" false
		return
	fi
	kman "$T/m.img" "$T/m.man" --dir-nlink && kman "$T/o.img" "$T/o.man" --dir-nlink ||
		{ ok "$name: both images mount" false; return; }
	ok "$name: kernel mounts give the same tree as mksquashfs" diff "$T/m.man" "$T/o.man"
}

# build NAME ARGS... — our image $T/o.img, mounted tree in $T/o.man
build() {
	local name=$1
	shift
	rm -f "$T/o.img"
	if mkfs.squashfs "$@" "$T/o.img" -noappend -quiet > "$T/o.log" 2>&1 &&
		kman "$T/o.img" "$T/o.man"; then
		return 0
	fi
	ok "$name: builds and mounts ($(tail -1 "$T/o.log"))" false
	return 1
}

# line PATH — the manifest line of PATH ("." is the root) in $T/o.man
line() { awk -v p="$1" '$1 == p' "$T/o.man"; }
# field PATH N — field N of it (2 type, 3 mode, 4 uid:gid, 5 size, 6 mtime)
field() { line "$1" | awk -v n="$2" '{print $n}'; }

# --- every word of mksquashfs 4.6 and 4.7 (to 4.7.5) -help ---------------
# (from their help text; a value where the word takes one)
WORDS='-b 131072|-comp gzip|-noI|-noId|-noD|-noF|-noX|-no-compression
-tar|-no-strip|-tarstyle|-cpiostyle|-cpiostyle0|-no-exports|-exports
-no-sparse|-no-tailends|-tailends|-no-fragments|-no-duplicates|-no-hardlinks
-keep-as-directory|-mkfs-time 0|-inode-time 0|-root-time 0|-repro
-repro-time 0|-all-root|-root-mode 0755|-root-uid 0|-root-gid 0
-force-file-mode 0644|-force-dir-mode 0755|-force-uid 0|-force-gid 0
-uid-gid-offset 0|-p new d 755 0 0|-pd d 755 0 0|-pseudo-dir d 755 0 0
-pf @EMPTY|-pseudo-override|-sort @EMPTY|-ef @EMPTY|-wildcards|-regex
-max-depth 3|-one-file-system|-one-file-system-x|-no-xattrs|-xattrs
-xattrs-exclude ^zz|-xattrs-include .|-xattrs-add user.t=1|-version
-exit-on-error|-quiet|-info|-info-file @INFO|-no-progress|-progress
-percentage|-throttle 0|-limit 100|-processors 1|-mem 100M|-mem-percent 25
-mem-default|-single-reader|-small-readers 1|-block-readers 1|-overcommit 10
-noappend|-root-becomes old|-no-recovery|-recovery-path @DIR|-recover @EMPTY
-action exclude@name(zz)|-log-action exclude@name(zz)
-true-action exclude@name(zz)|-false-action exclude@name(zz)
-action-file @ACT|-log-action-file @ACT|-true-action-file @ACT
-false-action-file @ACT|-default-mode 0755|-default-uid 0|-default-gid 0
-ignore-zeros|-numeric-owner|-nopad|-offset 0|-o 0|-stream|-fix @EMPTY
-help|-help-option comp|-help-section compression|-help-comp gzip|-help-all
-Xhelp|-h|-ho comp|-hs compression|-ha|-fstime 0|-always-use-fragments
-root-owned|-noInodeCompression|-noIdTableCompression|-noDataCompression
-noFragmentCompression|-noXattrCompression|-reproducible|-not-reproducible
-no-pager|-cols 80|-read-queue 64|-write-queue 64|-fragment-queue 64
-all-time 0|-e zz'
: > "$T/empty"
echo 'exclude@name(zz)' > "$T/act"
tar -C "$S" -cf "$T/src.tar" .
(cd "$S" && find . > "$T/paths" && find . -print0 > "$T/paths0")
help=$(mkfs.squashfs --help)
nwords=0
bad=()
while IFS= read -r w; do
	nwords=$((nwords + 1))
	word=${w%% *}
	val=
	[ "$word" = "$w" ] || val=${w#* }
	val=${val//@EMPTY/$T/empty}
	val=${val//@INFO/$T/info}
	val=${val//@DIR/$T}
	val=${val//@ACT/$T/act}
	args=("$S" "$T/w.img")
	stdin=/dev/null
	case $word in
	-cpiostyle) args=(- "$T/w.img"); stdin=$T/paths ;;
	-cpiostyle0) args=(- "$T/w.img"); stdin=$T/paths0 ;;
	-tar) args=(- "$T/w.img"); stdin=$T/src.tar ;;
	esac
	rm -f "$T/w.img"
	if [ -n "$val" ]; then
		out=$(cd "$S" && mkfs.squashfs "${args[@]}" -noappend "$word" "$val" < "$stdin" 2>&1)
	else
		out=$(cd "$S" && mkfs.squashfs "${args[@]}" -noappend "$word" < "$stdin" 2>&1)
	fi
	rc=$?
	case $rc:$out in
	0:*) ;;
	2:*"mksquashfs option '$word' is not supported: "?*) ;;
	*) bad+=("$word (exit $rc: $(tail -1 <<< "$out"))") ;;
	esac
	grep -q -- " $word\b" <<< "$help" || bad+=("$word: not listed in --help")
done < <(tr '|' '\n' <<< "$WORDS")
is "$nwords" 121 "the word list holds mksquashfs 4.6/4.7's -help words"
is "${bad[*]:-}" "" "every word is accepted, or refused with a reason"
out=$(mkfs.squashfs "$S" "$T/w.img" -noappend -no-such-word 2>&1)
is "$?:$(grep -c 'unknown option' <<< "$out")" "2:1" "an unknown word is still an error"
for w in -stream -recover -fix -log -deref -dereference -deref-path; do
	out=$(mkfs.squashfs "$S" "$T/w.img" -noappend "$w" x 2>&1)
	ok "$w: refused with a reason of its own" grep -Eq "not supported: .{20,}" <<< "$out"
done

# --- -no-strip / -tarstyle: sources at their own paths (4.5.1 has them) ---
same_as_mksquashfs "-no-strip" "$N" "src/a/b src/x" -no-strip -- -no-strip
same_as_mksquashfs "-tarstyle" "$N" "src/a/b/c/f src/x/y" -tarstyle -- -tarstyle
same_as_mksquashfs "-no-strip, one directory" "$S" ./a -no-strip -- -no-strip
same_as_mksquashfs "--no-strip (GNU spelling)" "$N" src/x --no-strip -- -no-strip
# (-wildcards: patterns name image paths; 4.5.1's default resolves them below
# a single SOURCE, which mkfs.squashfs does not do with -no-strip)
same_as_mksquashfs "-no-strip with -e" "$N" src -no-strip -wildcards -e src/x/y -- \
	-no-strip -wildcards -e src/x/y
# without the word the leading directories go: the test above can fail
build "no -no-strip" "$S/a/b" && is "$(field c 2)" dir "without -no-strip, b's contents are the root"

# --- -cpiostyle / -cpiostyle0: the paths on stdin ---------------------------
# (mksquashfs 4.5.1 hangs on a list of more than one path, so the checks are
# against the plain build of the same directory and against the list)
mksquashfs "$S" "$T/m.img" -noappend -quiet -no-progress > /dev/null 2>&1
kman "$T/m.img" "$T/m.man"
(cd "$S" && find . | mkfs.squashfs - "$T/o.img" -cpiostyle -noappend -quiet) &&
	kman "$T/o.img" "$T/o.man"
ok "-cpiostyle: find . lists the whole tree (as mksquashfs SOURCE)" diff "$T/m.man" "$T/o.man"
(cd "$S" && find . -print0 | mkfs.squashfs - "$T/o.img" -cpiostyle0 -noappend -quiet) &&
	kman "$T/o.img" "$T/o.man"
ok "-cpiostyle0: the same, NUL-separated" diff "$T/m.man" "$T/o.man"
(cd "$S" && printf 'a/b/c/f\nx\n' | mkfs.squashfs - "$T/o.img" -cpiostyle -noappend -quiet) &&
	kman "$T/o.img" "$T/o.man"
is "$(awk '{print $1}' "$T/o.man" | tr '\n' ' ')" ". a a/b a/b/c a/b/c/f x " \
	"-cpiostyle: only the listed entries and their directories (x not descended)"
is "$(field a/b 3):$(field a/b/c/f 5)" "0750:4" "-cpiostyle: host attributes and contents"
(cd "$S" && printf 'x/g\0a\0' | mkfs.squashfs - "$T/o.img" --cpio-style0 -noappend -quiet) &&
	kman "$T/o.img" "$T/o.man"
is "$(awk '{print $1}' "$T/o.man" | tr '\n' ' ')" ". a x x/g " "--cpio-style0 (GNU spelling)"
fails "-cpiostyle with a SOURCE is refused" mkfs.squashfs "$S" "$T/o.img" -cpiostyle -noappend

# --- -max-depth -------------------------------------------------------------
# -max-depth 2: the source is level 1, a and x level 2; a/b and x/y stay,
# empty — what 4.5.1 gives when -wildcards excludes everything 3 levels down
same_as_mksquashfs "-max-depth 2" "$T" src -max-depth 2 -- -wildcards -e '*/*/*'
same_as_mksquashfs "--max-depth 1" "$T" src --max-depth 1 -- -wildcards -e '*/*'
build "-max-depth 0" "$S" -max-depth 0 && is "$(wc -l < "$T/o.man")" 1 "-max-depth 0: an empty root"

# --- -one-file-system (4.6: mount points empty, other files out), -x --------
if mkdir -p "$S/mnt" && mount -t tmpfs none "$S/mnt" 2> /dev/null; then
	echo inside > "$S/mnt/inside"
	# a file of the tmpfs, bound into the tree
	touch "$S/bindfile" && mount --bind "$S/mnt/inside" "$S/bindfile"
	# 4.5.1's -one-file-system is 4.6's -one-file-system-x
	same_as_mksquashfs "-one-file-system-x" "$T" src -one-file-system-x -- -one-file-system
	build "-one-file-system" "$S" -one-file-system
	ok "-one-file-system: the mount point is an empty directory" \
		sh -c "awk '\$1 == \"mnt\" && \$2 == \"dir\"' '$T/o.man' | grep -q . && ! grep -q '^mnt/' '$T/o.man'"
	ok "-one-file-system: a file on another filesystem is left out" \
		sh -c "! grep -q '^bindfile ' '$T/o.man' && grep -q '^x/g ' '$T/o.man'"
	build "--one-file-system-x" "$S" --one-file-system-x
	ok "--one-file-system-x: the mount point is left out" sh -c "! grep -q '^mnt' '$T/o.man'"
	umount "$S/bindfile"
	umount "$S/mnt"
	rm -f "$S/bindfile"
	rmdir "$S/mnt"
else
	skip "cannot mount tmpfs here" "-one-file-system"
fi

# --- -xattrs-add ------------------------------------------------------------
build "-xattrs-add" "$S" -xattrs-add user.note=hello -xattrs-add trusted.h=0x00ff \
	-xattrs-add trusted.b=0sAAEC &&
	mount_image "$T/o.img" "$T/mnt" && {
	is "$(getfattr -h --only-values -n user.note "$T/mnt/x/g" 2> /dev/null)" hello \
		"-xattrs-add: user xattr on a file"
	is "$(getfattr -h -e hex -n user.note "$T/mnt/a" 2> /dev/null | grep =)" "user.note=0x68656c6c6f" \
		"-xattrs-add: user xattr on a directory"
	ok "-xattrs-add: no user xattr on a symlink" \
		sh -c "! getfattr -h -n user.note '$T/mnt/a/b/c/l' 2> /dev/null | grep -q ="
	is "$(getfattr -h -e hex -n trusted.h "$T/mnt/a/b/c/l" 2> /dev/null | grep =)" "trusted.h=0x00ff" \
		"-xattrs-add: 0x hex value, other namespaces on symlinks too"
	is "$(getfattr -h -e hex -n trusted.b "$T/mnt/x" 2> /dev/null | grep =)" "trusted.b=0x000102" \
		"-xattrs-add: 0s base64 value"
	umount "$T/mnt"
}
fails "-xattrs-add without NAME=VALUE is refused" \
	mkfs.squashfs "$S" "$T/o.img" -noappend -xattrs-add novalue

# --- -default-mode/-uid/-gid: directories a tar implies, and the root -------
(cd "$S" && tar --no-recursion -cf "$T/implied.tar" a/b/c/f x/g)
build "tar without defaults" "$T/implied.tar" &&
	is "$(field a 3):$(field a 4)" "0755:0:0" "tar: implied directory defaults"
build "-default-*" "$T/implied.tar" -default-mode 0700 -default-uid 12 -default-gid 34 &&
	is "$(field a 3):$(field a 4) $(field a/b/c 3):$(field a/b/c 4) $(field . 3):$(field . 4)" \
		"0700:12:34 0700:12:34 0700:12:34" \
		"-default-mode/-uid/-gid: implied directories and the root"
build "--default-mode (GNU)" "$T/implied.tar" --default-mode 0711 &&
	is "$(field x 3):$(field . 3)" "0711:0711" "--default-mode (GNU spelling)"
build "-default-* keep described dirs" "$T/src.tar" -default-mode 0700 &&
	is "$(field a/b 3)" "0750" "-default-mode: a directory the tar describes keeps its mode"

# --- -pd / -pseudo-dir, -pseudo-override -----------------------------------
build "-pd" "$S" -p "p/q/r f 644 1 2 echo hi" -pd "d 700 5 6" &&
	is "$(field p 3):$(field p 4) $(field p/q 3):$(field p/q 4)" \
		"0700:5:6 0700:5:6" "-pd: implied pseudo directories"
build "-pseudo-dir D" "$S" -p "p/q/r f 644 1 2 echo hi" -pseudo-dir "D 1234567 711 7 8" &&
	is "$(field p/q 3):$(field p/q 4):$(field p/q 6)" "0711:7:8:1234567" \
		"-pseudo-dir D: with a time"
build "no -pd" "$S" -p "p/q/r f 644 1 2 echo hi" &&
	is "$(field p 3):$(field p 4)" "0755:0:0" "without -pd: 0755 root"
fails "-pd with a bad definition is refused" \
	mkfs.squashfs "$S" "$T/o.img" -noappend -pd "d 755 0"
build "-pseudo-override" "$S" -all-root -p "pf f 644 7 8 echo x" -p "x m 700 9 9" \
	-pseudo-override &&
	is "$(field pf 4) $(field x 4):$(field x 3) $(field a 4)" "7:8 9:9:0700 0:0" \
		"-pseudo-override: pseudo owners win over -all-root"
build "no -pseudo-override" "$S" -all-root -p "pf f 644 7 8 echo x" &&
	is "$(field pf 4)" "0:0" "without -pseudo-override: -all-root wins"

# --- -repro, -repro-time (4.7) ---------------------------------------------
touch -d @1600000000 "$S"
sbtime() { unsquashfs -mkfs-time "$1" 2> /dev/null | tail -1; }
mkfs.squashfs "$S" "$T/o.img" -noappend -quiet -repro
is "$(sbtime "$T/o.img")" 1650000000 "-repro: the image time is the newest inode time"
mkfs.squashfs "$S" "$T/o.img" -noappend -quiet
ok "without -repro: the build time" test "$(sbtime "$T/o.img")" -gt 1700000000
same_as_mksquashfs "-repro-time" "$T" src -repro-time 1234567 -- \
	-all-time 1234567 -mkfs-time 1234567
is "$(sbtime "$T/o.img")" 1234567 "-repro-time: the image time"
done_testing
