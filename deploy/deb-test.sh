#!/usr/bin/env bash
# Tests boardd's .deb packages.
#
#   deploy/deb-test.sh check DEB...   contents, control fields, conffiles,
#                                     maintainer scripts of each package
#   deploy/deb-test.sh install        on this machine (root, Debian): builds
#                                     two versions for the host, installs the
#                                     first, edits the configuration, upgrades,
#                                     disables, upgrades, removes, purges, and
#                                     checks the user, the groups, the files,
#                                     the conffile and the unit at each step;
#                                     then puts the machine back as it was
set -euo pipefail
cd "$(dirname "$0")/.."

fails=0
ok() { printf '  ok   %s\n' "$*"; }
bad() { printf '  FAIL %s\n' "$*"; fails=$((fails + 1)); }
expect() { # expect DESCRIPTION COMMAND...
	local what=$1
	shift
	if "$@" >/dev/null 2>&1; then ok "$what"; else bad "$what"; fi
}

check_deb() {
	local deb=$1 arch contents
	echo "check $deb"
	arch=$(dpkg-deb -f "$deb" Architecture)
	case "$deb" in
	*_"$arch".deb) ok "Architecture $arch matches the file name" ;;
	*) bad "Architecture $arch does not match the file name" ;;
	esac
	expect "Package is boardd" test "$(dpkg-deb -f "$deb" Package)" = boardd
	expect "Depends on systemd" grep -qw systemd <<<"$(dpkg-deb -f "$deb" Depends)"
	contents=$(dpkg-deb -c "$deb")
	for f in ./usr/bin/boardd ./usr/lib/systemd/system/boardd.service ./etc/boardd/boardd.toml \
		./usr/share/boardd/boardd.toml ./usr/share/doc/boardd/install.md ./usr/share/doc/boardd/config.md \
		./usr/share/doc/boardd/dgt3000-bsc.conf ./usr/share/doc/boardd/boardd.env.example \
		./usr/share/man/man1/boardd.1.gz ./usr/share/doc/boardd/changelog.gz ./usr/share/doc/boardd/copyright \
		./usr/share/lintian/overrides/boardd; do
		expect "contains $f" grep -q " $f\$" <<<"$contents"
	done
	expect "/usr/bin/boardd is root-owned and 0755" grep -q '^-rwxr-xr-x root/root .* ./usr/bin/boardd$' <<<"$contents"
	expect "conffiles is exactly /etc/boardd/boardd.toml" \
		test "$(dpkg-deb --ctrl-tarfile "$deb" | tar -xOf - ./conffiles)" = /etc/boardd/boardd.toml
	for s in postinst prerm postrm; do
		expect "$s is present and valid sh" sh -n <(dpkg-deb --ctrl-tarfile "$deb" | tar -xOf - "./$s")
	done
	local tmp
	tmp=$(mktemp -d)
	dpkg-deb -x "$deb" "$tmp"
	expect "shipped unit equals systemd/boardd.service" cmp "$tmp/usr/lib/systemd/system/boardd.service" systemd/boardd.service
	expect "conffile equals the pristine copy" cmp "$tmp/etc/boardd/boardd.toml" "$tmp/usr/share/boardd/boardd.toml"
	expect "binary is built without cgo (static)" sh -c "go version -m '$tmp/usr/bin/boardd' | grep -q 'CGO_ENABLED=0'"
	expect "Maintainer has a name and an address" grep -Eq '^[^<>]+ <[^<>@ ]+@[^<>@ ]+>$' <<<"$(dpkg-deb -f "$deb" Maintainer)"
	expect "changelog names this version" sh -c "zcat '$tmp/usr/share/doc/boardd/changelog.gz' | head -1 | grep -qF '($(dpkg-deb -f "$deb" Version))'"
	expect "manual page renders without warnings and names every command" sh -c \
		"w=\$(zcat '$tmp/usr/share/man/man1/boardd.1.gz' | groff -man -Tutf8 -ww -z 2>&1); [ -z \"\$w\" ] && zcat '$tmp/usr/share/man/man1/boardd.1.gz' | grep -q '^\.SS relay\$'"
	expect "copyright carries the licence of every module in the binary" sh -c \
		"for m in \$(go version -m '$tmp/usr/bin/boardd' | awk '\$1==\"dep\"{print \$2}'); do grep -q \"^License: \$m-licence\$\" '$tmp/usr/share/doc/boardd/copyright' || exit 1; done"
	if command -v lintian >/dev/null; then
		local out
		out=$(lintian --fail-on error,warning "$deb" 2>&1) && ok "lintian: no error or warning" || bad "lintian: $out"
	elif grep -qw lintian <<<"${BOARDD_REQUIRE:-}"; then
		bad "lintian is not installed and BOARDD_REQUIRE names it (apt-get install lintian)"
	else
		echo "  skip lintian (not installed)"
	fi
	rm -rf "$tmp"
}

