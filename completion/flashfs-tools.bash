# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# Bash completion for flashfs (its subcommands and their options) and every
# builder of flashfs-tools.  The words come from each program's own --help
# when completing, so they follow the installed version with nothing to
# keep in step by hand.  `make install` puts this file in bash-completion's
# completions folder as `flashfs`, with a link per other program name.
# Everything that is not an option or a subcommand completes as a file name
# (-o default).

# The options a help text names: -x and --long words, one each.
_flashfs_tools_opts()
{
	"$@" --help 2>&1 | grep -oE '(^|[[:space:],[])--?[A-Za-z0-9][A-Za-z0-9_-]*' |
		sed 's/^[[:space:],[]*//' | sort -u
}

# The subcommands `flashfs --help` lists under "commands:".
_flashfs_tools_cmds()
{
	"$1" --help 2>&1 | awk '/^commands:/ { c = 1; next } c && /^  [a-z]/ { print $1 } c && /^$/ { exit }'
}

_flashfs_tools()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prog=${COMP_WORDS[0]} sub="" i

	COMPREPLY=()
	if [ "${prog##*/}" != flashfs ]; then
		[[ $cur == -* ]] && COMPREPLY=($(compgen -W "$(_flashfs_tools_opts "$prog")" -- "$cur"))
		return 0
	fi
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		--offset | --cache-size) i=$((i + 1)) ;;
		-*) ;;
		*) sub=${COMP_WORDS[i]}; break ;;
		esac
	done
	if [ -z "$sub" ]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "--help --version --offset --cache-size" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$(_flashfs_tools_cmds "$prog")" -- "$cur"))
		fi
	elif [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_flashfs_tools_opts "$prog" "$sub")" -- "$cur"))
	fi
	return 0
}

complete -o bashdefault -o default -F _flashfs_tools flashfs mount.fuse.flashfs \
	mkfs.squashfs mkfs.yaffs2 mkfs.ubi mkfs.romfs \
	ffmkfs.cramfs ffmkfs.jffs2 ffmkfs.ubifs ffmkfs.erofs
