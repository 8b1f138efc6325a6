# ff_manifest DIR — one line per object below DIR, computable with busybox
# alone (the guest has no python), so the host and the guest make the same
# manifest the same way.  Sourced by bash on the host and by busybox sh in
# the guest.
#
#   path rawmode(hex) uid gid size mtime content rdev(hex major:minor) link
#
# content is the sha256 of a file ("unreadable" when reading it failed) or
# the target of a symlink; directory sizes
# and link counts differ between file systems and are left out; link names
# the first path (in byte order) of a hard-link group.
ff_manifest() {
	(
		cd "$1" || exit 2
		LC_ALL=C find . -mindepth 1 | LC_ALL=C sort | while IFS= read -r p; do
			# shellcheck disable=SC2046
			set -- $(stat -c '%f %u %g %s %Y %h %i %t %T' "$p")
			case $1 in
			4???) size=- content=- ;;
			8???)
				size=$4
				content=$(sha256sum < "$p" | cut -d' ' -f1)
				content=${content:-unreadable}
				;;
			a???) size=$4 content=$(readlink "$p") ;;
			*) size=- content=- ;;
			esac
			case $1 in
			2???|6???) rdev=$8:$9 ;;
			*) rdev=- ;;
			esac
			# the inode (field 10) is replaced by awk below, only for files
			# with more than one link (field 11)
			echo "$p $1 $2 $3 $size $5 $content $rdev $7 $6"
		done | LC_ALL=C awk '{
			link = "-"
			if ($10 > 1 && $2 !~ /^4/) {
				if (!($9 in first)) first[$9] = $1
				link = first[$9]
			}
			print $1, $2, $3, $4, $5, $6, $7, $8, link
		}'
	)
}
