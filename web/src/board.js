// The demonstration board page: one board or a grid of boards, live.
import {Chessboard, BORDER_TYPE, COLOR} from "cm-chessboard/src/Chessboard.js"
import {Markers} from "cm-chessboard/src/extensions/markers/Markers.js"
import {formatClock, moveLabel, pgnFileName, placementAfter, remainingMS} from "./chessutil.js"
import {Feed, connectionBadge, loadConfig} from "./feed.js"
import {overviewRounds} from "./overview.js"

const MARK_LAST = {class: "marker-last", slice: "markerSquare"}
const MARK_PROV = {class: "marker-prov", slice: "markerFrame"}
const NOTICE_MS = 20000

function el(tag, cls, text) {
    const e = document.createElement(tag)
    if (cls) e.className = cls
    if (text !== undefined) e.textContent = text
    return e
}

const TERMINATION = {
    "checkmate": "checkmate", "stalemate": "stalemate", "flag-fall": "time", "resignation": "resignation",
    "agreement": "agreement", "dead-position": "dead position", "arbiter": "arbiter's decision",
}

class Tile {
    constructor(board, orientation, large, animMS) {
        this.b = board
        this.large = large
        this.root = el("section", "tile")
        this.root.dataset.board = board.id
        const head = el("header", "tile-head")
        this.title = el("span", "tile-title", board.id)
        this.badge = el("span", "tile-badge")
        const flip = el("button", "flip", "⇅")
        flip.title = "Turn the board"
        flip.addEventListener("click", () => this.setOrientation(this.orientation === COLOR.white ? COLOR.black : COLOR.white))
        this.download = el("button", "download", "PGN")
        this.download.title = "Download the game (PGN)"
        this.download.hidden = true
        this.download.addEventListener("click", () => this.savePGN())
        this.live = el("button", "live", "Live ▸")
        this.live.title = "Back to the position on the board"
        this.live.hidden = true
        this.live.addEventListener("click", () => this.review(0))
        head.append(this.title, this.badge, this.live, this.download, flip)
        this.top = this.player()
        this.bottom = this.player()
        this.boardEl = el("div", "board")
        this.notice = el("div", "notice")
        this.notice.hidden = true
        this.result = el("div", "result")
        this.moves = el("ol", "moves")
        // A click on a move shows the position after it; Live (or a click
        // on the last move) returns to the board.
        this.moves.addEventListener("click", (e) => {
            const m = e.target.closest(".san[data-ply]")
            if (!m) return
            const ply = parseInt(m.dataset.ply, 10)
            const n = this.b.state && this.b.state.moves ? this.b.state.moves.length : 0
            this.review(ply >= n && !this.b.state.provisional ? 0 : ply)
        })
        this.reviewPly = 0
        const side = el("div", "side")
        side.append(this.result, this.moves)
        this.top.row.classList.add("top")
        this.bottom.row.classList.add("bottom")
        // One flat grid: the grid view stacks it, the large view puts the
        // players, clocks and moves beside the board.
        this.root.append(head, this.notice, this.top.row, this.boardEl, this.bottom.row, side)
        this.cb = new Chessboard(this.boardEl, {
            position: "8/8/8/8/8/8/8/8",
            orientation: COLOR.white,
            assetsUrl: "assets/",
            style: {cssClass: "default", borderType: BORDER_TYPE.thin, showCoordinates: !large, animationDuration: animMS},
            extensions: [{class: Markers, props: {autoMarkers: null, sprite: "markers.svg"}}],
        })
        this.shown = undefined
        this.drawing = 0 // position changes queued in the board
        this.noticeTimer = 0
        this.correctionShown = null
        this.setOrientation(orientation)
    }

    player() {
        const row = el("div", "player")
        const who = el("span", "who")
        const title = el("span", "ptitle")
        const name = el("span", "name")
        const elo = el("span", "elo")
        const fed = el("span", "fed")
        who.append(title, name, elo, fed)
        const clock = el("span", "clock")
        row.append(who, clock)
        return {row, name, title, elo, fed, clock}
    }

    setPlayer(p, name, title, elo, fed) {
        p.name.textContent = name
        p.title.textContent = title || ""
        p.title.hidden = !title
        p.elo.textContent = elo ? String(elo) : ""
        p.elo.hidden = !elo
        p.fed.textContent = fed || ""
        p.fed.hidden = !fed
    }

    // review shows the position after ply (0: the live board).
    review(ply) {
        this.reviewPly = ply
        this.update()
    }

