// The arbiter console: every board of the room with its state, the open
// alerts with the position before the irregularity, and the arbiter's
// commands: the decision on an alert (<b>/cmd/ack_alert), a result
// (set_result), a new game on one board or on every board of a round
// (new_game), a round's pairings imported from the pairing program's
// file (one new_game per board), each confirmed first and written to the command log with
// the board's reply.
import {Chessboard, BORDER_TYPE, COLOR} from "cm-chessboard/src/Chessboard.js"
import {Markers} from "cm-chessboard/src/extensions/markers/Markers.js"
import {alertLabel, formatClock, lawText, moveLabel, placementAfter, remainingMS} from "./chessutil.js"
import {Feed, connectionBadge, loadConfig} from "./feed.js"
import {commandID, importGames, parsePairings} from "./round.js"
import {LOG_MAX, brokerRefusal, correctCommand, fieldsOf, gameCommand, gameLine, logEntry, resultCommand, resultText, roundGames, settle} from "./commands.js"

const MARK_DIFF = {class: "marker-diff", slice: "markerFrame"}

// setText changes an element's text only when it differs: the room is
// refreshed four times a second.
function setText(e, text) {
    if (e.textContent !== text) e.textContent = text
}

function el(tag, cls, text) {
    const e = document.createElement(tag)
    if (cls) e.className = cls
    if (text !== undefined) e.textContent = text
    return e
}

// boardState is the one word the room overview shows for a board.
function boardState(b, now) {
    if (b.alerts && b.alerts.length) return "alert"
    const st = b.state
    if (st && st.result && st.result !== "*") return "finished"
    if (b.flagged(now)) return "flag"
    if (st && (st.ply > 0 || (b.clock && b.clock.running))) return "playing"
    return "ready"
}

const STATE_TEXT = {alert: "alert open", finished: "finished", flag: "flag", playing: "in progress", ready: "not started"}

class BoardRow {
    constructor(b) {
        this.b = b
        this.root = el("li", "room-board")
        this.root.dataset.board = b.id
        this.name = el("span", "rb-id", b.id)
        this.players = el("span", "rb-players")
        this.move = el("span", "rb-move")
        this.clocks = el("span", "rb-clocks")
        this.state = el("span", "rb-state")
        this.online = el("span", "rb-online")
        this.root.append(this.state, this.name, this.players, this.move, this.clocks, this.online)
    }

    update(now) {
        const b = this.b, st = b.state
        const s = boardState(b, now)
        this.root.dataset.state = s
        const n = b.alerts ? b.alerts.length : 0
        setText(this.state, s === "alert" ? `${n} alert${n > 1 ? "s" : ""}` : STATE_TEXT[s])
        if (st) {
            setText(this.name, st.board_no ? `${st.board_no} · ${b.id}` : b.id)
            setText(this.players, `${st.white || "White"} – ${st.black || "Black"}`)
            const next = moveLabel((st.ply || 0) + 1, st.start_fen)
            const side = st.side_to_move === "black" ? "Black" : "White"
            setText(this.move, st.result && st.result !== "*" ? st.result : `move ${parseInt(next, 10)}, ${side}`)
        }
        const c = b.clock
        setText(this.clocks, c ? `${formatClock(remainingMS(c, "white", b.clockAt, now))} | ${formatClock(remainingMS(c, "black", b.clockAt, now))}` : "")
        const off = b.status && b.status.online === false
        setText(this.online, off ? (b.status.state === "lost" ? "connection lost" : "offline") : "")
        this.root.classList.toggle("offline", off)
    }
}

