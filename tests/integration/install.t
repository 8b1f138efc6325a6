#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# `make install` as a distribution stages it (issue 32): programs in bin,
# mount.fuse.flashfs in sbin where mount(8) looks, every man page (and the
# subcommand pages as links to flashfs(1)) rendering without a warning, the
# bash completion for every program and subcommand, the JSON schemas, the
# ldconfig hint for a staged install, and `make uninstall` taking it all
# away again.  (libflashfs.t checks the library, headers and flashfs.pc.)
. "$(dirname "$0")/../lib.sh"

R=$T/root
# Run make in the tree as a user would, not as part of the make running us;
# under `make asan check` with the asan goal, so nothing is rebuilt plain.
goals=()
case $FF_BUILD in */asan) goals=(asan) ;; esac
top_make() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$FF_TOP" BUILD="$FF_BUILD" \
		PREFIX=/usr DESTDIR="$R" "${goals[@]}" "$@"
}
top_make install > "$T/install.out" 2>&1
is "$?" 0 "make install DESTDIR=... PREFIX=/usr"
ok "a staged install prints the ldconfig hint" grep -q "run ldconfig on the target" "$T/install.out"

progs=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$FF_TOP" -pn BUILD="$FF_BUILD" 2> /dev/null |
	sed -n 's/^PROGRAMS := //p' | head -n 1)
[ -n "$progs" ] || progs=$(ls "$FF_BIN")
for p in $progs; do
	if [ "$p" = mount.fuse.flashfs ]; then
		ok "$p in /usr/sbin" test -x "$R/usr/sbin/$p"
		ok "... and not in /usr/bin" test ! -e "$R/usr/bin/$p"
	else
		ok "$p in /usr/bin" test -x "$R/usr/bin/$p"
	fi
done
is "$("$R/usr/bin/flashfs" --version)" "$("$FF_BIN/flashfs" --version)" "the installed flashfs runs: --version"
is "$("$R/usr/sbin/mount.fuse.flashfs" --version | sed 's/^[^ ]* //')" \
	"$("$R/usr/bin/flashfs" --version | sed 's/^[^ ]* //')" "mount.fuse.flashfs --version: the same version"

# Man pages: every one renders without a warning; the subcommands have one.
M=$R/usr/share/man
for s in info ls cat check scan formats extract diff mount bench flash dump; do
	ok "man page flashfs-$s.1" test -e "$M/man1/flashfs-$s.1"
done
ok "man page mount.fuse.flashfs.8" test -f "$M/man8/mount.fuse.flashfs.8"
if command -v man > /dev/null; then
	for f in "$M"/man*/*; do
		w=$(cd "$M" && MANWIDTH=80 man --warnings -l "$f" 2>&1 > /dev/null)
		is "$w" "" "man -l $(basename "$f"): no warning"
	done
else
	skip "man (man-db) not installed" "man pages render"
fi

# Bash completion: one script, a name per program, and it completes.
C=$(ls -d "$R"/usr/share/bash-completion/completions 2> /dev/null)
ok "completion installed as flashfs" test -f "$C/flashfs"
for p in $progs; do
	[ "$p" = flashfs ] || ok "completion for $p" test -e "$C/$p"
done
comp() { # WORDS... — what the installed completion offers for the last word
	PATH="$R/usr/bin:$R/usr/sbin:$PATH" bash --norc -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_flashfs_tools; printf "%s\n" "${COMPREPLY[@]}"' comp "$C/flashfs" "$@"
}
is "$(comp flashfs in)" "info" "flashfs in<TAB> completes the subcommand info"
is "$(comp flashfs "" | sort | tr '\n' ' ')" "bench cat check diff dump extract flash formats info ls mount scan " \
	"flashfs <TAB> lists every subcommand"
comp flashfs extract -- | grep -qx -- --force
is "$?" 0 "flashfs extract --<TAB> offers --force"
comp mkfs.squashfs -no | grep -qx -- -noappend
is "$?" 0 "mkfs.squashfs -no<TAB> offers -noappend"
is "$(comp flashfs --offset 1M ch)" "check" "after a global option: ch<TAB> is check"
PATH="$R/usr/bin:$PATH" bash --norc -c '. "$1" && complete -p mkfs.yaffs2' comp "$C/flashfs" > /dev/null
is "$?" 0 "sourcing it registers the builders too"

# The JSON schemas.
n=$(ls "$FF_TOP"/docs/schemas/*.json | wc -l)
is "$(ls "$R"/usr/share/flashfs-tools/schemas/*.json | wc -l)" "$n" "all $n JSON schemas installed"
ok "the schemas are JSON" sh -c 'for f in "$1"/*.json; do python3 -m json.tool "$f" > /dev/null || exit 1; done' \
	sh "$R/usr/share/flashfs-tools/schemas"

top_make uninstall > "$T/uninstall.out" 2>&1
is "$?" 0 "make uninstall"
is "$(find "$R" ! -type d | sed "s|^$R||")" "" "make uninstall leaves no file or link behind"
done_testing