    savePGN() {
        const pg = this.b.pgn, st = this.b.state
        if (!pg || !pg.text || !st || pg.game !== st.game) return
        const url = URL.createObjectURL(new Blob([pg.text], {type: "application/x-chess-pgn"}))
        const a = el("a")
        a.href = url
        a.download = pgnFileName(st)
        document.body.append(a)
        a.click()
        a.remove()
        setTimeout(() => URL.revokeObjectURL(url), 10000)
    }

    setOrientation(o) {
        this.orientation = o
        this.root.dataset.orientation = o
        this.cb.setOrientation(o)
        this.white = o === COLOR.white ? this.bottom : this.top
        this.black = o === COLOR.white ? this.top : this.bottom
        this.white.clock.dataset.side = "white"
        this.black.clock.dataset.side = "black"
        this.update()
        this.tick(performance.now())
    }

    update() {
        const b = this.b, st = b.state
        if (!st) return
        const info = [st.board_no && `Board ${st.board_no}`, st.round && `Round ${st.round}`, st.event].filter(Boolean)
        this.title.textContent = info.length ? info.join(" · ") : b.id
        this.title.title = b.id
        this.setPlayer(this.white, st.white || "White", st.white_title, st.white_elo, st.white_fed)
        this.setPlayer(this.black, st.black || "Black", st.black_title, st.black_elo, st.black_fed)
        const pg = b.pgn
        this.download.hidden = !(pg && pg.text && pg.game === st.game)
        // The board shows what stands on the real board: the provisional
        // move (made, clock not yet pressed) too; or, while a move of the
        // list is looked at, the position after it.
        const prov = st.provisional && st.provisional.fen ? st.provisional : null
        const moves = st.moves || []
        if (this.reviewPly > moves.length) this.reviewPly = 0 // taken back meanwhile
        const reviewing = this.reviewPly > 0
        let fen = prov ? prov.fen : st.fen
        if (reviewing) {
            try {
                fen = placementAfter(st.start_fen, moves, this.reviewPly)
            } catch {
                this.reviewPly = 0
                return this.update()
            }
        }
        this.live.hidden = !reviewing
        this.root.classList.toggle("reviewing", reviewing)
        const root = this.root.dataset
        root.review = String(this.reviewPly)
        root.fen = st.fen
        root.shownFen = fen
        root.ply = String(st.ply || 0)
        root.game = st.game || ""
        root.result = st.result || "*"
        if (fen !== this.shown) {
            // Every change animates, so a correction visibly moves the
            // pieces back; the first position, a hidden page and a backlog
            // (moves arriving faster than they animate, as after a
            // reconnect) are drawn at once.
            const animate = this.shown !== undefined && !document.hidden && this.drawing === 0
            this.shown = fen
            this.drawing++
            this.cb.setPosition(fen, animate).finally(() => { this.drawing-- })
        }
        const last = reviewing ? moves[this.reviewPly - 1] : prov ? prov.uci : st.last_move ? st.last_move.uci : ""
        root.last = reviewing ? "" : last || ""
        this.cb.removeMarkers(MARK_LAST)
        this.cb.removeMarkers(MARK_PROV)
        if (last && last.length >= 4) {
            const mk = prov && !reviewing ? MARK_PROV : MARK_LAST
            this.cb.addMarker(mk, last.slice(0, 2))
            this.cb.addMarker(mk, last.slice(2, 4))
        }
        this.renderMoves(prov)
        if (st.result && st.result !== "*") {
            const why = TERMINATION[st.termination] || st.termination || ""
            this.result.textContent = why ? `${st.result} (${why})` : st.result
            this.result.hidden = false
        } else {
            this.result.textContent = ""
            this.result.hidden = true
        }
        this.updateBadge()
        this.updateCorrection()
    }

    renderMoves(prov) {
        const st = this.b.state
        const sans = this.b.sans()
        const start = st.start_fen
        const frag = document.createDocumentFragment()
        // Large mode shows the last moves only; the grid shows them all.
        const from = this.large ? Math.max(0, sans.length - 8) & ~1 : 0
        let li = null
        for (let i = from; i < sans.length; i++) {
            const label = moveLabel(i + 1, start)
            if (!li || label.endsWith(".")) {
                li = el("li")
                li.append(el("span", "no", label.replace("…", "…")))
                frag.append(li)
            }
            const m = el("span", "san", sans[i])
            m.dataset.ply = String(i + 1)
            if (this.reviewPly ? i + 1 === this.reviewPly : i === sans.length - 1 && !prov) m.classList.add("current")
            li.append(m)
        }
        if (prov) {
            const label = moveLabel(prov.ply, start)
            if (!li || label.endsWith(".")) {
                li = el("li")
                li.append(el("span", "no", label))
                frag.append(li)
            }
            const m = el("span", "san prov", prov.san || prov.uci)
            m.title = "made on the board, clock not yet pressed"
            li.append(m)
        }
        this.moves.replaceChildren(frag)
        if (!this.reviewPly) this.moves.scrollTop = this.moves.scrollHeight
    }