# The install test builds three versions on this machine, then installs,
# upgrades and removes them in a throwaway copy of a Debian root (systemd-nspawn,
# not booted), so it never depends on, or changes, what this machine has.
# BOARDD_DEB_TEST_HOST=1 runs it on this machine instead, which it refuses
# where boardd is already present.
install_test() {
	[ "$(id -u)" = 0 ] || { echo "deb-test install: needs root" >&2; exit 2; }
	work=$(mktemp -d /var/tmp/boardd-deb-test.XXXXXX)
	trap 'rm -rf "$work"' EXIT

	local host
	host=$(go env GOARCH)
	echo "building two versions for linux/$host"
	VERSION=1.0.0~test1 deploy/build.sh -o "$work/v1" "linux/$host" >"$work/build1.log" 2>&1 ||
		{ cat "$work/build1.log"; exit 1; }
	VERSION=1.0.0~test2 deploy/build.sh -o "$work/v2" "linux/$host" >"$work/build2.log" 2>&1 ||
		{ cat "$work/build2.log"; exit 1; }
	local arch
	arch=$(dpkg --print-architecture)
	mkdir "$work/debs"
	cp "$work/v1/boardd_1.0.0~test1_$arch.deb" "$work/debs/v1.deb"
	cp "$work/v2/boardd_1.0.0~test2_$arch.deb" "$work/debs/v2.deb"
	# v3: v2 with a changed shipped configuration, as when a new release
	# changes a default; dpkg must then ask, and --force-confold keeps ours.
	mkdir "$work/v3"
	dpkg-deb -R "$work/debs/v2.deb" "$work/v3/root"
	echo '# changed in test3' >>"$work/v3/root/etc/boardd/boardd.toml"
	cp "$work/v3/root/etc/boardd/boardd.toml" "$work/v3/root/usr/share/boardd/boardd.toml"
	sed -i 's/^Version: .*/Version: 1.0.0~test3/' "$work/v3/root/DEBIAN/control"
	(cd "$work/v3/root" && find etc usr -type f -exec md5sum {} + >DEBIAN/md5sums)
	dpkg-deb --root-owner-group -b "$work/v3/root" "$work/debs/v3.deb" >/dev/null

	if [ "${BOARDD_DEB_TEST_HOST:-}" = 1 ]; then
		if dpkg-query -W -f='${Status}' boardd 2>/dev/null | grep -q installed ||
			getent passwd boardd >/dev/null || [ -e /etc/boardd ] || [ -e /var/lib/boardd ]; then
			echo "deb-test install: boardd is already on this machine; not touching it" >&2
			exit 2
		fi
		install_steps "$work/debs"
		return
	fi
	local base root
	base=$(deploy/nspawn-root.sh)
	root=$work/root
	cp -a "$base" "$root"
	mkdir "$root/root/deb-test"
	cp "$0" "$work/debs/"*.deb "$root/root/deb-test/"
	echo "in a fresh Debian root (systemd-nspawn, copy of $base)"
	SYSTEMD_NSPAWN_UNIFIED_HIERARCHY=1 systemd-nspawn -q -D "$root" --register=no --keep-unit --pipe \
		-E PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		bash /root/deb-test/deb-test.sh steps /root/deb-test </dev/null
}

