#!/usr/bin/env bash
# Prints the path of a Debian 12 root file system for the package tests'
# containers, made once with debootstrap and kept in $BOARDD_NSPAWN_ROOT
# (default /var/tmp/boardd-nspawn-bookworm). Callers copy it, never change it.
#
#   deploy/nspawn-root.sh     (root; needs debootstrap)
set -euo pipefail
[ "$(id -u)" = 0 ] || { echo "nspawn-root: needs root" >&2; exit 2; }
base=${BOARDD_NSPAWN_ROOT:-/var/tmp/boardd-nspawn-bookworm}
if [ ! -x "$base/usr/lib/systemd/systemd" ]; then
	command -v debootstrap >/dev/null || { echo "nspawn-root: needs debootstrap (apt-get install debootstrap)" >&2; exit 2; }
	echo "debootstrap bookworm into $base" >&2
	rm -rf "$base.partial"
	debootstrap --variant=minbase --include=systemd,systemd-sysv,dbus,procps bookworm "$base.partial" \
		http://deb.debian.org/debian >/dev/null
	rm -rf "$base"
	mv "$base.partial" "$base"
fi
echo "$base"