    updateBadge() {
        const b = this.b
        const parts = []
        if (b.status && b.status.online === false) parts.push(b.status.state === "lost" ? "connection lost" : "offline")
        this.badge.textContent = parts.join(" ")
        this.root.classList.toggle("offline", parts.length > 0)
    }

    updateCorrection() {
        const c = this.b.correction
        if (!c || c === this.correctionShown || !this.b.state) return
        this.correctionShown = c
        if (performance.now() - c.at > NOTICE_MS) return
        const start = this.b.state.start_fen
        let text = `Correction: ${moveLabel(c.ply, start)} ${c.old || ""}`.trim()
        text += c.new ? ` replaced by ${c.new}` : " taken back"
        if (c.dropped > 0) text += ` (and ${c.dropped} later move${c.dropped > 1 ? "s" : ""})`
        if (c.why) text += ` – ${c.why}`
        this.notice.textContent = text
        this.notice.hidden = false
        this.root.classList.remove("corrected")
        void this.root.offsetWidth // restart the highlight animation
        this.root.classList.add("corrected")
        clearTimeout(this.noticeTimer)
        this.noticeTimer = setTimeout(() => {
            this.notice.hidden = true
            this.root.classList.remove("corrected")
        }, NOTICE_MS)
    }

    tick(now) {
        const b = this.b, c = b.clock
        for (const side of ["white", "black"]) {
            const p = this[side]
            const ms = remainingMS(c, side, b.clockAt, now)
            const text = formatClock(ms)
            if (p.clock.textContent !== text) p.clock.textContent = text
            p.clock.dataset.ms = ms === null ? "" : String(Math.round(ms))
            const running = !!c && c.running === side
            p.row.classList.toggle("running", running)
            p.clock.classList.toggle("low", ms !== null && ms < 60000)
            p.clock.classList.toggle("flag", ms !== null && ms <= 0 && (running || c.event === "flag"))
        }
    }
}

// boardURL is the page's address showing one board, the other settings
// (broker, prefix, large, ...) kept.
function boardURL(params, id) {
    const p = new URLSearchParams(params)
    p.delete("view")
    p.delete("round")
    p.set("boards", id)
    return "?" + p.toString()
}

// showOverview lists every board the page sees, by round and board
// number: the players and the result or the move being played, each
// board a link to its own page. It is drawn again whenever a state or a
// status changes, so results show as they come.
function showOverview(cfg, conn) {
    const params = cfg.params
    const round = params.get("round")
    const root = document.getElementById("overview")
    const empty = document.getElementById("empty")
    document.getElementById("grid").hidden = true
    root.hidden = false
    document.body.classList.add("overview-view")
    if (cfg.title) document.getElementById("title").textContent = cfg.title
    document.title = (cfg.title || "Live boards") + " · overview"
    const link = document.getElementById("overview-link")
    const p = new URLSearchParams(params)
    p.delete("view")
    link.textContent = "Boards"
    document.getElementById("large").hidden = true
    link.href = "?" + p.toString()
    let feed = null
    let queued = false
    const draw = () => {
        queued = false
        const rounds = overviewRounds([...feed.boards.values()]).filter(r => !round || r.round === round)
        empty.hidden = rounds.length > 0
        root.replaceChildren(...rounds.map(r => {
            const sec = el("section", "ov-round")
            sec.dataset.round = r.round
            sec.append(el("h2", "", [r.round ? `Round ${r.round}` : "No round", r.event].filter(Boolean).join(" · ")))
            const table = el("table", "ov-table")
            const head = el("tr")
            for (const h of ["Board", "White", "", "Black", "Status"]) head.append(el("th", "", h))
            const body = el("tbody")
            for (const b of r.boards) {
                const tr = el("tr", "ov-board")
                tr.dataset.board = b.id
                tr.dataset.status = b.status
                const st = feed.board(b.id).status
                tr.classList.toggle("offline", !!(st && st.online === false))
                const a = el("a", "ov-no", b.no || b.id)
                a.href = boardURL(params, b.id)
                a.title = b.id
                const no = el("td")
                no.append(a)
                const finished = b.status === "finished"
                tr.append(no, el("td", "ov-white", b.white), el("td", "ov-result", finished ? b.text : ""), el("td", "ov-black", b.black),
                    el("td", "ov-status", finished ? "finished" : b.text))
                tr.addEventListener("click", (e) => {
                    if (!e.target.closest("a")) location.href = a.href
                })
                body.append(tr)
            }
            table.append(el("thead"), body)
            table.tHead.append(head)
            sec.append(table)
            return sec
        }))
    }
    const later = () => {
        if (!queued) {
            queued = true
            queueMicrotask(draw)
        }
    }
    feed = new Feed(cfg, {
        leaves: ["state", "status"],
        onConn: (s, d) => connectionBadge(conn, s, d),
        onNewBoard: later,
        onChange: later,
    })
    for (const id of cfg.boards) feed.board(id)
    feed.connect()
}

