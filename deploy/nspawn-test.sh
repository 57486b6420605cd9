#!/usr/bin/env bash
# Tests a boardd .deb under a real systemd: boots Debian 12 in a
# systemd-nspawn container (root file system made once with debootstrap and
# kept in $BOARDD_NSPAWN_ROOT, default /var/tmp/boardd-nspawn-bookworm), and
# checks that
#  - a fresh install enables the unit without starting it;
#  - the service runs under its sandbox (user boardd in gpio/i2c/spi, no
#    capabilities, no new privileges, seccomp) and the Go runtime, its
#    listeners and its connections work inside it;
#  - with 'boardd run' present: Type=notify start (READY=1), a watchdog that
#    keeps being fed, /healthz answering; without it, 'boardd relay' stands in
#    as the long-running process (Type=exec);
#  - an upgrade restarts a running service, a removal stops it, a fresh
#    install with /etc/boardd/boardd.env starts it and passes the variables.
# Device allow-lists are not checked: the container's devices are not a Pi's.
#
#   deploy/nspawn-test.sh DEB     (root; needs debootstrap, systemd-container)
#
# BOARDD_NSPAWN_JOURNAL=FILE keeps the service's journal of the first run.
set -euo pipefail
cd "$(dirname "$0")/.."

deb=$(realpath "${1:?usage: deploy/nspawn-test.sh boardd_VERSION_ARCH.deb}")
[ "$(id -u)" = 0 ] || { echo "nspawn-test: needs root" >&2; exit 2; }
for c in debootstrap systemd-nspawn nsenter curl; do
	command -v "$c" >/dev/null || { echo "nspawn-test: needs $c (apt-get install debootstrap systemd-container curl)" >&2; exit 2; }
done

base=$(deploy/nspawn-root.sh)

fails=0
ok() { printf '  ok   %s\n' "$*"; }
bad() { printf '  FAIL %s\n' "$*"; fails=$((fails + 1)); }
expect() { # expect DESCRIPTION COMMAND...
	local what=$1
	shift
	if "$@" >/dev/null 2>&1; then ok "$what"; else bad "$what"; fi
}

work=$(mktemp -d /var/tmp/boardd-nspawn.XXXXXX)
root=$work/root
nspawn=
cleanup() {
	if [ -n "$nspawn" ] && kill -0 "$nspawn" 2>/dev/null; then
		inside systemctl poweroff >/dev/null 2>&1 || kill "$nspawn"
		for _ in $(seq 50); do kill -0 "$nspawn" 2>/dev/null || break; sleep 0.2; done
	fi
	rm -rf "$work"
}
trap cleanup EXIT
cp -a "$base" "$root"
cp "$deb" "$root/root/boardd.deb"

# Without systemd on the host: no machine registration, no scope; a unified
# cgroup hierarchy as on Raspberry Pi OS.
SYSTEMD_NSPAWN_UNIFIED_HIERARCHY=1 systemd-nspawn -q -D "$root" --register=no --keep-unit \
	-b --console=pipe >"$work/console.log" 2>&1 &
nspawn=$!
# The container's init is the child of systemd-nspawn that runs systemd:
# nspawn's other child (the outer one, which sets up the namespaces) lives
# only a moment, and on a loaded machine pgrep may see it first.
leader=
for _ in $(seq 150); do
	leader=$(pgrep -P "$nspawn" -x systemd | head -1 || true)
	[ -n "$leader" ] && break
	sleep 0.2
done
[ -n "$leader" ] || { cat "$work/console.log"; echo "nspawn-test: container did not start" >&2; exit 1; }
inside() { nsenter -t "$leader" -a -- env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"; }
for _ in $(seq 150); do
	state=$(inside systemctl is-system-running 2>/dev/null || true)
	case "$state" in running | degraded) break ;; esac
	sleep 0.2
done
case "$state" in
running | degraded) echo "container booted ($state)" ;;
*)
	cat "$work/console.log"
	echo "nspawn-test: the container did not finish booting (state: ${state:-none})" >&2
	exit 1
	;;
esac

echo "fresh install, not configured"
inside dpkg -i /root/boardd.deb >"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log"; exit 1; }
expect "unit enabled" inside systemctl is-enabled boardd
expect "unit not started" sh -c "! nsenter -t $leader -a -- systemctl is-active boardd"
expect "postinst says what to do" grep -q "edit /etc/boardd/boardd.toml" "$work/dpkg.log"

port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null ||
	echo $((20000 + RANDOM % 20000)); }
http=$(port)
if inside boardd run --help >/dev/null 2>&1; then
	mode=run
	mqtt=$(port)
	ws=$(port)
	cat >"$root/etc/boardd/boardd.env" <<EOF