class AlertCard {
    constructor(app, b, a) {
        this.app = app
        this.b = b
        this.a = a
        const st = b.state || {}
        this.root = el("article", "alert-card")
        this.root.dataset.alertId = a.id
        this.root.dataset.board = b.id
        this.root.dataset.kind = a.kind
        const mini = el("div", "mini")
        const info = el("div", "alert-info")
        const h = el("h3")
        h.append(el("span", "kind", alertLabel(a.kind)), el("span", "where", ` · ${st.board_no ? "Board " + st.board_no + " · " : ""}${b.id}`))
        const side = a.side ? ` (${a.side[0].toUpperCase()}${a.side.slice(1)})` : ""
        const game = st.white || st.black ? ` · ${st.white || "White"} – ${st.black || "Black"}` : ""
        const ply = el("p", "ply", `Move ${moveLabel(a.ply, st.start_fen).replace(".", "")}${side}${game}`)
        ply.dataset.ply = String(a.ply)
        const text = el("p", "text", a.text)
        const law = el("p", "law")
        if (lawText(a.edition, a.article)) law.append(el("span", "article", lawText(a.edition, a.article)))
        if (a.penalty) law.append(el("span", "penalty", a.penalty))
        const sq = el("p", "squares", a.squares && a.squares.length ? `Squares: ${a.squares.join(", ")}` : "")
        const actions = el("div", "actions")
        this.note = el("input", "note")
        this.note.placeholder = "note (optional)"
        this.note.maxLength = 200
        actions.append(this.note)
        this.buttons = []
        for (const [d, label] of [["upheld", "Upheld"], ["dismissed", "Dismissed"], ["corrected", "Corrected"]]) {
            const btn = el("button", "decide " + d, label)
            btn.dataset.decision = d
            btn.addEventListener("click", () => this.decide(d))
            this.buttons.push(btn)
            actions.append(btn)
        }
        this.outcome = el("p", "outcome")
        info.append(h, ply, text, law, sq, actions, this.outcome)
        this.root.append(mini, info)
        // The position before the irregularity: the moves before the
        // alert's ply (the alert payload's own fen when it has one).
        let fen = a.fen || ""
        if (!fen && st.moves) {
            try {
                fen = placementAfter(st.start_fen, st.moves, Math.max(0, Math.min(a.ply - 1, st.moves.length)))
            } catch (e) {
                console.warn(`alert ${a.id}: position before ply ${a.ply}:`, e)
            }
        }
        mini.dataset.fen = fen
        if (fen) {
            this.cb = new Chessboard(mini, {
                position: fen,
                orientation: a.side === "black" ? COLOR.black : COLOR.white,
                assetsUrl: "assets/",
                style: {cssClass: "default", borderType: BORDER_TYPE.none, showCoordinates: true, animationDuration: 0},
                extensions: [{class: Markers, props: {autoMarkers: null, sprite: "markers.svg"}}],
            })
            for (const s of a.squares || []) this.cb.addMarker(MARK_DIFF, s)
        } else {
            mini.textContent = "position not known"
        }
        this.authorised(app.loggedIn)
    }

    authorised(yes) {
        for (const b of this.buttons) {
            b.disabled = !yes || this.sending
            b.title = yes ? "" : "log in as arbiter to decide"
        }
    }

    async decide(decision) {
        this.sending = true
        this.authorised(this.app.loggedIn)
        this.outcome.dataset.status = "sending"
        this.outcome.textContent = `sending “${decision}”…`
        try {
            const r = await this.app.send(this.b.id, "ack_alert", {alert: this.a.id, decision, note: this.note.value.trim()})
            this.outcome.dataset.status = r.ok ? "ok" : "error"
            this.outcome.textContent = r.ok ? `${decision} – acknowledged by the board` : r.text
        } finally {
            this.sending = false
            this.authorised(this.app.loggedIn)
        }
    }

    destroy() {
        if (this.cb) this.cb.destroy()
        this.root.remove()
    }
}

