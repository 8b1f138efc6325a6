#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# mkfs.ubi --squashfs DIR -- OPTIONS (issue 19 item 2): the words after --
# are mkfs.squashfs options, GNU or mksquashfs spelling.  Oracles: the UBI
# image must equal, byte for byte, mkfs.squashfs OPTIONS + mtd-utils'
# ubinize (same -p/-m/-s/-O/-Q) and, for the options mksquashfs 4.5.1
# shares and its codecs' bytes (gzip with our -X zlib, lz4, zstd),
# mksquashfs + ubinize.  Option sets: codecs and their -X options, block
# sizes, -e excludes, -all-root, -p pseudo lines, -all-time, -noappend
# (which changes nothing here), the old --squashfs-comp/-block-size
# aliases.  Bad words after -- exit 2 naming the word and leave no image.
# The volume read back with flashfs ls/extract --volume holds the source.
. "$(dirname "$0")/../lib.sh"
command -v ubinize > /dev/null || skip_all "ubinize (mtd-utils) not installed"
command -v mksquashfs > /dev/null || skip_all "mksquashfs not installed"

cd "$T" || exit 2
mkdir -p src/etc/init.d src/usr/bin src/var/empty src/skip
echo "root:x:0:0::/root:/bin/sh" > src/etc/passwd
printf '#!/bin/sh\necho start\n' > src/etc/init.d/rcS
chmod 755 src/etc/init.d/rcS
head -c 700000 /dev/urandom > src/usr/bin/big          # several blocks
seq 1 40000 > src/usr/bin/text                          # compressible
cp src/usr/bin/text src/usr/bin/text-copy               # a duplicate
ln src/etc/passwd src/etc/passwd.hard                   # a hard link
ln -s ../usr/bin/big src/etc/big-link
echo skipped > src/skip/file
echo also > src/etc/skip.txt
chown -R 1000:1000 src/usr
find src -exec touch -h -d @1500000000 {} +           # older than the epoch
export SOURCE_DATE_EPOCH=1600000000
GEOM=(-p 128KiB -m 2048 -s 512 -O 512 -Q 77)

# ubinize_one SQFS UBI — ubinize's image of one dynamic volume "rootfs"
# (ID 0) holding SQFS, the volume mkfs.ubi --squashfs adds.
ubinize_one() {
	printf '[rootfs]\nmode=ubi\nimage=%s\nvol_id=0\nvol_type=dynamic\nvol_name=rootfs\n' \
		"$1" > one.ini
	ubinize -o "$2" "${GEOM[@]}" one.ini > /dev/null 2>&1
}

# same NAME ORACLE OURS... [-- THEIRS...] — mkfs.ubi --squashfs src -- OURS
# against ORACLE (mkfs.squashfs: the same words; mksquashfs: THEIRS, or
# OURS when no THEIRS is given), each followed by ubinize.
same() {
	local name=$1 oracle=$2 ours=() theirs=() seen=
	shift 2
	for w in "$@"; do
		if [ "$w" = -- ] && [ -z "$seen" ]; then seen=1
		elif [ -n "$seen" ]; then theirs+=("$w")
		else ours+=("$w"); fi
	done
	[ -n "$seen" ] || theirs=("${ours[@]}")
	rm -f ours.ubi ref.sqfs ref.ubi
	if ! mkfs.ubi -o ours.ubi "${GEOM[@]}" --squashfs src -- "${ours[@]}" > ours.out 2>&1; then
		ok "$name: mkfs.ubi builds it" false
		cat ours.out >&2
		return
	fi
	case $oracle in
	mkfs.squashfs) mkfs.squashfs -q src ref.sqfs "${ours[@]}" ;;
	mksquashfs) mksquashfs src ref.sqfs -noappend -no-progress -quiet "${theirs[@]}" ;;
	esac > oracle.out 2>&1 || { ok "$name: $oracle builds it" false; cat oracle.out >&2; return; }
	ubinize_one ref.sqfs ref.ubi
	ok "$name: equals $oracle + ubinize ($(stat -c %s ours.ubi) bytes)" cmp ours.ubi ref.ubi
}

