// The arbiter console's commands as data: the payloads of set_result,
// correct_move and new_game built from what the arbiter typed, checked as the board checks
// them (docs/mqtt.md, "Commands") so a mistake is shown before anything is
// sent, the new games of a round from the boards the console sees, and the
// lines of the command log. No DOM here: node --test runs it.

export const RESULTS = ["1-0", "0-1", "1/2-1/2", "+/-", "-/+"]
export const REASONS = ["resignation", "agreement", "forfeit", "arbiter's decision"]

// resultText says a result in words for the confirmation.
export function resultText(result) {
    return {
        "1-0": "White wins (1-0)",
        "0-1": "Black wins (0-1)",
        "1/2-1/2": "draw (½-½)",
        "+/-": "White wins by forfeit (+/-)",
        "-/+": "Black wins by forfeit (-/+)",
    }[result] || result
}

// resultCommand builds set_result's body; it throws an Error naming the
// field that is wrong.
export function resultCommand({result, reason, detail = "", replace = false}) {
    if (!RESULTS.includes(result)) throw new Error(`result: choose one of ${RESULTS.join(", ")}`)
    reason = String(reason || "").trim()
    detail = String(detail || "").trim()
    if (!reason) throw new Error("reason: choose why the game ended")
    const full = detail ? `${reason}: ${detail}` : reason
    if (/[\r\n]/.test(full)) throw new Error("reason: one line only")
    if (utf8Length(full) > 200) throw new Error(`reason: ${utf8Length(full)} bytes, at most 200`)
    const body = {result, reason: full}
    if (replace) body.replace = true
    return body
}

// correctCommand builds correct_move's body: the ply of the published
// move (1 is White's first) and the move that replaces it in UCI.
export function correctCommand({ply, uci}) {
    const n = Number(String(ply || "").trim())
    if (!Number.isInteger(n) || n < 1) throw new Error("ply: the ply of the move to correct, 1 for White's first move")
    uci = String(uci || "").trim().toLowerCase()
    if (!/^[a-h][1-8][a-h][1-8][qrbn]?$/.test(uci)) throw new Error(`move "${uci}": write it from-square to-square, like g1f3 or e7e8q`)
    return {ply: n, uci}
}

function utf8Length(s) {
    return new TextEncoder().encode(s).length
}

// The fields of new_game the console fills, with the state's names where
// they differ.
const TAGS = ["white", "black", "event", "site", "round", "board_no", "white_team", "black_team"]

function checkTag(name, v) {
    if (/[\r\n\0]/.test(v)) throw new Error(`${name}: one line only, no NUL`)
    if (utf8Length(v) > 200) throw new Error(`${name}: ${utf8Length(v)} bytes, at most 200`)
}

// checkTimeControl catches typing slips in a time control; the board reads
// it ("90m+30s", "40/90m+30s,30m+30s", "5m+3s", "15m d10s", a PGN tag like
// "5400+30") and refuses one it cannot read, with the reason.
export function checkTimeControl(tc) {
    tc = String(tc || "").trim()
    checkTag("time_control", tc)
    if (tc && !/\d|^[?-]$/.test(tc)) throw new Error(`time control "${tc}": write it like 90m+30s, 40/90m+30s,30m+30s or 5m+3s`)
    return tc
}

// gameCommand builds new_game's body from the form's fields (strings, as
// typed); it throws an Error naming the field that is wrong. Empty fields
// are left out.
export function gameCommand(f) {
    const body = {}
    for (const k of TAGS) {
        const v = String(f[k] ?? "").trim()
        checkTag(k, v)
        if (v) body[k] = v
    }
    for (const side of ["white", "black"]) {
        const elo = String(f[side + "_elo"] ?? "").trim()
        if (elo) {
            if (!/^\d{1,4}$/.test(elo) || Number(elo) > 4000) throw new Error(`${side}_elo "${elo}": a rating from 0 to 4000`)
            if (Number(elo) > 0) body[side + "_elo"] = Number(elo)
        }
        const title = String(f[side + "_title"] ?? "").trim()
        if (title) {
            if (!/^[A-Za-z]{1,4}$/.test(title)) throw new Error(`${side}_title "${title}": 1 to 4 letters (GM, IM, WGM, FM, ...)`)
            body[side + "_title"] = title.toUpperCase()
        }
        const fed = String(f[side + "_fed"] ?? "").trim()
        if (fed) {
            if (!/^[A-Za-z]{3}$/.test(fed)) throw new Error(`${side}_fed "${fed}": FIDE's three letters (NOR, CHN, ...)`)
            body[side + "_fed"] = fed.toUpperCase()
        }
        const id = String(f[side + "_fide_id"] ?? "").trim()
        if (id) {
            if (!/^\d{1,12}$/.test(id)) throw new Error(`${side}_fide_id "${id}": digits only`)
            body[side + "_fide_id"] = id
        }
    }
    const tc = checkTimeControl(f.time_control)
    if (tc) body.time_control = tc
    return body
}

