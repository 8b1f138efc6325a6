# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# host-begin.sh TAG "$@" — sourced first by the host halves of the guest
# checks (jffs2-check.sh, romfs-kernel-check.sh, ubifs-build-check.sh,
# ubifs-kernel-check.sh, nandsim-check.sh): their common options,
# -b BINDIR (our programs, default build/bin), -w WORKDIR (default
# build/nandsim) and -s SUITE (the caller's default in $suite), made
# absolute, with $host_usage printed for a bad option; manifest.sh loaded; and a
# scratch directory $scratch under WORKDIR/tmp named after TAG and the
# suite, removed at exit unless NANDSIM_KEEP is set.  Sets here, top,
# bindir, work, suite, scratch.
# shellcheck shell=bash
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
bindir=${FF_BIN:-$top/build/bin}
work=$top/build/nandsim
suite=${suite:-}
host_tag=$1
shift
OPTIND=1
while getopts b:w:s: opt; do
	case $opt in
	b) bindir=$OPTARG ;;
	w) work=$OPTARG ;;
	s) suite=$OPTARG ;;
	*) [ -n "${host_usage:-}" ] && echo "$host_usage" >&2; exit 2 ;;
	esac
done
[ -d "$bindir" ] || { echo "$host_tag: no $bindir (build first)" >&2; exit 2; }
bindir=$(cd "$bindir" && pwd)
mkdir -p "$work/tmp"
work=$(cd "$work" && pwd)
# shellcheck source=nandsim-tests/manifest.sh
. "$here/manifest.sh"
# per run: several build directories may run the same check at once
# (NANDSIM_KEEP=1 keeps it for a look, or a rerun by hand)
scratch=$(mktemp -d "$work/tmp/$host_tag${suite:+-${suite// /-}}.XXXXXX")
[ -z "${NANDSIM_KEEP:-}" ] && trap 'rm -rf "$scratch"' EXIT
