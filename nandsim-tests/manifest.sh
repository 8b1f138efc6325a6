# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# ff_manifest DIR — one line per object below DIR, computable with busybox
# alone (the guest has no python), so the host and the guest make the same
# manifest the same way.  Sourced by bash on the host and by busybox sh in
# the guest.
#
#   path rawmode(hex) uid gid size mtime content rdev(hex major:minor) link
#
# content is the sha256 of a file ("unreadable" when reading it failed) or
# the target of a symlink; directory sizes and link counts differ between
# file systems and are left out; link names the first path (in byte order)
# of a hard-link group.  Names must not contain white space (the test trees
# are generated).  A handful of processes per tree, not per object: forks
# are what is slow in an emulated guest.
ff_manifest() {
	(
		cd "$1" || exit 2
		tmp=$(mktemp -d "${TMPDIR:-/tmp}/ffm.XXXXXX") || exit 2
		LC_ALL=C find . -mindepth 1 | LC_ALL=C sort > "$tmp/list"
		xargs stat -c '%n %f %u %g %s %Y %h %i %t %T' < "$tmp/list" > "$tmp/stat"
		awk '$2 ~ /^8...$/ {print $1}' "$tmp/stat" | xargs -r sha256sum > "$tmp/sums" 2> /dev/null
		awk '$2 ~ /^a...$/ {print $1}' "$tmp/stat" | while IFS= read -r p; do
			echo "$p $(readlink "$p")"
		done > "$tmp/links"
		LC_ALL=C awk -v sums="$tmp/sums" -v links="$tmp/links" '
			BEGIN {
				while ((getline l < sums) > 0) { split(l, f, " "); hash[f[2]] = f[1] }
				while ((getline l < links) > 0) { split(l, f, " "); target[f[1]] = f[2] }
			}
			{
				size = "-"; content = "-"; rdev = "-"; link = "-"
				if ($2 ~ /^8...$/) {
					size = $5
					content = ($1 in hash) ? hash[$1] : "unreadable"
				} else if ($2 ~ /^a...$/) {
					size = $5
					content = target[$1]
				}
				if ($2 ~ /^[26]...$/)
					rdev = $9 ":" $10
				if ($7 > 1 && $2 !~ /^4...$/) {
					if (!($8 in first)) first[$8] = $1
					link = first[$8]
				}
				print $1, $2, $3, $4, size, $6, content, rdev, link
			}' "$tmp/stat"
		rm -rf "$tmp"
	)
}

# ff_xattrs DIR — every extended attribute below DIR, one "path name=0xVALUE"
# line each, sorted (getfattr walks in directory order, which differs
# between file systems).  Needs getfattr (the attr package; busybox has
# none): the guest gets the host's copy.
ff_xattrs() {
	(cd "$1" && getfattr -R -h -d -m - -e hex . 2> /dev/null) |
		awk '/^# file: / { f = substr($0, 9); next } /=/ { print f, $0 }' | LC_ALL=C sort
}
