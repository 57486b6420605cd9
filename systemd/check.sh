#!/usr/bin/env bash
# Checks systemd/boardd.service with the host's systemd:
#  - systemd-analyze verify prints nothing, for the unit alone and with the
#    DGT3000 drop-in (deploy/dgt3000-bsc.conf);
#  - systemd-analyze security --offline=yes rates the unit's exposure at
#    most 2.0 (the drop-in's rating is printed, not limited: it runs as root
#    by design).
#
#   systemd/check.sh [BINARY]
#
# BINARY stands in for /usr/bin/boardd, which verify wants to exist; default:
# built from ./cmd/boardd.
set -euo pipefail
cd "$(dirname "$0")/.."
max=2.0

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=${1:-}
if [ -z "$bin" ]; then
	go build -o "$work/boardd" ./cmd/boardd
	bin=$work/boardd
fi
bin=$(realpath "$bin")

fail=0
verify() { # verify NAME DIR
	local out
	out=$(SYSTEMD_UNIT_PATH="$2:" systemd-analyze verify "$2/boardd.service" 2>&1) || true
	if [ -n "$out" ]; then
		echo "FAIL systemd-analyze verify ($1):"
		echo "$out"
		fail=1
	else
		echo "ok   systemd-analyze verify ($1): clean"
	fi
}
exposure() { # exposure DIR -> the number
	SYSTEMD_UNIT_PATH="$1:" systemd-analyze security --offline=yes "$1/boardd.service" |
		sed -n 's/.*Overall exposure level for boardd.service: \([0-9.]*\).*/\1/p'
}

mkdir "$work/unit"
sed "s#/usr/bin/boardd#$bin#" systemd/boardd.service >"$work/unit/boardd.service"
verify unit "$work/unit"
score=$(exposure "$work/unit")
if [ -z "$score" ]; then
	echo "FAIL systemd-analyze security printed no exposure level"
	fail=1
elif awk "BEGIN{exit !($score <= $max)}"; then
	echo "ok   systemd-analyze security --offline=yes: exposure $score (at most $max)"
else
	systemd-analyze security --offline=yes "$work/unit/boardd.service" | grep '✗' || true
	echo "FAIL systemd-analyze security --offline=yes: exposure $score, above $max"
	fail=1
fi

mkdir -p "$work/bsc/boardd.service.d"
cp "$work/unit/boardd.service" "$work/bsc/"
cp deploy/dgt3000-bsc.conf "$work/bsc/boardd.service.d/"
verify "with dgt3000-bsc.conf" "$work/bsc"
echo "info exposure with dgt3000-bsc.conf (root, CAP_SYS_RAWIO, /dev/mem): $(exposure "$work/bsc")"
exit $fail
