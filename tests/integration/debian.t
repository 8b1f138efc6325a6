#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# debian/ and contrib/ agree with the tree (issue 32), without building a
# package (scripts/fresh-check builds and installs them, scripts/deb-smoke
# uses them): one version everywhere, the library package named after the
# soname, every program with a man page, every -dev package of
# scripts/install-deps in Build-Depends, debian/copyright giving each file
# the licence of its SPDX line, the contrib recipes building every builder
# and naming the licence files by their checksums.
. "$(dirname "$0")/../lib.sh"
command -v python3 > /dev/null || skip_all "python3 not installed"
cd "$FF_TOP" || exit 2

version=$(sed -n 's/^#define FF_VERSION_STRING "\(.*\)"/\1/p' include/flashfs/version.h)
major=$(sed -n 's/^#define FF_VERSION_MAJOR \([0-9]*\)/\1/p' include/flashfs/version.h)
is "$(dpkg-parsechangelog -S Version 2> /dev/null ||
      sed -n '1s/^flashfs-tools (\([^)]*\)).*/\1/p' debian/changelog)" "$version" \
	"debian/changelog's version is FF_VERSION_STRING"
ok "debian/control has libflashfs$major, the soname's major" \
	grep -qx "Package: libflashfs$major" debian/control
ok "libflashfs$major.install exists" test -f "debian/libflashfs$major.install"
ok "the symbols file names libflashfs.so.$major" \
	grep -q "^libflashfs.so.$major libflashfs$major " "debian/libflashfs$major.symbols"
ok "the symbols file names the map's version nodes" \
	sh -c 'for n in $(grep -oE "^FLASHFS_[0-9.]+" libflashfs.map); do
		grep -q "(symver)$n " debian/libflashfs'"$major"'.symbols || { echo "no $n"; exit 1; }; done'
is "$(cat debian/compat 2> /dev/null; grep -o 'debhelper-compat (= [0-9]*)' debian/control)" \
	"debhelper-compat (= 13)" "debhelper compat 13, set in debian/control only"

# The programs, from the module.mk files the Makefile reads.
programs=$(sed -n 's/^PROGRAMS += //p' */module.mk | tr ' ' '\n' | grep . | sort)
builders=$(echo "$programs" | grep -E '^(ff)?mkfs\.')
is "$(echo "$programs" | wc -l)" 10 "ten programs (the list the checks below walk)"
missing=""
for p in $programs; do
	# A man page is the program's own, or one whose NAME section lists it.
	ls docs/man/"$p".[1-8] > /dev/null 2>&1 && continue
	grep -lqE "^$(echo "$p" | sed 's/\./\\./g')(,| \\\\-)|, $(echo "$p" | sed 's/\./\\./g') \\\\-" \
		docs/man/*.[1-8] 2> /dev/null || missing="$missing $p"
done
is "$missing" "" "every program has a man page (its own, or named in one's NAME line)"

# Build-Depends: every -dev package the build's deps script installs.
bdeps=$(sed -n '/^Build-Depends:/,/^[A-Z]/p' debian/control)
missing=""
for d in $(grep -oE '[a-z0-9.+-]+-dev\b' scripts/install-deps | sort -u); do
	case $d in libclang-rt-*) continue ;; esac # the fuzzers' runtime, not the build's
	echo "$bdeps" | grep -qE "(^|[ ,])$d([ ,(<]|$)" || missing="$missing $d"
done
is "$missing" "" "Build-Depends lists every -dev package of scripts/install-deps"

# debian/copyright: the last matching Files stanza (DEP-5) gives each file
# the licence its SPDX line names.
cat > "$T/dep5.py" << 'EOF'
import fnmatch, re, subprocess, sys
stanzas, cur = [], None
for line in open('debian/copyright'):
    if line.startswith('Files:'):
        cur = {'files': line.split(':', 1)[1].split(), 'lic': None}
        stanzas.append(cur)
    elif cur is not None and line[:1] in ' \t' and cur['lic'] is None:
        cur['files'] += line.split()
    elif cur is not None and line.startswith('License:'):
        cur['lic'] = line.split(':', 1)[1].strip()
        cur = None
want = {'GPL-2.0-or-later': 'GPL-2+', 'LGPL-2.1-or-later': 'LGPL-2.1+'}
bad = 0
# the tracked files, or every file of an unpacked tarball
for path in subprocess.check_output(['scripts/spdx-headers', '--files'], text=True).split('\n'):
    if not path:
        continue
    try:
        head = open(path, errors='replace').read(400)
    except (IsADirectoryError, FileNotFoundError):
        continue
    m = re.search(r'SPDX-License-Identifier: ([A-Za-z0-9.+-]+)', head)
    if not m or m.group(1) not in want:
        continue
    lic = None
    for s in stanzas:
        if any(fnmatch.fnmatchcase(path, g) for g in s['files']):
            lic = s['lic']
    if lic != want[m.group(1)]:
        print('%s: SPDX %s, debian/copyright %s' % (path, m.group(1), lic))
        bad += 1
sys.exit(1 if bad else 0)
EOF
ok "debian/copyright gives every file its SPDX licence" python3 "$T/dep5.py"

# scripts/deb-smoke builds an image with every builder.
missing=""
for b in $builders; do
	grep -qE "check \"$b builds an image\" $b " scripts/deb-smoke || missing="$missing $b"
done
is "$missing" "" "deb-smoke builds an image with every builder"
ok "fresh-check builds the packages and runs deb-smoke" \
	sh -c 'grep -q "dpkg-buildpackage -us -uc -b" scripts/fresh-check && grep -q "scripts/deb-smoke" scripts/fresh-check'

# contrib/: the version, the builders, the licence files.
is "$(sed -n 's/^FLASHFS_TOOLS_VERSION = //p' contrib/buildroot/package/flashfs-tools/flashfs-tools.mk)" \
	"$version" "Buildroot's FLASHFS_TOOLS_VERSION"
ok "the Yocto recipe is named for the version" test -f "contrib/yocto/flashfs-tools_$version.bb"
is "$(sed -n 's/^PKG_VERSION:=//p' contrib/openwrt/tools/flashfs-tools/Makefile)" "$version" \
	"OpenWrt's PKG_VERSION"
ok "the Yocto recipe has BBCLASSEXTEND = \"native\"" \
	grep -q '^BBCLASSEXTEND = "native"' "contrib/yocto/flashfs-tools_$version.bb"
for f in COPYING COPYING.LIB; do
	ok "the Yocto recipe's LIC_FILES_CHKSUM has $f's md5" \
		grep -q "file://$f;md5=$(md5sum < $f | cut -d' ' -f1)" "contrib/yocto/flashfs-tools_$version.bb"
done
words() { tr -s ' \t\\"' '\n' | grep -E '^(ff)?mkfs\.[a-z0-9]+$' | sort -u; }
is "$(sed -n '/^HOST_FLASHFS_TOOLS_PROGRAMS/,/^$/p' contrib/buildroot/package/flashfs-tools/flashfs-tools.mk | words)" \
	"$builders" "Buildroot's package installs every builder"
is "$(sed -n '/^FLASHFS_PROGRAMS/,/"$/p' "contrib/yocto/flashfs-tools_$version.bb" | words)" \
	"$builders" "the Yocto recipe installs every builder"
is "$(sed -n '/^FLASHFS_PROGRAMS/,/^$/p' contrib/openwrt/tools/flashfs-tools/Makefile | words)" \
	"$builders" "OpenWrt's tool installs every builder"
done_testing
