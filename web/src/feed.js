// The live feed: one MQTT-over-WebSocket connection, the retained topics of
// each board kept newest-first by (session, seq), and change callbacks for
// the pages.
import mqtt from "mqtt"
import {isPrefix, notOlder, sansFromPGN, topicParts, validBoardId} from "./chessutil.js"

// loadConfig reads the server's config.json, then URL parameters, which
// win: broker, prefix, boards (comma list), title.
export async function loadConfig() {
    const params = new URLSearchParams(location.search)
    let cfg = {}
    try {
        const r = await fetch("config.json", {cache: "no-store"})
        if (r.ok) cfg = await r.json()
    } catch (e) {
        console.warn("config.json:", e)
    }
    const prefix = (params.get("prefix") || cfg.topic_prefix || "chess/v1/board").replace(/\/+$/, "")
    let boards = cfg.boards || []
    if (params.get("boards")) boards = params.get("boards").split(",").map(s => s.trim())
    boards = boards.filter(validBoardId)
    return {
        broker: brokerURL(params.get("broker") || cfg.broker || ""),
        prefix,
        boards,
        title: params.get("title") || cfg.title || "",
        params,
    }
}

// brokerURL completes the configured broker URL: empty means /mqtt on this
// server (proxied to the broker), and {host} stands for the host the page
// came from.
export function brokerURL(s) {
    if (!s) {
        const u = new URL("mqtt", location.href)
        u.protocol = location.protocol === "https:" ? "wss:" : "ws:"
        u.search = ""
        u.hash = ""
        return u.href
    }
    return s.replaceAll("{host}", location.hostname)
}

function randomId() {
    // crypto.randomUUID needs a secure context; a Pi on a LAN serves http.
    const b = new Uint8Array(9)
    crypto.getRandomValues(b)
    return Array.from(b, x => x.toString(16).padStart(2, "0")).join("")
}

// Board is everything known about one board.
export class Board {
    constructor(id) {
        this.id = id
        this.hdr = {}          // leaf -> header of the newest payload
        this.state = null
        this.stateAt = 0
        this.clock = null      // newest of <b>/clock and state.clock
        this.clockAt = 0
        this.clockHdr = null
        this.pgn = null        // {game, sans, text}
        this.status = null
        this.alerts = null     // null until alerts/active arrived
        this.correction = null // {text, at} of the last correction seen
        this.prevSans = []
    }

    // sans lists the final moves in SAN, UCI where the PGN has not caught
    // up yet.
    sans() {
        const st = this.state
        if (!st) return []
        const moves = st.moves || []
        const pg = this.pgn && this.pgn.game === st.game ? this.pgn.sans : []
        return moves.map((u, i) => pg[i] || u)
    }

    flagged(now) {
        const st = this.state
        if (st && st.termination === "flag-fall") return true
        const c = this.clock
        if (!c) return false
        if (c.event === "flag") return true
        if (!c.running) return false
        const ms = c.running === "white" ? c.white_ms : c.black_ms
        return ms - (now - this.clockAt) <= 0
    }
}

// Feed keeps the boards of a page up to date.
export class Feed {
    // leaves: the topic leaves to follow; onChange(board, what) is called
    // after a board changed; onConn(state, detail) on connection changes.
    constructor(cfg, {leaves, onChange, onConn, onNewBoard}) {
        this.cfg = cfg
        this.leaves = leaves
        this.onChange = onChange || (() => {})
        this.onConn = onConn || (() => {})
        this.onNewBoard = onNewBoard || (() => {})
        this.boards = new Map()
        this.pending = new Map() // command id -> {resolve, timer}
        this.client = null
        this.username = ""
    }

    board(id) {
        let b = this.boards.get(id)
        if (!b) {
            b = new Board(id)
            this.boards.set(id, b)
            this.onNewBoard(b)
        }
        return b
    }

    connect(username = "", password = "") {
        if (this.client) this.client.end(true)
        this.username = username
        const opts = {
            protocolVersion: 5,
            clean: true,
            clientId: "boardd-web-" + randomId(),
            reconnectPeriod: 2000,
            connectTimeout: 10000,
            keepalive: 30,
            resubscribe: true,
        }
        if (username) {
            opts.username = username
            opts.password = password
        }
        const c = mqtt.connect(this.cfg.broker, opts)
        this.client = c
        this.onConn("connecting", this.cfg.broker)
        c.on("connect", () => {
            if (c !== this.client) return
            this.onConn("connected", username ? `as ${username}` : "")
            const filters = {}
            const ids = this.cfg.boards.length ? this.cfg.boards : ["+"]
            // Command replies are for users who may send commands.
            const leaves = this.leaves.filter(l => l !== "reply" || username)
            for (const id of ids) for (const leaf of leaves) filters[`${this.cfg.prefix}/${id}/${leaf}`] = {qos: 1}
            c.subscribe(filters, (err, granted) => {
                if (err) console.warn("subscribe:", err)
                for (const g of granted || []) if (g.qos >= 128) console.warn("subscription refused:", g.topic)
            })
        })
        c.on("reconnect", () => c === this.client && this.onConn("connecting", this.cfg.broker))
        c.on("close", () => c === this.client && this.onConn("disconnected", ""))
        c.on("offline", () => c === this.client && this.onConn("disconnected", ""))
        c.on("error", (e) => c === this.client && this.onConn("error", e.message || String(e)))
        c.on("message", (topic, payload) => {
            if (c !== this.client) return
            this.message(topic, payload)
        })
    }

