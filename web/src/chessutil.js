// Pure helpers shared by the pages: no DOM, no network, so they run under
// node --test as well as in the browser.

export const START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// newer reports whether header a is at least as new as b by (session, seq),
// the order every payload carries (DESIGN §5). Equal counts as newer: clock
// ticks repeat the seq of the last journaled event.
export function notOlder(a, b) {
    if (!b) return true
    if (!a) return false
    if ((a.session | 0) !== (b.session | 0)) return (a.session >>> 0) > (b.session >>> 0)
    return Number(a.seq) >= Number(b.seq)
}

const FILES = "abcdefgh"

function squareIndex(sq) {
    if (typeof sq !== "string" || sq.length !== 2) return -1
    const f = FILES.indexOf(sq[0])
    const r = sq.charCodeAt(1) - 49
    if (f < 0 || r < 0 || r > 7) return -1
    return r * 8 + f
}

// placement reads a FEN's piece placement into a 64-array (a1 = 0) of
// piece letters or "".
export function placement(fen) {
    const board = new Array(64).fill("")
    const rows = String(fen || START_FEN).trim().split(/\s+/)[0].split("/")
    if (rows.length !== 8) throw new Error(`FEN ${fen}: want 8 ranks`)
    for (let i = 0; i < 8; i++) {
        const rank = 7 - i
        let file = 0
        for (const c of rows[i]) {
            if (c >= "1" && c <= "8") {
                file += c.charCodeAt(0) - 48
            } else if ("pnbrqkPNBRQK".includes(c)) {
                if (file > 7) throw new Error(`FEN ${fen}: rank ${rank + 1} too long`)
                board[rank * 8 + file] = c
                file++
            } else {
                throw new Error(`FEN ${fen}: unexpected ${c}`)
            }
        }
        if (file !== 8) throw new Error(`FEN ${fen}: rank ${rank + 1} has ${file} files`)
    }
    return board
}

export function placementFEN(board) {
    const rows = []
    for (let rank = 7; rank >= 0; rank--) {
        let row = "", empty = 0
        for (let file = 0; file < 8; file++) {
            const p = board[rank * 8 + file]
            if (!p) { empty++; continue }
            if (empty) { row += empty; empty = 0 }
            row += p
        }
        if (empty) row += empty
        rows.push(row)
    }
    return rows.join("/")
}

// applyUCI plays one UCI move on a placement array. It is not a legality
// check (the board already made that); it only moves the pieces, including
// castling (king two files, or king onto its own rook in Chess960), en
// passant and promotion.
export function applyUCI(board, uci) {
    const from = squareIndex(uci.slice(0, 2)), to = squareIndex(uci.slice(2, 4))
    if (from < 0 || to < 0) throw new Error(`move ${uci}: not a UCI move`)
    const piece = board[from]
    if (!piece) throw new Error(`move ${uci}: no piece on ${uci.slice(0, 2)}`)
    const white = piece === piece.toUpperCase()
    const kind = piece.toLowerCase()
    const target = board[to]
    const rank = from >> 3
    if (kind === "k" && (target === (white ? "R" : "r") || (Math.abs((to & 7) - (from & 7)) === 2 && (to >> 3) === rank))) {
        // Castling: find the rook (the square moved onto in Chess960,
        // else the corner on the side the king went).
        const kingside = (to & 7) > (from & 7)
        let rookFrom = to
        if (target !== (white ? "R" : "r")) rookFrom = rank * 8 + (kingside ? 7 : 0)
        const rook = board[rookFrom]
        board[from] = ""
        board[rookFrom] = ""
        board[rank * 8 + (kingside ? 6 : 2)] = piece
        board[rank * 8 + (kingside ? 5 : 3)] = rook || (white ? "R" : "r")
        return board
    }
    if (kind === "p" && (from & 7) !== (to & 7) && !target) {
        board[(from & ~7) | (to & 7)] = "" // en passant: the pawn beside
    }
    board[from] = ""
    board[to] = uci.length > 4 ? (white ? uci[4].toUpperCase() : uci[4].toLowerCase()) : piece
    return board
}

// placementAfter is the piece placement after the first n UCI moves from
// startFen.
export function placementAfter(startFen, moves, n = moves.length) {
    const b = placement(startFen || START_FEN)
    for (const m of moves.slice(0, n)) applyUCI(b, m)
    return placementFEN(b)
}

// sansFromPGN returns the main-line moves of a PGN in SAN (comments,
// variations, NAGs, move numbers and the result are skipped).
export function sansFromPGN(pgn) {
    // Tag pairs are whole lines; a wrapped comment line may also start
    // with "[" ([%clk ...]), so only complete tag pairs are dropped.
    const text = String(pgn || "").split(/\r?\n/).filter(l => !/^\s*\[[A-Za-z0-9_]+\s+"(?:[^"\\]|\\.)*"\s*\]\s*$/.test(l) && !l.startsWith("%")).join("\n")
    const sans = []
    let depth = 0
    let i = 0
    while (i < text.length) {
        const c = text[i]
        if (c === "{") {
            const j = text.indexOf("}", i)
            i = j < 0 ? text.length : j + 1
            continue
        }
        if (c === ";") {
            const j = text.indexOf("\n", i)
            i = j < 0 ? text.length : j + 1
            continue
        }
        if (c === "(") { depth++; i++; continue }
        if (c === ")") { depth = Math.max(0, depth - 1); i++; continue }
        if (/\s/.test(c)) { i++; continue }
        let j = i
        while (j < text.length && !/[\s{}();]/.test(text[j])) j++
        const tok = text.slice(i, j)
        i = j
        if (depth > 0) continue
        const t = tok.replace(/^\d+\.+/, "")
        if (!t || t.startsWith("$") || /^(1-0|0-1|1\/2-1\/2|\*)$/.test(t)) continue
        sans.push(t)
    }
    return sans
}

