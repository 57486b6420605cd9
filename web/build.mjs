// Builds the pages into ../publish/web/dist, which is committed and
// embedded in the boardd binary (go build needs no npm).
//
//   npm ci && npm run build
import * as esbuild from "esbuild"
import {copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync} from "node:fs"
import {dirname, join} from "node:path"
import {fileURLToPath} from "node:url"
import {gzipSync} from "node:zlib"

const here = dirname(fileURLToPath(import.meta.url))
const out = join(here, "..", "publish", "web", "dist")
const assets = join(out, "assets")
rmSync(out, {recursive: true, force: true})
mkdirSync(join(assets, "pieces"), {recursive: true})

await esbuild.build({
    absWorkingDir: here,
    entryPoints: ["src/board.js", "src/console.js", "src/app.css"],
    bundle: true,
    format: "esm",
    splitting: true,
    minify: true,
    target: ["es2022"],
    outdir: assets,
    entryNames: "[name]",
    chunkNames: "shared-[hash]",
    // Third-party licence texts go to one file that is served with the
    // pages (assets/*.LEGAL.txt are merged into LICENSES.txt below).
    legalComments: "external",
    // Reproducible output: no absolute paths, no timestamps.
    sourcemap: false,
    logLevel: "warning",
})

copyFileSync(join(here, "src", "board.html"), join(out, "index.html"))
copyFileSync(join(here, "src", "console.html"), join(out, "console.html"))
copyFileSync(join(here, "src", "markers.svg"), join(assets, "markers.svg"))
copyFileSync(join(here, "src", "favicon.svg"), join(assets, "favicon.svg"))
copyFileSync(join(here, "node_modules", "cm-chessboard", "assets", "pieces", "standard.svg"), join(assets, "pieces", "standard.svg"))

// One licence file for everything bundled.
const legal = readdirSync(assets).filter(f => f.endsWith(".LEGAL.txt")).sort()
let licences = "Third-party software in the boardd web pages\n\n"
const pkg = (name) => JSON.parse(readFileSync(join(here, "node_modules", name, "package.json"), "utf8"))
for (const [name, file] of [["mqtt", "LICENSE.md"], ["cm-chessboard", "LICENSE"]]) {
    licences += `== ${name} ${pkg(name).version} (${pkg(name).license})\n\n${readFileSync(join(here, "node_modules", name, file), "utf8").trim()}\n\n`
}
licences += "== Chess pieces (assets/pieces/standard.svg, from cm-chessboard)\n\n" +
    "Copies of the Wikimedia Commons standard SVG chess pieces\n" +
    "(https://commons.wikimedia.org/wiki/Category:SVG_chess_pieces/Standard),\n" +
    "licensed CC BY-SA 3.0 (https://creativecommons.org/licenses/by-sa/3.0/); see the\n" +
    "notice inside the file.\n\n"
const seen = new Set()
for (const f of legal) {
    const text = readFileSync(join(assets, f), "utf8").trim()
    if (text && !seen.has(text)) {
        seen.add(text)
        licences += `== Notices bundled in ${f.replace(".LEGAL.txt", "")}\n\n${text}\n\n`
    }
    rmSync(join(assets, f))
}
writeFileSync(join(assets, "LICENSES.txt"), licences)

// Report sizes (raw and gzip, which is how the server sends them).
let raw = 0, gz = 0
const rows = []
const walk = (d) => {
    for (const f of readdirSync(d).sort()) {
        const p = join(d, f)
        if (statSync(p).isDirectory()) { walk(p); continue }
        const b = readFileSync(p)
        const z = gzipSync(b, {level: 9}).length
        raw += b.length
        gz += z
        rows.push(`${p.slice(out.length + 1).padEnd(34)} ${String(b.length).padStart(8)} ${String(z).padStart(8)}`)
    }
}
walk(out)
console.log(`${"file".padEnd(34)} ${"bytes".padStart(8)} ${"gzip".padStart(8)}`)
for (const r of rows) console.log(r)
console.log(`${"total".padEnd(34)} ${String(raw).padStart(8)} ${String(gz).padStart(8)}`)