    message(topic, payload) {
        const tp = topicParts(this.cfg.prefix, topic)
        if (!tp || !validBoardId(tp.board)) return
        let m
        try {
            m = JSON.parse(new TextDecoder().decode(payload))
        } catch (e) {
            console.warn(`${topic}: not JSON:`, e)
            return
        }
        if (!m || typeof m !== "object") return
        const b = this.board(tp.board)
        const now = performance.now()
        const leaf = tp.leaf
        // Event topics carry one event each; snapshots replace each other.
        const snapshot = leaf === "state" || leaf === "clock" || leaf === "pgn" || leaf === "status" || leaf === "alerts/active"
        // The dedupe rule of docs/mqtt.md: per topic, drop an older
        // snapshot and an event that is not newer.
        if (snapshot ? !notOlder(m, b.hdr[leaf]) : b.hdr[leaf] && notOlder(b.hdr[leaf], m)) return
        b.hdr[leaf] = {session: m.session, seq: m.seq}
        switch (leaf) {
        case "state": {
            const prev = b.state
            const prevSans = b.sans()
            b.state = m
            b.stateAt = now
            if (m.clock) this.setClock(b, m.clock, m, now)
            // A state whose moves do not extend the ones shown took moves
            // back: say so even if the correction event was missed.
            if (prev && prev.game === m.game && !isPrefix(prev.moves || [], m.moves || [])) {
                const moves = m.moves || []
                let k = 0
                while (k < moves.length && moves[k] === prev.moves[k]) k++
                const explained = b.correction && b.correction.ply === k + 1 && now - b.correction.at < 5000
                if (!explained) {
                    b.correction = {ply: k + 1, at: now, old: prevSans[k] || prev.moves[k], new: null, why: "", dropped: prev.moves.length - k}
                }
            }
            this.onChange(b, "state")
            break
        }
        case "clock":
            if (this.setClock(b, m, m, now)) this.onChange(b, "clock")
            break
        case "pgn":
            b.pgn = {game: m.game, sans: sansFromPGN(m.pgn), text: m.pgn}
            this.onChange(b, "pgn")
            break
        case "status":
            b.status = m
            this.onChange(b, "status")
            break
        case "alerts/active":
            b.alerts = Array.isArray(m.alerts) ? m.alerts : []
            this.onChange(b, "alerts")
            break
        case "correction":
            // One the state already had when it arrived is old news.
            if (b.state && !notOlder(m, b.hdr.state)) return
            b.correction = {
                ply: m.ply, at: now, why: m.why || "",
                old: m.old ? m.old.san || m.old.uci : "",
                new: m.new ? m.new.san || m.new.uci : null,
                dropped: m.dropped || 0,
            }
            this.onChange(b, "correction")
            break
        case "reply": {
            const p = this.pending.get(m.cmd)
            if (p) {
                this.pending.delete(m.cmd)
                clearTimeout(p.timer)
                p.resolve(m)
            }
            break
        }
        }
    }

    // setClock takes a clock from <b>/clock or from a state snapshot. The
    // same reading arrives on both topics (with the same seq): the first
    // arrival is kept, or the clock would gain the time between the two.
    setClock(b, c, hdr, now) {
        if (!notOlder(hdr, b.clockHdr)) return false
        const o = b.clock
        if (o && b.clockHdr && hdr.session === b.clockHdr.session && hdr.seq === b.clockHdr.seq &&
            o.white_ms === c.white_ms && o.black_ms === c.black_ms && o.running === c.running && o.event === c.event) {
            return false
        }
        b.clock = {white_ms: c.white_ms, black_ms: c.black_ms, running: c.running, period: c.period, event: c.event}
        b.clockAt = now
        b.clockHdr = {session: hdr.session, seq: hdr.seq}
        return true
    }

    // command sends <b>/cmd/<verb> and resolves with the board's reply
    // ({ok, error}), or rejects when the broker refuses it (the error's
    // broker is true) or no reply comes within timeoutMs. The command's id
    // is body.id when given (a round's import), else a random one.
    command(board, verb, body, timeoutMs = 15000) {
        const c = this.client
        if (!c || !c.connected) return Promise.reject(new Error("not connected to the broker"))
        const id = body.id || randomId()
        // A command older than five minutes is refused by the board, so a
        // tablet that was offline cannot apply a stale decision.
        const expires = new Date(Date.now() + 5 * 60 * 1000).toISOString()
        const payload = JSON.stringify({id, expires, by: this.username, ...body})
        return new Promise((resolve, reject) => {
            const timer = setTimeout(() => {
                this.pending.delete(id)
                reject(new Error("no reply from the board within " + Math.round(timeoutMs / 1000) + " s"))
            }, timeoutMs)
            this.pending.set(id, {resolve, timer})
            c.publish(`${this.cfg.prefix}/${board}/cmd/${verb}`, payload, {qos: 1, retain: false}, (err, pkt) => {
                const rc = pkt && pkt.reasonCode
                if (err || (rc !== undefined && rc >= 0x80)) {
                    clearTimeout(timer)
                    this.pending.delete(id)
                    // Marked as the broker's: the board never saw it.
                    const e = err || new Error(`refused by the broker (reason ${rc})`)
                    e.broker = true
                    reject(e)
                }
            })
        })
    }
}

// connectionBadge renders a feed's connection state into el.
export function connectionBadge(el, state, detail) {
    el.dataset.conn = state
    const text = {connecting: "connecting…", connected: "live", disconnected: "offline – reconnecting", error: "error"}[state] || state
    el.textContent = detail ? `${text} ${detail}` : text
    el.title = detail || ""
}
