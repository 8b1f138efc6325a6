#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# mkfs.squashfs speaks mksquashfs' option grammar: whole single-dash words,
# exit 2 naming any unknown option, and mksquashfs' meaning for its options.
# Where mksquashfs 4.5.1 has the option, both images are kernel-mounted and
# their trees compared; the superblock flags of -noI/-noD/-noF/-noX/-noId are
# compared with mksquashfs' own.
. "$(dirname "$0")/../lib.sh"

need_root
command -v mkfs.squashfs > /dev/null || skip_all "mkfs.squashfs not built"
command -v mksquashfs > /dev/null || skip_all "mksquashfs not installed"
grep -qw squashfs /proc/filesystems || modprobe squashfs 2> /dev/null ||
	skip_all "kernel has no squashfs"
unset SOURCE_DATE_EPOCH

S=$T/src
mkdir -p "$S/etc/init.d" "$S/bin" "$S/usr/lib" "$S/var/log" "$S/other"
printf 'root:x:0:0\n' > "$S/etc/passwd"
ln "$S/etc/passwd" "$S/other/passwd-link"
printf '#!/bin/sh\n' > "$S/etc/init.d/rcS"
chmod 755 "$S/etc/init.d/rcS"
head -c 300000 /dev/urandom > "$S/usr/lib/libbig.so"
printf 'x%.0s' $(seq 1 5000) > "$S/usr/lib/small.a"
printf 'c code\n' > "$S/usr/lib/main.c"
printf 'header\n' > "$S/usr/lib/main.h"
ln -s ../etc/passwd "$S/bin/pw"
mkfifo "$S/var/log/fifo"
mknod "$S/bin/null" c 1 3
chown 1000:1000 "$S/var/log"
python3 -c 'import os, sys
os.setxattr(sys.argv[1], "user.a", b"1"); os.setxattr(sys.argv[1], "trusted.b", b"2")' \
	"$S/usr/lib/main.c"
find "$S" -exec touch -h -d @1600000000 {} +
A=$T/a B=$T/b
mkdir -p "$A/x" "$B/x" "$T/c/a"
echo a > "$A/x/f"; echo b > "$B/x/g"; echo c > "$T/c/a/h"
find "$A" "$B" "$T/c" -exec touch -h -d @1600000001 {} +

# image_tree IMAGE OUT — manifest of the kernel mount of IMAGE (padded copy)
image_tree() {
	cp "$1" "$T/pad.img" && truncate -s %4096 "$T/pad.img" &&
		mkdir -p "$T/mnt" && mount -o loop,ro -t squashfs "$T/pad.img" "$T/mnt" || return 1
	$MANIFEST --dir-nlink "$T/mnt" > "$2"
	umount "$T/mnt"
}

# like_mksquashfs NAME SOURCE... -- OPTION... — both tools, same trees
like_mksquashfs() {
	local name=$1 src=()
	shift
	while [ "$1" != -- ]; do src+=("$1"); shift; done
	shift
	rm -f "$T/m.img" "$T/o.img"
	if ! mksquashfs "${src[@]}" "$T/m.img" -noappend -quiet -no-progress "$@" \
		> "$T/m.log" 2>&1; then
		skip "mksquashfs refused it: $(tail -1 "$T/m.log")" "$name"
		return
	fi
	if ! mkfs.squashfs "${src[@]}" "$T/o.img" -noappend -quiet "$@" > "$T/o.log" 2>&1; then
		ok "$name: mkfs.squashfs builds it: $(tail -1 "$T/o.log")" false
		return
	fi
	image_tree "$T/m.img" "$T/m.man" && image_tree "$T/o.img" "$T/o.man" ||
		{ ok "$name: both mount" false; return; }
	ok "$name: same tree as mksquashfs" diff "$T/m.man" "$T/o.man"
}

