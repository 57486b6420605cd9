#!/usr/bin/env bash
# Reproducible static builds of boardd and its .deb packages.
#
#   deploy/build.sh [-o DIR] [--no-deb] [TARGET...]
#   deploy/build.sh --print-version    VERSION and SOURCE_DATE_EPOCH it would use
#
# TARGET is linux/arm (GOARM=6: every 32-bit Raspberry Pi, Debian armhf),
# linux/arm64 or linux/amd64; default all three. It writes
#   DIR/linux-<arch>/boardd           static binaries
#   DIR/boardd.toml                   the default configuration the packages ship
#   DIR/boardd_<version>_<arch>.deb   packages (unless --no-deb)
#   DIR/SHA256SUMS
# DIR defaults to dist. The same commit, Go version and these variables give
# byte-identical files wherever and whenever it runs:
#   VERSION            package and 'boardd version' string; default from git
#   SOURCE_DATE_EPOCH  every timestamp in the packages; default: the commit time
#   NFPM               the packager command (default: nfpm v2.45.2 via go run)
#   MAINTAINER         the packages' Maintainer and changelog signature
set -euo pipefail
cd "$(dirname "$0")/.."

out=dist
debs=1
print_version=0
targets=()
while [ $# -gt 0 ]; do
	case "$1" in
	-o) out=${2:?-o needs a directory}; shift 2 ;;
	--no-deb) debs=0; shift ;;
	--print-version) print_version=1; shift ;;
	-h | --help) sed -n '2,18s/^# \{0,1\}//p' "$0"; exit 0 ;;
	linux/arm | linux/arm64 | linux/amd64) targets+=("$1"); shift ;;
	*) echo "build.sh: unknown argument $1 (want -o DIR, --no-deb or linux/arm|arm64|amd64)" >&2; exit 2 ;;
	esac
