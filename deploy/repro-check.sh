#!/usr/bin/env bash
# Proves that deploy/build.sh is reproducible: builds the tracked files twice,
# from two directories of different names, with two Go build caches (the
# second empty), two umasks and two time zones, and compares every output
# byte for byte. Extra arguments go to build.sh (e.g. --no-deb linux/arm).
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT

# The version and timestamp come from git here; the copies have no .git.
eval "export $(deploy/build.sh --print-version)"
echo "VERSION=$VERSION SOURCE_DATE_EPOCH=$SOURCE_DATE_EPOCH"

# One packager binary for both builds, so the empty cache of the second
# build is spent on boardd alone.
if [ -z "${NFPM:-}" ]; then
	GOBIN="$work/bin" go install github.com/goreleaser/nfpm/v2/cmd/nfpm@v2.45.2
	export NFPM="$work/bin/nfpm"
fi

copy() {
	mkdir -p "$1"
	git ls-files -z | tar --null --ignore-failed-read -T - -cf - | tar -xf - -C "$1"
}
copy "$work/a"
copy "$work/second-tree"

start=$EPOCHREALTIME
(cd "$work/a" && umask 022 && TZ=UTC deploy/build.sh -o "$work/out-a" "$@")
mid=$EPOCHREALTIME
(cd "$work/second-tree" && umask 077 && TZ=Pacific/Kiritimati GOCACHE="$work/gocache" \
	deploy/build.sh -o "$work/out-b" "$@")
end=$EPOCHREALTIME
awk "BEGIN{printf \"build A %.1fs (warm cache), build B %.1fs (empty cache)\n\", $mid-$start, $end-$mid}"

if ! diff -u "$work/out-a/SHA256SUMS" "$work/out-b/SHA256SUMS"; then
	echo "repro-check: the two builds differ" >&2
	exit 1
fi
echo "repro-check: $(wc -l <"$work/out-a/SHA256SUMS") files identical in both builds"