class App {
    async start() {
        this.cfg = await loadConfig()
        if (this.cfg.title) {
            document.title = "Arbiter · " + this.cfg.title
            document.getElementById("title").textContent = this.cfg.title
        }
        this.rows = new Map()
        this.cards = new Map() // board/alert id -> card
        this.seen = new Set()
        this.loggedIn = false
        this.room = document.getElementById("room")
        this.list = document.getElementById("alerts")
        this.noAlerts = document.getElementById("no-alerts")
        this.conn = document.getElementById("conn")
        this.user = document.getElementById("user")
        this.pass = document.getElementById("pass")
        this.sound = document.getElementById("sound")
        this.vibrate = document.getElementById("vibrate")
        this.sound.checked = localStorage.getItem("boardd.sound") === "1"
        this.vibrate.checked = localStorage.getItem("boardd.vibrate") === "1"
        this.sound.addEventListener("change", () => {
            localStorage.setItem("boardd.sound", this.sound.checked ? "1" : "0")
            if (this.sound.checked) this.beep() // unlocks audio on a user gesture
        })
        this.vibrate.addEventListener("change", () => localStorage.setItem("boardd.vibrate", this.vibrate.checked ? "1" : "0"))
        this.feed = new Feed(this.cfg, {
            leaves: ["state", "clock", "status", "alerts/active", "reply"],
            onConn: (s, d) => {
                connectionBadge(this.conn, s, d)
                if (s === "connected") this.connectedAt = performance.now()
            },
            onNewBoard: (b) => {
                const r = new BoardRow(b)
                this.rows.set(b.id, r)
                r.root.addEventListener("click", () => {
                    this.select(b.id)
                    const c = [...this.cards.values()].find(c => c.b.id === b.id)
                    if (c) c.root.scrollIntoView({behavior: "smooth", block: "center"})
                })
                this.placeRows()
                this.boardsChanged()
            },
            onChange: (b, what) => {
                const r = this.rows.get(b.id)
                if (r) r.update(performance.now())
                if (what === "alerts" || what === "state") this.syncAlerts(b)
                const key = b.state ? String(b.state.board_no) : ""
                if (what === "state" && r && key !== r.placeKey) {
                    r.placeKey = key
                    this.placeRows()
                }
                if (what === "state") this.boardsChanged()
            },
        })
        this.setupActions()
        for (const id of this.cfg.boards) this.feed.board(id)
        document.getElementById("login").addEventListener("submit", (e) => {
            e.preventDefault()
            this.login(this.user.value.trim(), this.pass.value)
        })
        document.getElementById("logout").addEventListener("click", () => this.login("", ""))
        const saved = sessionStorage.getItem("boardd.user")
        if (saved) {
            this.user.value = saved
            this.login(saved, sessionStorage.getItem("boardd.pass") || "")
        } else {
            this.login("", "")
        }
        setInterval(() => {
            const now = performance.now()
            for (const r of this.rows.values()) r.update(now)
            this.summary()
        }, 250)
    }

    login(user, pass) {
        this.loggedIn = !!user
        if (user) {
            // Kept for this tab only, so a reload stays logged in.
            sessionStorage.setItem("boardd.user", user)
            sessionStorage.setItem("boardd.pass", pass)
        } else {
            sessionStorage.removeItem("boardd.user")
            sessionStorage.removeItem("boardd.pass")
        }
        document.body.dataset.user = user
        document.getElementById("who").textContent = user ? `logged in as ${user}` : "read-only"
        document.getElementById("logout").hidden = !user
        document.getElementById("login").hidden = !!user
        for (const c of this.cards.values()) {
            c.authorised(this.loggedIn)
            if (!c.sending) c.outcome.textContent = ""
        }
        for (const b of document.querySelectorAll(".needs-login")) {
            b.disabled = !user
            b.title = user ? "" : "log in to send commands"
        }
        this.pass.value = ""
        this.feed.connect(user, pass)
    }

    // send publishes a command, writes it to the command log and resolves
    // with {ok, text}: the board's reply, or why it never got one (the
    // broker refused it, no connection, no reply in time). It never
    // rejects.
    async send(board, verb, body) {
        const e = logEntry({at: Date.now(), by: this.feed.username, board, verb, body})
        this.log.unshift(e)
        this.log.length = Math.min(this.log.length, LOG_MAX)
        this.renderLog()
        let r
        try {
            const reply = await this.feed.command(board, verb, body)
            settle(e, reply)
            r = {ok: !!reply.ok, duplicate: !!reply.duplicate, text: reply.ok ? "ok" : `refused by the board: ${reply.error}`}
        } catch (err) {
            const text = err && err.broker ? brokerRefusal(err, this.feed.username, verb) : String(err && err.message || err)
            settle(e, {ok: false, error: text})
            r = {ok: false, text}
        }
        this.renderLog()
        return r
    }

