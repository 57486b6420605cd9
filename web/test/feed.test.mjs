// The feed's handling of payloads, without a broker: dedupe per topic,
// clocks, and corrections noticed from the state alone.
import {test} from "node:test"
import assert from "node:assert/strict"
import {Feed} from "../src/feed.js"

const cfg = {broker: "ws://127.0.0.1:1/", prefix: "chess/v1/board", boards: [], title: ""}
const enc = (o) => new TextEncoder().encode(JSON.stringify(o))

function feed() {
    const changes = []
    const f = new Feed(cfg, {leaves: [], onChange: (b, what) => changes.push(`${b.id}:${what}`)})
    return {f, changes, send: (leaf, o) => f.message(`chess/v1/board/b-1/${leaf}`, enc({v: 1, board: "b-1", ...o}))}
}

test("snapshots: older dropped, equal accepted; events: only newer", () => {
    const {f, changes, send} = feed()
    send("state", {session: 2, seq: 10, game: "g", moves: ["e2e4"], fen: "x"})
    send("state", {session: 1, seq: 99, game: "g", moves: [], fen: "old"}) // older session
    send("state", {session: 2, seq: 10, game: "g", moves: ["e2e4"], fen: "x"}) // redelivered
    assert.equal(f.boards.get("b-1").state.fen, "x")
    assert.deepEqual(changes, ["b-1:state", "b-1:state"])
    send("correction", {session: 2, seq: 12, ply: 1, why: "a"})
    send("correction", {session: 2, seq: 12, ply: 1, why: "dup"})
    send("correction", {session: 2, seq: 11, ply: 1, why: "older"})
    assert.equal(f.boards.get("b-1").correction.why, "a")
})

test("a clock reading arriving on clock and state counts once, from its first arrival", async () => {
    const {f, send} = feed()
    const c = {white_ms: 60000, black_ms: 50000, running: "white", event: "press"}
    send("clock", {session: 1, seq: 5, ...c})
    const b = f.boards.get("b-1")
    const at = b.clockAt
    await new Promise(r => setTimeout(r, 20))
    send("state", {session: 1, seq: 5, game: "g", moves: [], clock: c})
    assert.equal(b.clockAt, at, "the same reading via state must not restart the countdown")
    send("clock", {session: 1, seq: 5, ...c, white_ms: 59000, event: "tick"}) // a tick repeats the seq
    assert.equal(b.clock.white_ms, 59000)
    assert.ok(b.clockAt > at)
    send("clock", {session: 1, seq: 4, ...c, white_ms: 1})
    assert.equal(b.clock.white_ms, 59000, "older clock dropped")
})

test("a state that takes moves back is a correction even without the event", () => {
    const {f, send} = feed()
    send("state", {session: 1, seq: 1, game: "g", moves: ["e2e4", "e7e5", "g1f3"]})
    send("pgn", {session: 1, seq: 1, game: "g", pgn: "1. e4 e5 2. Nf3 *"})
    send("state", {session: 1, seq: 2, game: "g", moves: ["e2e4", "e7e5", "g1f3", "b8c6"]})
    assert.equal(f.boards.get("b-1").correction, null, "an extension is no correction")
    send("state", {session: 1, seq: 3, game: "g", moves: ["e2e4", "e7e5", "b1c3"]})
    const c = f.boards.get("b-1").correction
    assert.equal(c.ply, 3)
    assert.equal(c.old, "Nf3")
    assert.equal(c.dropped, 2)
    // A new game is not a correction.
    send("state", {session: 1, seq: 4, game: "g2", moves: []})
    assert.equal(f.boards.get("b-1").correction, c)
})

test("the event explains the state: its reason is kept", () => {
    const {f, send} = feed()
    send("state", {session: 1, seq: 1, game: "g", moves: ["e2e4", "e7e5"]})
    send("correction", {session: 1, seq: 2, ply: 2, why: "illegal move", old: {san: "e5", uci: "e7e5"}})
    send("state", {session: 1, seq: 2, game: "g", moves: ["e2e4"]})
    assert.equal(f.boards.get("b-1").correction.why, "illegal move")
})

test("bad payloads and foreign topics are ignored", () => {
    const {f} = feed()
    f.message("chess/v1/board/b-1/state", new TextEncoder().encode("{not json"))
    f.message("chess/v1/board/B 1/state", enc({session: 1, seq: 1}))
    f.message("other/b-1/state", enc({session: 1, seq: 1}))
    f.message("chess/v1/board/b-1/state", enc(null))
    assert.equal(f.boards.size, 0)
})