# --- grammar -------------------------------------------------------------
# rejects NAME WORD OPTION... — exit 2, the message quotes WORD, no image
rejects() {
	local name=$1 word=$2
	shift 2
	rm -f "$T/r.img"
	mkfs.squashfs "$S" "$T/r.img" "$@" > "$T/r.out" 2> "$T/r.err"
	is "$?" 2 "$name: exit 2"
	ok "$name: the message names '$word'" grep -qF -- "'$word'" "$T/r.err"
	ok "$name: no image" test ! -e "$T/r.img"
}
rejects "-hugebogus" -hugebogus -hugebogus
rejects "-Vfoo" -Vfoo -Vfoo
rejects "-bar" -bar -bar
rejects "-nopadx" -nopadx -nopadx
rejects "-j2 (no attached values)" -j2 -j2
rejects "--bogus" --bogus --bogus
rejects "-Xbogus" -Xbogus -Xbogus
rejects "a known option without its value" -comp -comp
rejects "-stream (not supported)" -stream -stream
rejects "an unknown word before SOURCE" -frobnicate -frobnicate
mkfs.squashfs "$S" "$T/e.img" -exit-on-error -quiet > /dev/null 2>&1
is "$?" 0 "-exit-on-error is mksquashfs' option: exit 0"
image_tree "$T/e.img" "$T/e.man"
ok "-exit-on-error excludes nothing" grep -q '^etc/init.d/rcS ' "$T/e.man"
is "$(mkfs.squashfs -help | head -1 | cut -c1-6)" "usage:" "-help prints the help"
is "$(mkfs.squashfs -version > /dev/null; echo $?)" 0 "-version: exit 0"
ok "-Xhelp prints the codec options, exit 0" sh -c 'mkfs.squashfs -Xhelp | grep -q "lc=0..4"'
for w in -noI -nopad -no-compression -fixed-time -Xpreset -action -root-becomes -tailends -mem; do
	ok "--help lists $w" sh -c "mkfs.squashfs --help | grep -qe ' $w\\b'"
done
mkfs.squashfs "$S" "$T/n.img" -noappend -mem 512M -throttle 10 -limit 50 -not-reproducible \
	> /dev/null 2> "$T/n.err"
is "$?" 0 "-mem -throttle -limit -not-reproducible: accepted"
is "$(grep -c 'note: -' "$T/n.err")" 4 "one note line each"
mkfs.squashfs -quiet "$S" "$T/x.img" -noappend -comp xz -Xe -Xpreset 9
is "$?" 0 "-Xe takes no value (SOURCE IMAGE stay positional)"
mkfs.squashfs -quiet "$S" "$T/lc.img" -comp xz -Xlc 3 -Xlp 2 2> "$T/lc.err"
is "$?" 2 "xz lc + lp over 4: exit 2"
ok "xz lc + lp over 4: the message says so" grep -q 'lc=3 plus lp=2 is more than 4' "$T/lc.err"
ok "xz lc + lp over 4: no image" test ! -e "$T/lc.img"

# --- uncompressed parts: mksquashfs' superblock flags ---------------------
flags() { od -An -tu2 -j24 -N2 "$1" | tr -d ' '; }
for o in -noI -noId -noD -noF -noX "-noI -noId" "-noD -noF -noX -noI" \
	-noInodeCompression -noDataCompression -noFragmentCompression -noXattrCompression \
	-noIdTableCompression; do
	mksquashfs "$S" "$T/m.img" -noappend -quiet -no-progress $o > /dev/null 2>&1
	mkfs.squashfs -quiet "$S" "$T/o.img" -noappend $o
	is "$(flags "$T/o.img")" "$(flags "$T/m.img")" "$o: the superblock flags mksquashfs sets"
	image_tree "$T/o.img" "$T/o.man" && image_tree "$T/m.img" "$T/m.man"
	ok "$o: the kernel reads the same tree" diff "$T/m.man" "$T/o.man"
done
mkfs.squashfs -quiet "$S" "$T/o.img" -noappend -no-compression
is "$(flags "$T/o.img")" "$(mksquashfs "$S" "$T/m.img" -noappend -quiet -noI -noD -noF -noX \
	> /dev/null 2>&1; flags "$T/m.img")" "-no-compression is -noI -noD -noF -noX"
unsquashfs -s "$T/o.img" > "$T/s.out"
ok "-no-compression: unsquashfs reads no compressed part" \
	sh -c "! grep -E '(Inodes|Data|Fragments|Xattrs) are compressed' '$T/s.out'"

# --- layout options -------------------------------------------------------
mkfs.squashfs -quiet "$S" "$T/p.img" -noappend -nopad
is "$(stat -c %s "$T/p.img")" "$(od -An -tu8 -j40 -N8 "$T/p.img" | tr -d ' ')" \
	"-nopad: the file ends at bytes_used"
