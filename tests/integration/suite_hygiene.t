#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# The suite's own rules, checked over every test script: a script that
# sets its own EXIT trap must still call lib.sh's _tap_cleanup from it
# (else its scratch directory is left in /tmp after every run: three
# scripts did, found in CI's fresh root), and every script states its
# plan (done_testing, `plan N`, or a nandsim-tests/ script that prints the
# TAP), so a script that stops early is a failure, not a short pass.  The
# checker must find a planted script of each kind.
. "$(dirname "$0")/../lib.sh"

# lint FILE... — prints "FILE: problem" for each rule broken
lint() {
	awk '
		FNR == 1 { if (prev != "" && !done) print prev ": no plan"; prev = FILENAME; done = 0 }
		/^[ \t]*trap / && /EXIT/ && !/_tap_cleanup/ && !/^[ \t]*trap -/ {
			name = $0
			sub(/.*trap[ \t]+/, "", name); sub(/[ \t]+EXIT.*/, "", name); gsub(/\x27/, "", name)
			# a named function: look for _tap_cleanup in its body
			if (name ~ /^[A-Za-z_][A-Za-z_0-9]*$/) fn[FILENAME] = fn[FILENAME] " " name
			else print FILENAME ":" FNR ": EXIT trap without _tap_cleanup"
		}
		/^[A-Za-z_][A-Za-z_0-9]*\(\)/ { cur = $0; sub(/\(\).*/, "", cur) }
		/_tap_cleanup/ && cur != "" { calls[FILENAME " " cur] = 1 }
		/^}/ { cur = "" }
		/^(done_testing|plan [0-9])/ || /nandsim-tests\// { done = 1 }
		END {
			if (prev != "" && !done) print prev ": no plan"
			for (f in fn) {
				n = split(fn[f], names, " ")
				for (i = 1; i <= n; i++)
					if (!((f " " names[i]) in calls)) print f ": EXIT trap " names[i] " without _tap_cleanup"
			}
		}' "$@"
}

out=$(cd "$FF_TOP" && lint tests/integration/*.t)
is "$out" "" "every test script keeps lib.sh's cleanup and states its plan"

mkdir "$T/p"
printf '. lib.sh\ntrap "umount x" EXIT\ndone_testing\n' > "$T/p/a.t"
printf '. lib.sh\ngone() {\n\trm -f y\n}\ntrap gone EXIT\ndone_testing\n' > "$T/p/b.t"
printf '. lib.sh\ngood() {\n\t_tap_cleanup\n}\ntrap good EXIT\ndone_testing\n' > "$T/p/c.t"
printf '. lib.sh\nok "x" true\n' > "$T/p/d.t"
is "$(cd "$T/p" && lint a.t b.t c.t d.t | sort | tr '\n' '|')" \
	"a.t:2: EXIT trap without _tap_cleanup|b.t: EXIT trap gone without _tap_cleanup|d.t: no plan|" \
	"planted scripts: a trap command, a trap function, no plan (and a good function passes)"
done_testing