    loadLog() {
        try {
            const l = JSON.parse(sessionStorage.getItem("boardd.log") || "[]")
            if (!Array.isArray(l)) return []
            // A command sent before a reload has no reply here any more.
            for (const e of l) if (e.status === "sending") Object.assign(e, {status: "error", reply: "no reply seen (the page was reloaded)"})
            return l.slice(0, LOG_MAX)
        } catch {
            return []
        }
    }

    renderLog() {
        sessionStorage.setItem("boardd.log", JSON.stringify(this.log))
        document.getElementById("log-empty").hidden = this.log.length > 0
        const rows = this.log.map(e => {
            const tr = el("tr")
            tr.dataset.status = e.status
            tr.dataset.verb = e.verb
            tr.dataset.board = e.board
            const t = new Date(e.at)
            const time = el("td", "l-at", t.toLocaleTimeString([], {hour12: false}))
            time.title = e.at
            tr.append(time, el("td", "l-by", e.by || "anonymous"), el("td", "l-board", e.board), el("td", "l-verb", e.verb),
                el("td", "l-what", e.what), el("td", "l-reply", e.status === "sending" ? "waiting…" : e.reply))
            return tr
        })
        document.getElementById("log-rows").replaceChildren(...rows)
    }

    setupActions() {
        this.log = this.loadLog()
        this.renderLog()
        this.boardSel = document.getElementById("act-board")
        this.gameForm = document.getElementById("game-form")
        this.actOutcome = document.getElementById("act-outcome")
        this.dialog = document.getElementById("confirm")
        this.boardSel.addEventListener("change", () => this.select(this.boardSel.value))
        document.getElementById("game-fill").addEventListener("click", () => this.fillGame())
        document.getElementById("result-form").addEventListener("submit", (e) => {
            e.preventDefault()
            this.enterResult()
        })
        document.getElementById("correct-form").addEventListener("submit", (e) => {
            e.preventDefault()
            this.correctMove()
        })
        this.gameForm.addEventListener("submit", (e) => {
            e.preventDefault()
            this.startGame()
        })
        document.getElementById("round-send").addEventListener("click", () => this.startRound())
        document.getElementById("import-form").addEventListener("submit", (e) => {
            e.preventDefault()
            this.importRound()
        })
        document.getElementById("confirm-ok").addEventListener("click", () => this.answerDialog(true))
        document.getElementById("confirm-cancel").addEventListener("click", () => this.answerDialog(false))
        this.dialog.addEventListener("cancel", (e) => { // Escape
            e.preventDefault()
            this.answerDialog(false)
        })
        this.dialog.addEventListener("close", () => {
            if (!this.dialog.open && this.answer) this.answerDialog(false)
        })
    }

    label(b) {
        const st = b.state || {}
        return st.board_no ? `Board ${st.board_no} · ${b.id}` : b.id
    }

    // boardsChanged refreshes the board list of the actions.
    boardsChanged() {
        const ids = [...this.room.children].map(r => r.dataset.board)
        const cur = this.boardSel.value
        const opts = ids.map(id => {
            const o = el("option", "", this.label(this.feed.board(id)))
            o.value = id
            return o
        })
        const same = opts.length === this.boardSel.options.length && opts.every((o, i) => o.value === this.boardSel.options[i].value && o.textContent === this.boardSel.options[i].textContent)
        if (!same) {
            this.boardSel.replaceChildren(...opts)
            if (ids.includes(cur)) this.boardSel.value = cur
            else if (ids.length) this.select(ids[0])
        }
        this.showGame()
    }

    select(id) {
        if (this.boardSel.value !== id || this.selected !== id) this.filled = ""
        this.boardSel.value = id
        this.selected = id
        this.showGame()
    }

    // showGame says which game the actions apply to.
    showGame() {
        const b = this.boardSel.value && this.feed.board(this.boardSel.value)
        const st = b && b.state
        const t = document.getElementById("act-game")
        if (!st) {
            setText(t, b ? "no game known" : "")
            return
        }
        // The form shows the selected board's game once its state is known.
        if (this.filled !== b.id) {
            this.filled = b.id
            this.fillGame()
        }
        const res = st.result && st.result !== "*" ? `result ${st.result}` : `${st.ply || 0} plies played`
        setText(t, `${st.white || "White"} – ${st.black || "Black"}${st.round ? ", round " + st.round : ""}; ${res}`)
    }