mkfs.squashfs -quiet "$S" "$T/off.img" -noappend -offset 8K -mkfs-time 1
is "$(head -c 8192 "$T/off.img" | tr -d '\0' | wc -c)" 0 "-offset 8K: 8192 zero bytes first"
is "$(od -An -c -j8192 -N4 "$T/off.img" | tr -d ' ')" hsqs "-offset 8K: the superblock after them"
mkfs.squashfs -quiet "$S" "$T/o2.img" -noappend -o 8192 -mkfs-time 1
ok "-o is -offset" cmp "$T/off.img" "$T/o2.img"
mkdir -p "$T/mnt"
if mount -o loop,ro,offset=8192 -t squashfs "$T/off.img" "$T/mnt"; then
	$MANIFEST --dir-nlink "$T/mnt" > "$T/off.man"
	umount "$T/mnt"
	image_tree "$T/p.img" "$T/p.man"
	ok "-offset: the kernel mounts it at the offset" diff "$T/p.man" "$T/off.man"
else
	ok "-offset: the kernel mounts it at the offset" false
fi
mkfs.squashfs -quiet "$S" "$T/f.img" -noappend -fixed-time 1234567
is "$(od -An -tu4 -j8 -N4 "$T/f.img" | tr -d ' ')" 1234567 "-fixed-time: the superblock time"
image_tree "$T/f.img" "$T/f.man"
is "$(awk '{print $6}' "$T/f.man" | sort -u)" 1234567 "-fixed-time: every entry's time"
# xattrs_of IMAGE PATH — the xattr names the kernel shows for PATH
xattrs_of() {
	cp "$1" "$T/pad.img" && mount -o loop,ro -t squashfs "$T/pad.img" "$T/mnt" || return 1
	python3 -c 'import os, sys; print(",".join(sorted(os.listxattr(sys.argv[1]))))' "$T/mnt/$2"
	umount "$T/mnt"
}
mkfs.squashfs -quiet "$S" "$T/xe.img" -noappend -xattrs-exclude '^user\.'
is "$(xattrs_of "$T/xe.img" usr/lib/main.c)" "trusted.b" "-xattrs-exclude '^user\.' drops user xattrs"
mkfs.squashfs -quiet "$S" "$T/xi.img" -noappend -xattrs-include '^user\.'
is "$(xattrs_of "$T/xi.img" usr/lib/main.c)" "user.a" "-xattrs-include '^user\.' keeps only them"
rejects "-xattrs-exclude with a bad regex" "(" -xattrs-exclude '('
# glibc's regcomp copies a repeated subtree once per count, and its
# epsilon closures cost the square of the nodes or worse when repetitions
# nest (the options fuzzer: 2.5 GB, then 39 s).  Refused up front by
# common/regex.c: past 2048 nodes, or a repetition of something repeated.
rejects "-xattrs-exclude whose repetitions explode" "a{3000}" -xattrs-exclude 'a{3000}'
ok "  and says why" grep -q "expand to more than 2048 nodes" "$T/r.err"
# a repetition of something repeated: minutes in glibc's epsilon closures
rejects "-xattrs-exclude with a nested repetition" "a{0,3}{5,9}" -xattrs-exclude 'a{0,3}{5,9}'
ok "  and says why" grep -q "a repetition of something repeated" "$T/r.err"
rejects "-xattrs-exclude with a backreference" '(a*)*\1' -xattrs-exclude '(a*)*\1'
ok "  and says why" grep -q "backreference" "$T/r.err"
# mksquashfs: "FATAL ERROR: invalid regex (ab in export x/(ab"; we used to
# build the image with an exclude that never matched
rejects "-regex -e with a bad regex" "x/(ab" -regex -e 'x/(ab'
rejects "-regex -e whose repetitions explode" "x/a{1000}{1000}" -regex -e 'x/a{1000}{1000}'
mkfs.squashfs "$S" "$T/i.img" -noappend -info > "$T/i.out"
ok "-info lists the entries" grep -q '^/usr/lib/libbig.so: ' "$T/i.out"

# --- the same trees as mksquashfs 4.5.1 -------------------------------------
like_mksquashfs "-root-mode -root-uid -root-gid -root-time" "$S" -- \
	-root-mode 0700 -root-uid 12 -root-gid 34 -root-time 5
