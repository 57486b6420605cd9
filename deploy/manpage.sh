#!/usr/bin/env bash
# Writes boardd's manual page (roff) to standard output, made from the
# binary's own help, so the page says what the binary does:
#
#   deploy/manpage.sh BIN VERSION
#
# The date is SOURCE_DATE_EPOCH's (default: the commit time), so the page
# is reproducible.
set -euo pipefail
bin=${1:?usage: manpage.sh BIN VERSION}
version=${2:?usage: manpage.sh BIN VERSION}
epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 0)}
date=$(date -u -d "@$epoch" +%Y-%m-%d)

# roff treats a backslash as an escape and a line starting with . or ' as
# a request: escape both, and keep the help's layout with no filling.
verbatim() {
	echo ".nf"
	sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/" -e 's/^-/\\-/' -e 's/ -/ \\-/g'
	echo ".fi"
}

help=$("$bin" help)
commands=$(awk '/^commands:/{on=1; next} on && /^  [a-z]/{print $1} on && /^$/{on=0}' <<<"$help")
[ -n "$commands" ] || { echo "manpage.sh: '$bin help' lists no commands" >&2; exit 1; }

cat <<ROFF
.TH BOARDD 1 "$date" "boardd $version" "User Commands"
.SH NAME
boardd \\- electronic chess board daemon
.SH SYNOPSIS
.B boardd
.I command
.RI [ flags ]
.RI [ args ]
.SH DESCRIPTION
.B boardd
reads a chess board's sensors and clock on a Raspberry Pi, reconstructs the
moves, alerts the arbiter to irregularities under the FIDE Laws of Chess, and
publishes positions, moves, clocks and alerts over MQTT, web pages and live PGN.
The service runs
.BR "boardd run" ;
the other commands set a board up, check it, and run a venue.
.PP
ROFF
verbatim <<<"$help"
echo ".SH COMMANDS"
for c in $commands; do
	echo ".SS $c"
	# A command prints its usage and flags on standard error.
	"$bin" help "$c" 2>&1 | verbatim
done
cat <<'ROFF'
.SH FILES
.TP
.I /etc/boardd/boardd.toml
the configuration (every key with its default)
.TP
.I /etc/boardd/boardd.env
per-board BOARDD_<SECTION>_<KEY>=value settings and the broker password
.TP
.I /var/lib/boardd
the journal of every game
.SH SEE ALSO
.BR systemctl (1),
.BR journalctl (1),
.I /usr/share/doc/boardd/install.md
and
.IR /usr/share/doc/boardd/config.md .
ROFF