    // fillGame puts the selected board's game into the new-game form.
    fillGame() {
        const b = this.boardSel.value && this.feed.board(this.boardSel.value)
        if (!b || !b.state) return
        const f = fieldsOf(b.state)
        for (const [k, v] of Object.entries(f)) {
            const i = this.gameForm.elements.namedItem(k)
            if (i) i.value = v
        }
    }

    // confirm asks before sending; resolves true when the arbiter confirms.
    confirm(title, lines, warn, action) {
        document.getElementById("confirm-title").textContent = title
        document.getElementById("confirm-list").replaceChildren(...lines.map(l => el("li", "", l)))
        const w = document.getElementById("confirm-warn")
        w.textContent = warn || ""
        w.hidden = !warn
        document.getElementById("confirm-ok").textContent = action
        // A confirmation still open is answered no.
        if (this.answer) this.answerDialog(false)
        return new Promise((resolve) => {
            this.answer = resolve
            this.dialog.showModal()
        })
    }

    // answerDialog closes the confirmation with the arbiter's answer, at
    // once: the dialog's close event is queued and could arrive after the
    // next confirmation opened.
    answerDialog(yes) {
        const a = this.answer
        this.answer = null
        if (this.dialog.open) this.dialog.close()
        if (a) a(yes)
    }

    outcome(status, text) {
        this.actOutcome.dataset.status = status
        this.actOutcome.textContent = text
    }

    async enterResult() {
        const id = this.boardSel.value
        if (!id) return this.outcome("error", "no board selected")
        const b = this.feed.board(id)
        let body
        try {
            body = resultCommand({
                result: document.getElementById("res-result").value,
                reason: document.getElementById("res-reason").value,
                detail: document.getElementById("res-detail").value,
                replace: document.getElementById("res-replace").checked,
            })
        } catch (e) {
            return this.outcome("error", e.message)
        }
        const st = b.state || {}
        const game = `${st.white || "White"} – ${st.black || "Black"}`
        let warn = ""
        if (st.result && st.result !== "*") {
            warn = body.replace ? `The game's result ${st.result} is replaced.` : `The game already has the result ${st.result}: the board refuses another unless "replace a result" is ticked.`
        }
        if (!await this.confirm(`Enter a result on ${this.label(b)}`, [`${game}: ${resultText(body.result)}, ${body.reason}`], warn, "Enter result")) {
            return this.outcome("", "")
        }
        this.outcome("sending", `sending ${body.result} to ${id}…`)
        const r = await this.send(id, "set_result", body)
        this.outcome(r.ok ? "ok" : "error", r.ok ? `${this.label(b)}: result ${body.result} (${body.reason}) entered` : `${this.label(b)}: ${r.text}`)
    }

    async correctMove() {
        const id = this.boardSel.value
        if (!id) return this.outcome("error", "no board selected")
        const b = this.feed.board(id)
        let body
        try {
            body = correctCommand({ply: document.getElementById("cor-ply").value, uci: document.getElementById("cor-uci").value})
        } catch (e) {
            return this.outcome("error", e.message)
        }
        const st = b.state || {}
        const game = `${st.white || "White"} – ${st.black || "Black"}`
        if (!await this.confirm(`Correct a move on ${this.label(b)}`, [`${game}: ply ${body.ply} becomes ${body.uci}`],
            "The moves after it stay while they are legal; the others are retracted. Set the board to the corrected game.", "Correct")) {
            return this.outcome("", "")
        }
        this.outcome("sending", `correcting ply ${body.ply} on ${id}…`)
        const r = await this.send(id, "correct_move", body)
        this.outcome(r.ok ? "ok" : "error", r.ok ? `${this.label(b)}: ply ${body.ply} corrected to ${body.uci}` : `${this.label(b)}: ${r.text}`)
    }