done
[ ${#targets[@]} -gt 0 ] || targets=(linux/arm linux/arm64 linux/amd64)

if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
	SOURCE_DATE_EPOCH=$(git log -1 --format=%ct 2>/dev/null || echo 0)
fi
export SOURCE_DATE_EPOCH
if [ -z "${VERSION:-}" ]; then
	# A release tag vX.Y.Z gives X.Y.Z; otherwise a Debian version that
	# sorts before any release and names the commit.
	if tag=$(git describe --tags --exact-match --match 'v[0-9]*' 2>/dev/null); then
		VERSION=${tag#v}
	else
		VERSION="0.0.0~git$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y%m%d%H%M%S).$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
	fi
	if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
		VERSION="$VERSION+dirty"
	fi
fi
export VERSION
if [ "$print_version" = 1 ]; then
	echo "VERSION=$VERSION SOURCE_DATE_EPOCH=$SOURCE_DATE_EPOCH"
	exit 0
fi
NFPM=${NFPM:-go run github.com/goreleaser/nfpm/v2/cmd/nfpm@v2.45.2}
MAINTAINER=${MAINTAINER:-boardd maintainers <maintainers@boardd.invalid>}
export MAINTAINER

mkdir -p "$out"
echo "boardd $VERSION, SOURCE_DATE_EPOCH=$SOURCE_DATE_EPOCH, $(go version)"

# Static (no cgo), no file system paths (-trimpath), no VCS stamp (the
# version is explicit), no build id, no symbol table (panics still print
# file:line from pclntab). GOAMD64/GOARM64 pinned so the environment cannot
# change the instruction set.
ldflags="-s -w -buildid= -X main.version=$VERSION"
produced=()
for t in "${targets[@]}"; do
	arch=${t#linux/}
	start=$EPOCHREALTIME
	env CGO_ENABLED=0 GOOS=linux GOARCH="$arch" GOARM=6 GOAMD64=v1 GOARM64=v8.0 \
		go build -trimpath -buildvcs=false -ldflags "$ldflags" -o "$out/linux-$arch/boardd" ./cmd/boardd
	printf '%-12s %9d bytes  %5.1fs\n' "$t" "$(stat -c %s "$out/linux-$arch/boardd")" \
		"$(awk "BEGIN{print $EPOCHREALTIME - $start}")"
	produced+=("linux-$arch/boardd")
done

# The packaged configuration: every key with its default and its
# documentation, from the code itself, under a header for the organiser.
gen=$(mktemp -d)
trap 'rm -rf "$gen"' EXIT
go build -o "$gen/boardd" ./cmd/boardd
if timeout 60 "$gen/boardd" run --print-defaults >"$gen/defaults.toml" 2>/dev/null && [ -s "$gen/defaults.toml" ]; then
	echo "configuration: from 'boardd run --print-defaults'"
else
	# Until the run command has --print-defaults: the same function through a
	# build overlay, which adds one file to the package without touching it.
	cat >"$gen/print.go" <<'GO'
package main

import (
	"os"

	"github.com/boardd/boardd/config"
)

func init() {
	if os.Getenv("BOARDD_BUILD_PRINT_DEFAULT_CONFIG") == "1" {
		os.Stdout.WriteString(config.DefaultText())
		os.Exit(0)
	}
}
GO
	printf '{"Replace":{"%s":"%s"}}' "$PWD/cmd/boardd/zz_build_print_config.go" "$gen/print.go" >"$gen/overlay.json"
	go build -overlay "$gen/overlay.json" -o "$gen/boardd-print" ./cmd/boardd
	BOARDD_BUILD_PRINT_DEFAULT_CONFIG=1 "$gen/boardd-print" >"$gen/defaults.toml"
	echo "configuration: from config.DefaultText() (no 'boardd run --print-defaults' yet)"
fi
{
	cat <<'HEAD'
# /etc/boardd/boardd.toml, installed by the boardd package. Upgrades keep
# your edits (dpkg asks before replacing a changed file).
#
# On a Raspberry Pi set at least:
#   [board]   id       this board's id, unique in the venue
#   [sensors] kind     the sensor design of this board (not "simulated")
#   [clock]   kind     lever, dgt3000, software or none
#   [mqtt]    broker   the venue broker, e.g. "tcp://10.0.0.2:1883"
#                      (or keep "embedded" and set listen/ws_listen to
#                      "0.0.0.0:..." to serve the network yourself)
#   [http]    listen   "0.0.0.0:8080" to reach the pages from other machines
# Per-board values may instead go in /etc/boardd/boardd.env as
# BOARDD_<SECTION>_<KEY>=value lines (see /usr/share/doc/boardd/install.md).
# Check the result with: boardd run --check-config --config /etc/boardd/boardd.toml
#
HEAD
	cat "$gen/defaults.toml"
} >"$out/boardd.toml"
# The shipped file must load as it is.
if timeout 60 "$gen/boardd" run --help >/dev/null 2>&1; then
	if ! timeout 60 "$gen/boardd" run --check-config --config "$out/boardd.toml"; then
		echo "build.sh: the default configuration does not pass 'boardd run --check-config'" >&2
		exit 1
	fi
	echo "configuration: passes 'boardd run --check-config'"
fi
produced+=(boardd.toml)

if [ "$debs" = 1 ]; then
	# What Debian wants beside the binary: the manual page (from the
	# binary's own help), the changelog of this version and the copyright
	# file with every licence in the binary. gzip -n: no name or time in
	# the header, so the files are reproducible.
	deploy/manpage.sh "$gen/boardd" "$VERSION" | gzip -9n >"$gen/boardd.1.gz"
	{
		printf 'boardd (%s) unstable; urgency=medium\n\n' "$VERSION"
		printf '  * Built from commit %s. The changes are in the project'"'"'s history\n' \
			"$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
		printf '    at https://github.com/boardd/boardd.\n\n'
		printf ' -- %s  %s\n' "$MAINTAINER" "$(LC_ALL=C date -u -R -d "@$SOURCE_DATE_EPOCH")"
	} | gzip -9n >"$gen/changelog.gz"
	deploy/copyright.sh >"$gen/copyright"
	export MANPAGE=$gen/boardd.1.gz CHANGELOG=$gen/changelog.gz COPYRIGHT=$gen/copyright
	for t in "${targets[@]}"; do
		arch=${t#linux/}
		case "$arch" in arm) deb_arch=armhf ;; *) deb_arch=$arch ;; esac
		rm -f "$out"/boardd_*_"$deb_arch".deb # one package per architecture in DIR
		DEB_ARCH=$deb_arch BIN="$out/linux-$arch/boardd" CONFIG="$out/boardd.toml" \
			$NFPM package --config deploy/nfpm.yaml --packager deb \
			--target "$out/boardd_${VERSION}_${deb_arch}.deb" >/dev/null
		printf '%-24s %9d bytes\n' "boardd_${VERSION}_${deb_arch}.deb" \
			"$(stat -c %s "$out/boardd_${VERSION}_${deb_arch}.deb")"
		produced+=("boardd_${VERSION}_${deb_arch}.deb")
	done
fi

(cd "$out" && sha256sum "${produced[@]}") >"$out/SHA256SUMS"
cat "$out/SHA256SUMS"