# install_steps DIR: installs, upgrades, removes and purges DIR/v1.deb,
# v2.deb and v3.deb on the machine it runs on, checking each step. Used in
# the container (or on a host that install_test found clean).
install_steps() {
	local dir=$1 g
	local v1=$dir/v1.deb v2=$dir/v2.deb v3=$dir/v3.deb
	created_groups=()
	for g in gpio i2c spi; do getent group "$g" >/dev/null || created_groups+=("$g"); done
	steps_work=$(mktemp -d)
	cleanup() {
		dpkg --purge boardd >/dev/null 2>&1 || true
		getent passwd boardd >/dev/null && userdel boardd
		getent group boardd >/dev/null && groupdel boardd
		for g in "${created_groups[@]}"; do getent group "$g" >/dev/null && groupdel "$g"; done
		rm -rf /var/lib/boardd /etc/boardd "$steps_work"
		[ -z "${work:-}" ] || rm -rf "$work"
	}
	trap cleanup EXIT
	local work_log=$steps_work

	local conf=/etc/boardd/boardd.toml wants=/etc/systemd/system/multi-user.target.wants/boardd.service

	echo "install $(basename "$v1")"
	dpkg -i "$v1" </dev/null >"$work_log/dpkg.log" 2>&1 || { cat "$work_log/dpkg.log"; bad "dpkg -i v1"; return; }
	expect "user boardd is a system user" sh -c '[ "$(id -u boardd)" -lt 1000 ]'
	expect "user boardd has no login shell" sh -c 'getent passwd boardd | grep -q ":/usr/sbin/nologin$"'
	for g in gpio i2c spi; do
		expect "group $g exists and boardd is in it" sh -c "id -nG boardd | tr ' ' '\n' | grep -qx $g"
	done
	expect "/usr/bin/boardd runs and says 1.0.0~test1" sh -c '/usr/bin/boardd version | grep -qx "boardd 1.0.0~test1"'
	expect "$conf is root:boardd 0640" test "$(stat -c '%U:%G %a' "$conf")" = "root:boardd 640"
	expect "/var/lib/boardd is boardd's, 0750" test "$(stat -c '%U:%G %a' /var/lib/boardd)" = "boardd:boardd 750"
	expect "unit is enabled" test -L "$wants"
	expect "installed unit passes systemd-analyze verify" systemd-analyze verify /usr/lib/systemd/system/boardd.service

	echo "edit the configuration, upgrade to test2 (same shipped configuration)"
	sed -i 's/^id = "board-1"$/id = "board-42"/' "$conf"
	expect "edit took" grep -qx 'id = "board-42"' "$conf"
	dpkg -i "$v2" </dev/null >"$work_log/dpkg.log" 2>&1 || { cat "$work_log/dpkg.log"; bad "dpkg -i v2"; return; }
	expect "binary upgraded" sh -c '/usr/bin/boardd version | grep -qx "boardd 1.0.0~test2"'
	expect "edited configuration kept" grep -qx 'id = "board-42"' "$conf"
	expect "no .dpkg-dist/.dpkg-new left" sh -c '! ls /etc/boardd/*.dpkg-* 2>/dev/null'
	expect "$conf still root:boardd 0640" test "$(stat -c '%U:%G %a' "$conf")" = "root:boardd 640"
	expect "unit still enabled" test -L "$wants"

	echo "disable, upgrade to test3 (changed shipped configuration) with --force-confold"
	systemctl disable boardd.service >/dev/null 2>&1
	expect "unit disabled" test ! -e "$wants"
	dpkg -i --force-confold "$v3" </dev/null >"$work_log/dpkg.log" 2>&1 || { cat "$work_log/dpkg.log"; bad "dpkg -i v3"; return; }
	expect "edited configuration kept" grep -qx 'id = "board-42"' "$conf"
	expect "new default beside it as boardd.toml.dpkg-dist" grep -qx '# changed in test3' /etc/boardd/boardd.toml.dpkg-dist
	expect "upgrade respected the disabled unit" test ! -e "$wants"
	systemctl enable boardd.service >/dev/null 2>&1

	echo "remove"
	dpkg -r boardd </dev/null >"$work_log/dpkg.log" 2>&1 || { cat "$work_log/dpkg.log"; bad "dpkg -r"; return; }
	expect "binary gone" test ! -e /usr/bin/boardd
	expect "unit gone" test ! -e /usr/lib/systemd/system/boardd.service
	expect "configuration kept after remove" grep -qx 'id = "board-42"' "$conf"
	expect "user kept" getent passwd boardd

	echo "reinstall test3 over the removed package, then purge"
	dpkg -i "$v3" </dev/null >"$work_log/dpkg.log" 2>&1 || { cat "$work_log/dpkg.log"; bad "dpkg -i v3 again"; return; }
	expect "configuration kept on reinstall" grep -qx 'id = "board-42"' "$conf"
	expect "unit enabled again" test -L "$wants"
	printf 'BOARDD_BOARD_ID=board-7\n' >/etc/boardd/boardd.env
	dpkg -P boardd </dev/null >"$work_log/dpkg.log" 2>&1 || { cat "$work_log/dpkg.log"; bad "dpkg -P"; return; }
	expect "configuration gone after purge" test ! -e "$conf"
	expect "environment file gone after purge" test ! -e /etc/boardd/boardd.env
	expect "stat override gone after purge" sh -c '! dpkg-statoverride --list /etc/boardd/boardd.toml'
	expect "enablement gone after purge" test ! -e "$wants"
	expect "journal directory kept after purge" test -d /var/lib/boardd
}

case "${1:-}" in
check)
	shift
	[ $# -gt 0 ] || { echo "deb-test check: name the packages" >&2; exit 2; }
	for d in "$@"; do check_deb "$d"; done
	;;
install) install_test ;;
steps) install_steps "${2:?deb-test steps: name the directory of v1.deb, v2.deb, v3.deb}" ;;
*) sed -n '2,13s/^# \{0,1\}//p' "$0"; exit 2 ;;
esac
echo "$fails failed"
[ "$fails" = 0 ]
