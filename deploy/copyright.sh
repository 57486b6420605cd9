#!/usr/bin/env bash
# Writes the package's copyright file to standard output: boardd's own
# licence, then the licence of every work compiled into the binary (the Go
# modules it is built from, the Go runtime and standard library) and of
# the web pages' bundled scripts, from those works' own licence files.
#
#   deploy/copyright.sh
set -euo pipefail
cd "$(dirname "$0")/.."

cat <<'HEAD'
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: boardd
Source: https://github.com/boardd/boardd
Comment: /usr/bin/boardd is a static Go binary. Besides boardd's own code it
 contains the Go modules, the Go runtime and standard library, and the web
 pages' scripts listed below; each one's licence text follows in full at the
 end of this file, as its authors ship it.

Files: *
Copyright: the boardd contributors
License: MIT
HEAD

# block NAME FILE...: a licence file's text as a DEP-5 continuation (a
# leading space on every line, "." for an empty one).
indent() { sed -e 's/[[:space:]]*$//' -e 's/^$/./' -e 's/^/ /'; }

mods=$(go list -deps -f '{{with .Module}}{{if not .Main}}{{.Path}}@{{.Version}}{{end}}{{end}}' ./cmd/boardd | sort -u)
for m in $mods; do
	printf '\nFiles: embedded/%s/*\nCopyright: the %s authors\nLicense: %s-licence\n' "${m%@*}" "${m%@*}" "${m%@*}"
done
printf '\nFiles: embedded/go/*\nCopyright: The Go Authors\nLicense: go-licence\n'
printf '\nFiles: usr/share/boardd/web/*\nCopyright: the authors of mqtt.js and cm-chessboard; the chess pieces: Wikimedia Commons contributors\nLicense: web-licences\n'

printf '\nLicense: MIT\n'
indent <<'MIT'
Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
MIT

for m in $mods; do
	dir=$(go list -m -f '{{.Dir}}' "$m")
	files=$(find "$dir" -maxdepth 1 -type f \( -iname 'licen[cs]e*' -o -iname 'copying*' -o -iname 'notice*' -o -iname 'patents*' \) | sort)
	if [ -z "$files" ]; then
		echo "copyright.sh: no licence file in $m ($dir)" >&2
		exit 1
	fi
	printf '\nLicense: %s-licence\n' "${m%@*}"
	for f in $files; do
		if grep -q 'Apache License' "$f" && grep -q 'Version 2.0, January 2004' "$f"; then
			# Debian ships this one: point at it rather than repeat it.
			indent <<<"Licensed under the Apache License, Version 2.0. On Debian systems the
complete text of the Apache License, Version 2.0 is in
/usr/share/common-licenses/Apache-2.0."
		else
			indent <"$f"
		fi
	done
done
printf '\nLicense: go-licence\n'
indent <"$(go env GOROOT)/LICENSE"
[ -f "$(go env GOROOT)/PATENTS" ] && indent <"$(go env GOROOT)/PATENTS"
printf '\nLicense: web-licences\n'
indent <publish/web/dist/assets/LICENSES.txt