# Against mkfs.squashfs + ubinize: every codec, both spellings.
same "gzip, 64K blocks" mkfs.squashfs -comp gzip -b 64K
same "xz -Xbcj x86 -Xdict-size 50%, 256K" mkfs.squashfs -comp xz -Xbcj x86 -Xdict-size 50% -b 256K
same "lzo -no-fragments" mkfs.squashfs -comp lzo -no-fragments
same "lz4 -Xhc, -all-root" mkfs.squashfs -comp lz4 -Xhc -all-root
same "zstd level 19, 1M, -e two words" mkfs.squashfs -comp zstd -Xcompression-level 19 -b 1M -e skip etc/skip.txt
same "GNU spelling: --compressor lz4 --block-size 8K --exclude" mkfs.squashfs \
	--compressor lz4 --block-size 8K --exclude usr/bin/big --force-uid 7 --no-dedup
same "-p pseudo lines, -all-time, -root-mode" mkfs.squashfs -p "dev d 755 0 0" \
	-p "dev/console c 600 0 0 5 1" -all-time 1400000000 -root-mode 0750
same "-noI -noD -nopad -mkfs-time" mkfs.squashfs -noI -noD -nopad -mkfs-time 1234567890
same "--squashfs-comp/--squashfs-block-size aliases' option set" mkfs.squashfs -comp xz -b 512K
cp ours.ubi alias-ref.ubi
ok "--squashfs-comp xz --squashfs-block-size 512KiB: the same image" \
	mkfs.ubi -o alias.ubi "${GEOM[@]}" --squashfs src --squashfs-comp xz --squashfs-block-size 512KiB
ok "  ... byte for byte" cmp alias.ubi alias-ref.ubi
ok "an option after -- overrides the alias" \
	mkfs.ubi -o alias2.ubi "${GEOM[@]}" --squashfs src --squashfs-comp gzip -- -comp xz -b 512K
ok "  ... byte for byte" cmp alias2.ubi alias-ref.ubi

# Against mksquashfs 4.5.1 + ubinize (its gzip is zlib's: our -X zlib).
same "mksquashfs: gzip defaults" mksquashfs -X zlib --
same "mksquashfs: gzip 64K -all-root" mksquashfs -comp gzip -X zlib -b 64K -all-root \
	-- -comp gzip -b 64K -all-root
same "mksquashfs: lz4 -Xhc 256K" mksquashfs -comp lz4 -Xhc -b 256K
same "mksquashfs: zstd -Xcompression-level 3, -e" mksquashfs -comp zstd -Xcompression-level 3 \
	-e skip etc/skip.txt usr/bin/big
# mksquashfs refuses SOURCE_DATE_EPOCH together with -all-time/-mkfs-time
unset SOURCE_DATE_EPOCH
same "mksquashfs: -p pseudo lines, -all-time, -mkfs-time" mksquashfs -comp lz4 \
	-p "dev d 755 0 0" -p "dev/console c 600 0 0 5 1" -all-time 1400000000 -mkfs-time 1500000000
export SOURCE_DATE_EPOCH=1600000000
same "mksquashfs: -no-duplicates -noX -noI" mksquashfs -comp lz4 -no-duplicates -noX -noI
same "mksquashfs: -no-fragments" mksquashfs -comp lz4 -no-fragments
same "mksquashfs: -noappend changes nothing" mksquashfs -comp lz4 -noappend -- -comp lz4
cp ours.ubi noappend.ubi
mkfs.ubi -o plain.ubi "${GEOM[@]}" --squashfs src -- -comp lz4
ok "  ... with and without -noappend: the same image" cmp noappend.ubi plain.ubi

# Bad words after --: exit 2, the word in the message, no image.
bad() {
	local name=$1 want=$2 out rc
	shift 2
	rm -f bad.ubi
	out=$(mkfs.ubi -o bad.ubi "${GEOM[@]}" --squashfs src -- "$@" 2>&1)
	rc=$?
	is "$rc" 2 "bad: $name: exit 2"
	case $out in
	*"$want"*) ok "bad: $name: the message names '$want'" true ;;
	*) ok "bad: $name: the message names '$want' (got: $out)" false ;;
	esac
	ok "bad: $name: no image" test ! -e bad.ubi
}
bad "unknown mksquashfs word" "-bogus" -comp lz4 -bogus
bad "unknown GNU option" "--no-such-option" --no-such-option
bad "missing value" "-b" -comp lz4 -b
bad "block size" "3K" -b 3K
bad "codec" "nope" -comp nope
bad "codec option" "dict-size" -comp gzip -Xdict-size 50%
bad "refused mksquashfs word" "-stream" -comp lz4 -stream
bad "a SOURCE after --" "extra" -comp lz4 extra
bad "an -ef file that does not exist" "nosuchfile" -ef nosuchfile