    formFields() {
        const f = {}
        for (const i of this.gameForm.querySelectorAll("input[name]")) f[i.name] = i.value
        return f
    }

    async startGame() {
        const id = this.boardSel.value
        if (!id) return this.outcome("error", "no board selected")
        const b = this.feed.board(id)
        let body
        try {
            body = gameCommand(this.formFields())
        } catch (e) {
            return this.outcome("error", e.message)
        }
        const st = b.state
        const warn = st && st.ply > 0 && (!st.result || st.result === "*")
            ? `${this.label(b)} has a game in progress (${st.white || "White"} – ${st.black || "Black"}, ${st.ply} plies, no result): the new game replaces it.` : ""
        if (!await this.confirm(`Start a new game on ${this.label(b)}`, [gameLine(id, body)], warn, "Start game")) {
            return this.outcome("", "")
        }
        this.outcome("sending", `starting a new game on ${id}…`)
        const r = await this.send(id, "new_game", body)
        this.outcome(r.ok ? "ok" : "error", r.ok ? `${this.label(b)}: new game started` : `${this.label(b)}: ${r.text}`)
    }

    // startRound sends one new_game to every board the console sees whose
    // game is of the round typed, with the players it shows.
    async startRound() {
        const f = this.formFields()
        let games
        try {
            games = roundGames([...this.feed.boards.values()], f.round, f.time_control)
        } catch (e) {
            return this.outcome("error", e.message)
        }
        const busy = games.filter(g => g.inProgress)
        const warn = busy.length ? `${busy.length} of these boards ${busy.length > 1 ? "have games" : "has a game"} in progress (${busy.map(g => g.board).join(", ")}): the new games replace them.` : ""
        if (!await this.confirm(`Start ${games.length} new game${games.length > 1 ? "s" : ""} of round ${f.round.trim()}`, games.map(g => gameLine(g.board, g.body)), warn, `Start ${games.length} game${games.length > 1 ? "s" : ""}`)) {
            return this.outcome("", "")
        }
        this.outcome("sending", `starting ${games.length} games…`)
        const rs = await Promise.all(games.map(g => this.send(g.board, "new_game", g.body)))
        const bad = rs.map((r, i) => [games[i].board, r]).filter(([, r]) => !r.ok)
        const done = `round ${f.round.trim()}: ${rs.length - bad.length} of ${rs.length} new games started`
        this.outcome(bad.length ? "error" : "ok", bad.length ? `${done}; ${bad.map(([id, r]) => `${id}: ${r.text}`).join("; ")}` : done)
    }

    // importRound reads the chosen TRF or CSV file, shows each pairing
    // with the board it goes to, and on confirmation sends each board its
    // new_game: the fields `boardd round import` sends.
    async importRound() {
        const file = document.getElementById("imp-file").files[0]
        if (!file) return this.outcome("error", "file: choose the pairings (a TRF or CSV file)")
        const round = document.getElementById("imp-round").value.trim()
        let games, r
        try {
            if (!round) throw new Error("round: which round?")
            r = parsePairings(new Uint8Array(await file.arrayBuffer()), round, file.name)
            games = importGames(r, {
                format: document.getElementById("imp-format").value.trim(),
                round,
                event: document.getElementById("imp-event").value,
                timeControl: document.getElementById("imp-tc").value,
            })
            // The board's own checks, before anything is sent.
            // Each command's id is round import's, so the same pairing
            // sent again is applied once.
            for (const g of games) {
                try {
                    gameCommand(g.body)
                } catch (e) {
                    throw new Error(`board ${g.no}: ${e.message}`)
                }
                g.body = {id: commandID(g.body, this.feed.username || ""), ...g.body}
            }
        } catch (e) {
            return this.outcome("error", `${file.name}: ${e.message}`)
        }
        const notes = []
        if (r.byes.length) notes.push(`No board this round: ${r.byes.join("; ")}.`)
        const unseen = games.filter(g => !this.feed.boards.has(g.board) || !this.feed.board(g.board).state).map(g => g.board)
        if (unseen.length) notes.push(`Not seen by the console: ${unseen.join(", ")}.`)
        const busy = games.filter(g => {
            const st = this.feed.boards.has(g.board) && this.feed.board(g.board).state
            return st && st.ply > 0 && (!st.result || st.result === "*")
        }).map(g => g.board)
        if (busy.length) notes.push(`${busy.length} of these boards ${busy.length > 1 ? "have games" : "has a game"} in progress (${busy.join(", ")}): the new games replace them.`)
        const n = games.length
        if (!await this.confirm(`Import round ${round} from ${file.name} (${r.kind}): ${n} board${n > 1 ? "s" : ""}`, games.map(g => gameLine(g.board, g.body)), notes.join(" "), `Start ${n} game${n > 1 ? "s" : ""}`)) {
            return this.outcome("", "")
        }
        this.outcome("sending", `starting ${n} games…`)
        const rs = await Promise.all(games.map(g => this.send(g.board, "new_game", g.body)))
        const bad = rs.map((x, i) => [games[i].board, x]).filter(([, x]) => !x.ok)
        const dup = rs.filter(x => x.ok && x.duplicate).length
        const done = `round ${round} from ${file.name}: ${n - bad.length - dup} of ${n} new games started${dup ? `, ${dup} already set up (sent before)` : ""}`
        this.outcome(bad.length ? "error" : "ok", bad.length ? `${done}; ${bad.map(([id, x]) => `${id}: ${x.text}`).join("; ")}` : done)
    }