BOARDD_BOARD_ID=board-7
BOARDD_HTTP_LISTEN=127.0.0.1:$http
BOARDD_MQTT_LISTEN=127.0.0.1:$mqtt
BOARDD_MQTT_WS_LISTEN=127.0.0.1:$ws
BOARDD_SIMULATION_SPEED=20
EOF
else
	mode=relay
	echo "  ('boardd run' is not in this build: 'boardd relay' stands in, Type=exec)"
	mkdir -p "$root/etc/systemd/system/boardd.service.d"
	cat >"$root/etc/systemd/system/boardd.service.d/stand-in.conf" <<EOF
[Service]
Type=exec
WatchdogSec=0
ExecStart=
ExecStart=/usr/bin/boardd relay --broker tcp://127.0.0.1:1 --listen 127.0.0.1:$http --mode casual
EOF
	printf 'BOARDD_BOARD_ID=board-7\n' >"$root/etc/boardd/boardd.env"
fi
inside systemctl daemon-reload

echo "start ($mode)"
if inside timeout 60 systemctl start boardd; then ok "systemctl start returned$([ "$mode" = run ] && echo ' (READY=1)')"; else bad "systemctl start"; fi
sleep 2
expect "service active" inside systemctl is-active boardd
pid=$(inside systemctl show -p MainPID --value boardd)
status=$(inside cat "/proc/$pid/status" 2>/dev/null || true)
expect "runs as boardd" test "$(awk '/^Uid:/{print $2}' <<<"$status")" = "$(inside id -u boardd)"
for g in gpio i2c spi; do
	expect "in group $g" grep -qw "$(inside getent group $g | cut -d: -f3)" <<<"$(grep '^Groups:' <<<"$status")"
done
expect "no capabilities (CapBnd 0)" grep -q '^CapBnd:[[:space:]]*0000000000000000$' <<<"$status"
expect "no new privileges" grep -q '^NoNewPrivs:[[:space:]]*1$' <<<"$status"
expect "seccomp filter on" grep -q '^Seccomp:[[:space:]]*2$' <<<"$status"
expect "environment file passed on" inside sh -c "tr '\\0' '\\n' </proc/$pid/environ | grep -qx BOARDD_BOARD_ID=board-7"
if [ "$mode" = run ]; then
	expect "/healthz answers" curl -fsS -m 5 "http://127.0.0.1:$http/healthz"
	w1=$(inside systemctl show -p WatchdogTimestampMonotonic --value boardd)
	sleep 12
	w2=$(inside systemctl show -p WatchdogTimestampMonotonic --value boardd)
	expect "watchdog fed (last ping moved: $w1 -> $w2)" test "$w2" -gt "$w1"
	expect "still active after a watchdog period" inside systemctl is-active boardd
else
	expect "HTTP listener answers" sh -c "curl -sS -m 5 -o /dev/null -w '%{http_code}' http://127.0.0.1:$http/ | grep -q '^[1-5]'"
	expect "no restarts" test "$(inside systemctl show -p NRestarts --value boardd)" = 0
fi
inside journalctl -u boardd --no-pager >"$work/journal.log" 2>&1 || true
[ -z "${BOARDD_NSPAWN_JOURNAL:-}" ] || cp "$work/journal.log" "$BOARDD_NSPAWN_JOURNAL"

echo "upgrade while running"
inside dpkg -i /root/boardd.deb >"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log"; exit 1; }
sleep 2
pid2=$(inside systemctl show -p MainPID --value boardd)
expect "restarted on the new files (pid $pid -> $pid2)" test "$pid2" != "$pid" -a "$pid2" != 0
expect "active after upgrade" inside systemctl is-active boardd

echo "remove"
inside dpkg -r boardd >"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log"; exit 1; }
expect "stopped" sh -c "! nsenter -t $leader -a -- systemctl is-active boardd"
expect "no boardd process left" sh -c "! nsenter -t $leader -a -- pgrep -x boardd"

echo "purge, then a fresh install onto a prepared /etc/boardd/boardd.env"
inside dpkg -P boardd >"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log"; exit 1; }
mkdir -p "$root/etc/boardd"
cp "$work/journal.log" "$work/journal-first.log"
if [ "$mode" = run ]; then
	printf 'BOARDD_BOARD_ID=board-8\nBOARDD_HTTP_LISTEN=127.0.0.1:%s\nBOARDD_MQTT_LISTEN=127.0.0.1:%s\nBOARDD_MQTT_WS_LISTEN=127.0.0.1:%s\n' \
		"$http" "$mqtt" "$ws" >"$root/etc/boardd/boardd.env"
else
	printf 'BOARDD_BOARD_ID=board-8\n' >"$root/etc/boardd/boardd.env"
fi
inside dpkg -i /root/boardd.deb >"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log"; exit 1; }
sleep 2
expect "started by the install" inside systemctl is-active boardd

if [ "$fails" != 0 ]; then
	echo "--- journal of the first run"
	cat "$work/journal-first.log"
fi
echo "$fails failed"
[ "$fails" = 0 ]
