// The console's commands as data: what the arbiter types becomes the
// payloads the board takes (or an error naming the field), a round's new
// games come from the boards seen, and the log records the replies.
import {test} from "node:test"
import assert from "node:assert/strict"
import {brokerRefusal, correctCommand, describe, gameCommand, gameLine, logEntry, resultCommand, roundGames, settle} from "../src/commands.js"

test("set_result: every result and reason, replace only when asked", () => {
    assert.deepEqual(resultCommand({result: "1-0", reason: "resignation"}), {result: "1-0", reason: "resignation"})
    assert.deepEqual(resultCommand({result: "1/2-1/2", reason: "agreement", detail: " move 31 "}), {result: "1/2-1/2", reason: "agreement: move 31"})
    assert.deepEqual(resultCommand({result: "-/+", reason: "forfeit", replace: true}), {result: "-/+", reason: "forfeit", replace: true})
    assert.throws(() => resultCommand({result: "1-1", reason: "agreement"}), /result/)
    assert.throws(() => resultCommand({result: "1-0", reason: " "}), /reason/)
    assert.throws(() => resultCommand({result: "1-0", reason: "arbiter's decision", detail: "x".repeat(200)}), /at most 200/)
    assert.throws(() => resultCommand({result: "1-0", reason: "forfeit", detail: "a\nb"}), /one line/)
})

test("new_game: players with details, empty fields left out, bad ones named", () => {
    const body = gameCommand({white: " Ju, Wenjun ", white_title: "gm", white_elo: "2536", white_fed: "chn", white_fide_id: "8603006",
        black: "Lei, Tingjie", black_elo: "", round: "3", board_no: "1", time_control: "15m+10s", event: ""})
    assert.deepEqual(body, {white: "Ju, Wenjun", black: "Lei, Tingjie", round: "3", board_no: "1", white_elo: 2536, white_title: "GM",
        white_fed: "CHN", white_fide_id: "8603006", time_control: "15m+10s"})
    assert.throws(() => gameCommand({white_elo: "4001"}), /white_elo/)
    assert.throws(() => gameCommand({black_elo: "12a"}), /black_elo/)
    assert.throws(() => gameCommand({white_title: "GMXYZ"}), /white_title/)
    assert.throws(() => gameCommand({black_fed: "CH"}), /black_fed/)
    assert.throws(() => gameCommand({white_fide_id: "86-03"}), /white_fide_id/)
    assert.throws(() => gameCommand({event: "x".repeat(201)}), /event/)
    assert.throws(() => gameCommand({white: "A\nB"}), /white: one line/)
    assert.throws(() => gameCommand({time_control: "forever"}), /time control/)
    assert.equal(gameLine("b-1", body), "Board 1 · b-1: GM Ju, Wenjun 2536 – Lei, Tingjie, round 3, 15m+10s")
})

test("a round's new games: the boards of that round in board order, with their players", () => {
    const boards = [
        {id: "b-2", state: {round: "3", board_no: "2", white: "C", black: "D", white_elo: 2400, time_control: "15m+10s", ply: 12, result: "*", game: "g2", fen: "x", moves: []}},
        {id: "b-1", state: {round: "3", board_no: "1", white: "A", black: "B", black_title: "IM", black_fed: "NOR", ply: 40, result: "1-0"}},
        {id: "b-9", state: {round: "2", board_no: "1", white: "E", black: "F", ply: 0, result: "*"}},
        {id: "b-5", state: null},
    ]
    const games = roundGames(boards, "3", "")
    assert.deepEqual(games.map(g => g.board), ["b-1", "b-2"])
    assert.deepEqual(games[0].body, {white: "A", black: "B", round: "3", board_no: "1", black_title: "IM", black_fed: "NOR"})
    assert.deepEqual(games[1].body, {white: "C", black: "D", round: "3", board_no: "2", white_elo: 2400, time_control: "15m+10s"})
    assert.deepEqual(games.map(g => g.inProgress), [false, true])
    assert.equal(roundGames(boards, "3", "90m+30s")[1].body.time_control, "90m+30s")
    assert.throws(() => roundGames(boards, "4"), /round 4/)
    assert.throws(() => roundGames(boards, ""), /round/)
})

test("the log: who, what, and the reply or the refusal", () => {
    const e = logEntry({at: Date.UTC(2025, 5, 1, 14, 3), by: "arbiter", board: "b-1", verb: "set_result", body: {result: "0-1", reason: "resignation"}})
    assert.deepEqual(e, {at: "2025-06-01T14:03:00.000Z", by: "arbiter", board: "b-1", verb: "set_result", what: "0-1 (resignation)", status: "sending", reply: ""})
    settle(e, {ok: false, error: "set_result: the game has a result (1-0)"})
    assert.equal(e.status, "error")
    assert.equal(e.reply, "set_result: the game has a result (1-0)")
    assert.equal(settle(e, {ok: true}).reply, "ok")
    assert.equal(describe("ack_alert", {alert: "a-1", decision: "upheld", note: "+2m"}), "alert a-1: upheld (+2m)")
    assert.match(brokerRefusal(new Error("Publish error: Not authorized"), "arbiter", "new_game"), /"arbiter" has no right to send new_game/)
    assert.equal(brokerRefusal(new Error("Publish error: Quota exceeded"), "arbiter", "new_game"), "refused by the broker: Publish error: Quota exceeded")
})

test("correct_move's body is checked before it is sent", () => {
    assert.deepEqual(correctCommand({ply: "3", uci: " G1F3 "}), {ply: 3, uci: "g1f3"})
    assert.deepEqual(correctCommand({ply: 15, uci: "e7e8q"}), {ply: 15, uci: "e7e8q"})
    assert.throws(() => correctCommand({ply: "0", uci: "g1f3"}), /ply/)
    assert.throws(() => correctCommand({ply: "2.5", uci: "g1f3"}), /ply/)
    assert.throws(() => correctCommand({ply: "3", uci: "Nf3"}), /g1f3/)
    assert.equal(describe("correct_move", {ply: 3, uci: "g1f3"}), "ply 3 becomes g1f3")
})