// fieldsOf reads a board's state as the new-game form's fields: the game
// on the board, for a new game with the same players.
export function fieldsOf(st) {
    const f = {}
    if (!st) return f
    for (const k of [...TAGS, "time_control", "white_title", "white_fed", "white_fide_id", "black_title", "black_fed", "black_fide_id"]) {
        f[k] = st[k] ? String(st[k]) : ""
    }
    for (const k of ["white_elo", "black_elo"]) f[k] = st[k] ? String(st[k]) : ""
    return f
}

// roundGames lists the new games of round `round` on the boards seen
// (each {id, state}): one new_game per board whose game is of that round,
// with its players and details as the board shows them, in board-number
// order, and the time control given (the board's own when empty). It
// throws when a time control is wrong or no board is of that round.
export function roundGames(boards, round, timeControl = "") {
    round = String(round || "").trim()
    if (!round) throw new Error("round: which round?")
    const tc = checkTimeControl(timeControl)
    const out = []
    for (const b of boards) {
        const st = b.state
        if (!st || String(st.round || "") !== round) continue
        const f = fieldsOf(st)
        if (tc) f.time_control = tc
        const body = gameCommand(f)
        const inProgress = !!(st.ply > 0 && (!st.result || st.result === "*"))
        out.push({board: b.id, body, boardNo: st.board_no || "", ply: st.ply || 0, inProgress})
    }
    if (!out.length) throw new Error(`no board the console sees has a game of round ${round}`)
    const no = (g) => parseInt(g.boardNo, 10) || 1e6
    out.sort((a, b) => no(a) - no(b) || (a.board < b.board ? -1 : 1))
    return out
}

// gameLine says a new game in one line: "Board 3 · b-003: Carlsen – Caruana, 90m+30s".
export function gameLine(board, body) {
    const where = [body.board_no ? `Board ${body.board_no}` : "", board].filter(Boolean).join(" · ")
    const side = (s) => [body[s + "_title"], body[s] || (s === "white" ? "White" : "Black"), body[s + "_elo"]].filter(Boolean).join(" ")
    const tc = body.time_control ? `, ${body.time_control}` : ""
    const rd = body.round ? `, round ${body.round}` : ""
    return `${where}: ${side("white")} – ${side("black")}${rd}${tc}`
}

// describe says what a command does, for the log.
export function describe(verb, body) {
    switch (verb) {
    case "set_result":
        return `${body.result} (${body.reason})${body.replace ? ", replacing the result" : ""}`
    case "new_game":
        return gameLine("", body).replace(/^: /, "")
    case "correct_move":
        return `ply ${body.ply} becomes ${body.uci}`
    case "ack_alert":
        return `alert ${body.alert}: ${body.decision}${body.note ? ` (${body.note})` : ""}`
    default:
        return JSON.stringify(body)
    }
}

// brokerRefusal explains a publish the broker refused: the account has no
// right to send this command (the ACL), or another reason it gave.
export function brokerRefusal(err, user, verb) {
    const msg = String(err && err.message || err)
    if (/not authori[sz]ed|0x87|reason 135/i.test(msg)) {
        return `refused by the broker: the account "${user || "anonymous"}" has no right to send ${verb} (${msg})`
    }
    return `refused by the broker: ${msg}`
}

// The command log keeps the newest entries, at most LOG_MAX.
export const LOG_MAX = 200

// logEntry is one line of the command log: who sent what to which board,
// when, and the reply (status "sending", "ok" or "error").
export function logEntry({at, by, board, verb, body}) {
    return {at: new Date(at).toISOString(), by: by || "", board, verb, what: describe(verb, body), status: "sending", reply: ""}
}

// settle records a reply (or a refusal) on an entry.
export function settle(e, {ok, error, duplicate}) {
    e.status = ok ? "ok" : "error"
    e.reply = ok ? (duplicate ? "ok (already applied)" : "ok") : String(error || "error")
    return e
}