    placeRows() {
        const order = new Map(this.cfg.boards.map((id, i) => [id, i]))
        const rows = [...this.rows.values()].filter(r => r.b.state || order.has(r.b.id))
        const key = (r) => order.has(r.b.id) ? order.get(r.b.id) : 1e6 + (parseInt(r.b.state && r.b.state.board_no, 10) || 1e5)
        rows.sort((a, b) => key(a) - key(b) || (a.b.id < b.b.id ? -1 : 1))
        this.room.replaceChildren(...rows.map(r => r.root))
    }

    syncAlerts(b) {
        const active = b.alerts || []
        const ids = new Set(active.map(a => `${b.id}/${a.id}`))
        for (const [k, c] of this.cards) {
            if (c.b === b && !ids.has(k)) {
                c.destroy()
                this.cards.delete(k)
            }
        }
        let fresh = false
        for (const a of active) {
            const k = `${b.id}/${a.id}`
            if (this.cards.has(k)) continue
            // The position before needs the board's moves: wait for state.
            if (!b.state) continue
            const c = new AlertCard(this, b, a)
            this.cards.set(k, c)
            this.list.append(c.root)
            if (!this.seen.has(k)) {
                this.seen.add(k)
                // Alerts already open when the console connects are shown,
                // not rung.
                if (performance.now() - (this.connectedAt || 0) > 3000) {
                    fresh = true
                    c.root.classList.add("new")
                }
            }
        }
        if (fresh) this.notify()
        this.summary()
    }

    summary() {
        const n = this.cards.size
        this.noAlerts.hidden = n > 0
        document.body.dataset.alerts = String(n)
        const base = this.cfg.title ? "Arbiter · " + this.cfg.title : "Arbiter console"
        document.title = n ? `(${n}) ${base}` : base
    }

    notify() {
        if (this.sound.checked) this.beep()
        if (this.vibrate.checked && navigator.vibrate) navigator.vibrate([200, 100, 200])
    }

    beep() {
        try {
            this.audio = this.audio || new AudioContext()
            const ctx = this.audio
            for (const [t, f] of [[0, 880], [0.25, 660]]) {
                const o = ctx.createOscillator(), g = ctx.createGain()
                o.frequency.value = f
                g.gain.setValueAtTime(0.2, ctx.currentTime + t)
                g.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + t + 0.2)
                o.connect(g).connect(ctx.destination)
                o.start(ctx.currentTime + t)
                o.stop(ctx.currentTime + t + 0.2)
            }
        } catch (e) {
            console.warn("sound:", e)
        }
    }
}

new App().start().catch((e) => {
    console.error(e)
    document.body.append(el("pre", "fatal", String(e && e.stack || e)))
})
