// The demonstration page's round overview: boards grouped by round, in
// board order, with the players and the result or the move played.
import {test} from "node:test"
import assert from "node:assert/strict"
import {overviewRounds} from "../src/overview.js"

test("rounds in order, boards by number, results and moves", () => {
    const rounds = overviewRounds([
        {id: "b-10", state: {round: "3", board_no: "10", white: "E", black: "F", ply: 0, result: "*"}},
        {id: "b-2", state: {round: "3", board_no: "2", white: "C", white_title: "IM", white_elo: 2450, black: "D", ply: 21, result: "*", event: "Open"}},
        {id: "b-1", state: {round: "3", board_no: "1", white: "A", black: "B", black_title: "GM", black_elo: 2700, ply: 40, result: "1/2-1/2"}},
        {id: "x", state: {board_no: "1", white: "G", black: "H", ply: 3, result: "0-1"}},
        {id: "b-9", state: {round: "2", board_no: "1", white: "I", black: "J", ply: 8, result: "1-0", start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 12"}},
        {id: "b-5", state: null},
    ])
    assert.deepEqual(rounds.map(r => [r.round, r.event, r.boards.map(b => b.id)]), [["2", "", ["b-9"]], ["3", "Open", ["b-1", "b-2", "b-10"]], ["", "", ["x"]]])
    assert.deepEqual(rounds[1].boards.map(b => [b.no, b.white, b.black, b.status, b.text]), [
        ["1", "A", "GM B 2700", "finished", "½-½"],
        ["2", "IM C 2450", "D", "playing", "in progress, move 11"],
        ["10", "E", "F", "ready", "not started"],
    ])
    assert.equal(rounds[0].boards[0].text, "1-0")
    assert.equal(rounds[2].boards[0].text, "0-1")
})