# -info lists the tree on standard output, as mkfs.squashfs -info does.
mkfs.ubi -q -o info.ubi "${GEOM[@]}" --squashfs src -- -comp lz4 -info > info.out 2>&1
mkfs.squashfs -q src info.sqfs -comp lz4 -info > info.ref 2>&1
ok "-info after --: the lines mkfs.squashfs -info prints" sh -c 'grep -q "^/etc/passwd: " info.ref && cmp info.out info.ref'
# Without --squashfs, -- only ends the options (ubinize's meaning).
mkfs.squashfs -q --noappend src plain.sqfs
printf '[r]\nmode=ubi\nimage=plain.sqfs\nvol_id=0\nvol_name=r\n' > plain.ini
ok "no --squashfs: -- INI-FILE" mkfs.ubi -o dd.ubi "${GEOM[@]}" -- plain.ini
ubinize -o dd-ref.ubi "${GEOM[@]}" plain.ini > /dev/null 2>&1
ok "  ... equals ubinize" cmp dd.ubi dd-ref.ubi

# Read back: the volume as flashfs sees it is the source tree.
mkfs.ubi -o read.ubi "${GEOM[@]}" --squashfs src -- -comp xz -b 64K > /dev/null 2>&1
is "$(flashfs ls --volume rootfs read.ubi /etc | LC_ALL=C sort | tr '\n' ' ')" \
	"$(cd src/etc && ls -A | LC_ALL=C sort | tr '\n' ' ')" "flashfs ls --volume rootfs /etc: the source's names"
ok "flashfs extract --volume 0" flashfs extract --no-progress --volume 0 -C out read.ubi
same_manifest "extracted volume: the source tree (owners, modes, times, hard links)" src out
mkfs.ubi -o read2.ubi "${GEOM[@]}" --squashfs src -- -comp lz4 -all-root -e skip etc/skip.txt > /dev/null 2>&1
flashfs extract --no-progress --volume rootfs -C out2 read2.ubi > /dev/null 2>&1
rm -rf want && cp -a src want && rm -rf want/skip want/etc/skip.txt && chown -R 0:0 want &&
	touch -d @1500000000 want want/etc
same_manifest "extracted volume with -all-root -e: the source without skip/, owned by root" want out2
# kill -9 while the volume is being built: it is an unnamed file in
# $TMPDIR, so nothing is left there (nor an output image).
mkdir -p big tmpk
head -c 24M /dev/urandom > big/blob
TMPDIR=$PWD/tmpk mkfs.ubi -o killed.ubi "${GEOM[@]}" --squashfs big -- -comp xz -Xbcj x86 \
	-processors 1 > /dev/null 2>&1 &
pid=$!
n=0
while [ $n -lt 200 ] && ! ls -l "/proc/$pid/fd" 2> /dev/null | grep -q " $PWD/tmpk/#[0-9]* (deleted)$"; do
	sleep 0.05
	n=$((n + 1))
done
ok "while building, the volume is an unnamed file in \$TMPDIR" \
	sh -c "ls -l /proc/$pid/fd 2> /dev/null | grep -q ' $PWD/tmpk/#[0-9]* (deleted)\$'"
is "$(ls -A tmpk)" "" "while building, no name in \$TMPDIR"
kill -9 "$pid"
wait "$pid" 2> /dev/null
is "$(ls -A tmpk)" "" "kill -9 mid-build: nothing left in \$TMPDIR"
ok "kill -9 mid-build: no output image" test ! -e killed.ubi
TMPDIR=$PWD/tmpk mkfs.ubi -o done.ubi "${GEOM[@]}" --squashfs src > /dev/null 2>&1
is "$(ls -A tmpk)" "" "a finished build leaves nothing in \$TMPDIR either"
ok "  ... and writes its image" test -s done.ubi
done_testing