async function main() {
    const cfg = await loadConfig()
    const params = cfg.params
    if (params.get("view") === "overview") return showOverview(cfg, document.getElementById("conn"))
    {
        const link = document.getElementById("overview-link")
        const p = new URLSearchParams(params)
        p.delete("boards")
        p.set("view", "overview")
        link.href = "?" + p.toString()
    }
    const large = ["1", "true", "yes"].includes(params.get("large"))
    const black = params.get("orientation") === "black"
    const flipped = new Set((params.get("flip") || "").split(","))
    const round = params.get("round")
    // anim: the duration of a move's animation in ms (default 400).
    const anim = Math.min(2000, Math.max(0, parseInt(params.get("anim") || "400", 10) || 0))
    document.body.classList.toggle("large", large)
    if (cfg.title) {
        document.title = cfg.title
        document.getElementById("title").textContent = cfg.title
    }
    const grid = document.getElementById("grid")
    const conn = document.getElementById("conn")
    const tiles = new Map()
    const order = new Map(cfg.boards.map((id, i) => [id, i]))
    const place = () => {
        // A configured board shows at once (waiting for its first state);
        // a discovered one once its state says what it is.
        const list = [...tiles.values()].filter(t => t.b.state ? !round || String(t.b.state.round) === round : order.has(t.b.id) && !round)
        const key = (t) => order.has(t.b.id) ? [0, order.get(t.b.id), ""] : [1, parseInt(t.b.state && t.b.state.board_no, 10) || 1e9, t.b.id]
        list.sort((a, c) => {
            const x = key(a), y = key(c)
            return x[0] - y[0] || x[1] - y[1] || (x[2] < y[2] ? -1 : x[2] > y[2] ? 1 : 0)
        })
        for (const t of tiles.values()) t.root.hidden = !list.includes(t)
        grid.dataset.count = String(list.length)
        grid.style.setProperty("--n", String(Math.max(1, list.length)))
        grid.replaceChildren(...list.map(t => t.root))
    }
    const feed = new Feed(cfg, {
        leaves: ["state", "clock", "pgn", "status", "correction"],
        onConn: (s, d) => connectionBadge(conn, s, d),
        onNewBoard: (b) => {
            const o = (black !== flipped.has(b.id)) ? COLOR.black : COLOR.white
            tiles.set(b.id, new Tile(b, o, large, anim))
            place()
        },
        onChange: (b, what) => {
            const t = tiles.get(b.id)
            if (!t) return
            if (what === "clock") t.tick(performance.now())
            else t.update()
            // Re-place only when what orders the tiles changed.
            const key = b.state ? `${b.state.round}|${b.state.board_no}` : ""
            if (what === "state" && key !== t.placeKey) {
                t.placeKey = key
                place()
            }
        },
    })
    for (const id of cfg.boards) feed.board(id)
    const empty = document.getElementById("empty")
    setInterval(() => {
        const now = performance.now()
        for (const t of tiles.values()) t.tick(now)
        empty.hidden = tiles.size > 0
    }, 100)
    document.getElementById("large").addEventListener("click", () => {
        params.set("large", large ? "0" : "1")
        location.search = params.toString()
    })
    feed.connect()
}

main().catch((e) => {
    console.error(e)
    document.body.append(el("pre", "fatal", String(e && e.stack || e)))
})