// remainingMS is a clock's remaining time for side at local time now (ms),
// the clock payload having been received at local time at.
export function remainingMS(clock, side, at, now) {
    if (!clock) return null
    const ms = Number(side === "white" ? clock.white_ms : clock.black_ms)
    if (!Number.isFinite(ms)) return null
    if (clock.running !== side) return Math.max(0, ms)
    return Math.max(0, ms - Math.max(0, now - at))
}

// formatClock shows h:mm:ss from an hour up, m:ss below, and tenths in the
// last ten seconds, as tournament clocks do. Remaining time is rounded up,
// so a clock shows 0:00 only when it has run out.
export function formatClock(ms) {
    if (ms === null || ms === undefined || !Number.isFinite(ms)) return "–"
    if (ms <= 0) return "0:00"
    const tenths = Math.ceil(ms / 100)
    if (tenths < 100) return `0:0${Math.floor(tenths / 10)}.${tenths % 10}`
    const s = Math.ceil(ms / 1000)
    const h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, sec = s % 60
    const pad = (n) => String(n).padStart(2, "0")
    return h > 0 ? `${h}:${pad(m)}:${pad(sec)}` : `${m}:${pad(sec)}`
}

// moveLabel names ply n (1 = the first move from a standard start) as
// "12." for White or "12…" for Black, counting from startFen's move number
// and side.
export function moveLabel(ply, startFen) {
    const f = String(startFen || START_FEN).trim().split(/\s+/)
    const startBlack = f[1] === "b"
    const startMove = parseInt(f[5], 10) || 1
    const idx = ply - 1 + (startBlack ? 1 : 0)
    const no = startMove + Math.floor(idx / 2)
    return idx % 2 === 0 ? `${no}.` : `${no}…`
}

// sameStart reports whether moves b begins with all of a (a is a prefix
// of b): a new state that fails it took moves back.
export function isPrefix(a, b) {
    if (a.length > b.length) return false
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
    return true
}

export const ALERT_KINDS = {
    "illegal-move": "Illegal move",
    "clock-without-move": "Clock pressed without a move",
    "promotion-unreplaced": "Promotion: pawn not replaced",
    "castling-rook-first": "Castling: rook moved first",
    "move-changed": "Move changed after release",
    "misplaced-pieces": "Misplaced pieces",
    "wrong-setup": "Wrong set-up",
    "board-rotated": "Board rotated",
    "flag-fall": "Flag fall",
    "checkmate": "Checkmate",
    "stalemate": "Stalemate",
    "dead-position": "Dead position",
    "draw-fivefold": "Fivefold repetition",
    "draw-75-moves": "75-move rule",
    "threefold-claimable": "Threefold repetition claimable",
    "fifty-moves-claimable": "50-move rule claimable",
    "both-flags": "Both flags fallen",
}

export function alertLabel(kind) {
    return ALERT_KINDS[kind] || kind
}

// lawText is an alert's article as the console shows it: "FIDE Laws
// 2023, Art. 7.5.1". The article field holds the article number(s) of
// the edition alone ("7.5.1", or "7.5.1, 7.5.5" when the penalty has its
// own); an older form that repeats the edition ("2023 Art. 7.5.1") is
// read too, so an alert journaled before is not shown twice prefixed.
export function lawText(edition, article) {
    let a = String(article || "").trim()
    let ed = String(edition || "").trim()
    const m = /^(\d{4})\s+Art(?:icles?|s)?\.?\s*/i.exec(a)
    if (m) {
        a = a.slice(m[0].length)
        ed = ed || m[1]
    }
    a = a.replace(/^Art(?:icles?|s)?\.?\s*/i, "")
    if (!a) return ""
    return `FIDE Laws${ed ? " " + ed : ""}, Art. ${a}`
}

// pgnFileName names a game's PGN download: "Round 3 Board 2 White-Black.pgn"
// with what is known, in characters every file system takes.
export function pgnFileName(st) {
    const s = st || {}
    const parts = [s.round && `Round ${s.round}`, s.board_no && `Board ${s.board_no}`,
        (s.white || s.black) && `${s.white || "White"}-${s.black || "Black"}`].filter(Boolean)
    const name = (parts.join(" ") || s.game || "game").replace(/[\\/:*?"<>|\x00-\x1f]+/g, "_").replace(/,/g, "").slice(0, 120)
    return name + ".pgn"
}

// topicParts splits prefix/<board>/<leaf...>.
export function topicParts(prefix, topic) {
    const p = prefix.endsWith("/") ? prefix : prefix + "/"
    if (!topic.startsWith(p)) return null
    const rest = topic.slice(p.length)
    const k = rest.indexOf("/")
    if (k <= 0 || k === rest.length - 1) return null
    return {board: rest.slice(0, k), leaf: rest.slice(k + 1)}
}

const BOARD_ID = /^[a-z0-9-]{1,32}$/

export function validBoardId(id) {
    return BOARD_ID.test(id)
}