mkfs.squashfs -quiet "$S" "$T/sy.img" -noappend -root-mode u=rwx,go=rx,+t -root-time 5 -mkfs-time 1
mkfs.squashfs -quiet "$S" "$T/oc.img" -noappend -root-mode 1755 -root-time 5 -mkfs-time 1
ok "symbolic -root-mode u=rwx,go=rx,+t is 1755" cmp "$T/sy.img" "$T/oc.img"
like_mksquashfs "several sources, the collision renamed NAME_1" "$A" "$B" "$T/c/a" "$S/etc" -- \
	-root-time 9
like_mksquashfs "-keep-as-directory" "$S" -- -keep-as-directory -root-time 9
like_mksquashfs "-no-hardlinks" "$S" -- -no-hardlinks
like_mksquashfs "-e a file also drops its other hard links" "$S" -- -e etc/passwd
like_mksquashfs "-wildcards with ... and globs" "$S" -- -wildcards -e '... *.h' 'usr/lib/*.a'
like_mksquashfs "-regex" "$S" -- -regex -e '^main\.[ch]$' 'var/l.g'
# each part is compiled once and used at its depth for every path
like_mksquashfs "-regex with parts at three depths" "$S" -- \
	-regex -e 'u.r/l.b/^main\.c$' '^e..$/init' 'b.n/p'
printf 'etc/init.d\nbin/pw\n' > "$T/excludes"
like_mksquashfs "-ef" "$S" -- -ef "$T/excludes"
like_mksquashfs "-all-root -force-uid -force-gid" "$S" -- -force-uid 7 -force-gid 8
like_mksquashfs "actions: exclude prune chmod uid gid" "$S" -- \
	-action 'exclude@name(*.h)' -action 'prune@subpathname(var)' \
	-action 'chmod(go-rwx)@type(f) && size(>4K)' -action 'uid(42)@pathname(usr/lib/*)' \
	-action 'gid(43)@perm(/o+x) && !type(l)' -action 'fragment(libs)@name(*.so)'
like_mksquashfs "actions: ||, brackets and depth" "$S" -- \
	-action 'exclude@(name(main.c) || name(rcS)) && depth(>1)'
printf '# comment\nexclude@\\\ntype(p)\n' > "$T/actions"
like_mksquashfs "-action-file" "$S" -- -action-file "$T/actions"
like_mksquashfs "-p without a time (with -all-time)" "$S" -- -p 'new d 711 1 2' -all-time 99
tar -C "$S" -cf "$T/s.tar" etc usr
mksquashfs - "$T/m.img" -tar -noappend -quiet -no-progress -root-time 3 < "$T/s.tar" > /dev/null 2>&1
mkfs.squashfs -quiet -noappend - "$T/o.img" -tar -root-time 3 < "$T/s.tar"
image_tree "$T/m.img" "$T/m.man" && image_tree "$T/o.img" "$T/o.man"
ok "-tar: the tar on stdin gives mksquashfs' tree" diff "$T/m.man" "$T/o.man"

# --- bad actions name the problem -----------------------------------------
bad_action() {
	mkfs.squashfs "$S" "$T/r.img" -noappend -action "$1" > /dev/null 2> "$T/r.err"
	is "$?" 2 "bad action '$1': exit 2"
	ok "bad action '$1': the message says '$2'" grep -qF -- "$2" "$T/r.err"
}
bad_action 'frobnicate@true' "unknown or unsupported action 'frobnicate'"
bad_action 'exclude@colour(red)' "unknown or unsupported test 'colour'"
bad_action 'exclude@name(a' "expected ',' or ')'"
bad_action 'exclude name(a)' "expected '@'"
bad_action 'exclude@type(q)' "type(q): not one of"
bad_action 'chmod(999)@true' "chmod(999)"
bad_action 'exclude@size(lots)' "not a number"
bad_action 'exclude@true &&' "ends too early"
bad_action 'exclude@(true' "missing ')'"
bad_action 'uid(nosuchuser0)@true' "nosuchuser0"
mkfs.squashfs "$S" "$T/r.img" -noappend -action-file <(printf 'exclude@true\nexclude@bad(\n') \
	> /dev/null 2> "$T/r.err"
ok "a bad action file line names FILE:LINE" grep -qE ':2: .*bad' "$T/r.err"
mkfs.squashfs "$S" "$T/l.img" -noappend -quiet -true-action 'exclude@name(main.h)' > "$T/l.out"
ok "-true-action logs where the expression is true" grep -q '^action: /usr/lib/main.h: true' "$T/l.out"
is "$(grep -c 'false' "$T/l.out")" 0 "-true-action logs nothing false"

done_testing
