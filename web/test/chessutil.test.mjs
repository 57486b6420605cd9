// Unit tests of the pages' pure helpers: node --test test/
import {test} from "node:test"
import assert from "node:assert/strict"
import {
    START_FEN, applyUCI, formatClock, isPrefix, lawText, moveLabel, pgnFileName, notOlder, placement, placementAfter,
    placementFEN, remainingMS, sansFromPGN, topicParts,
} from "../src/chessutil.js"

test("placement round-trips", () => {
    assert.equal(placementFEN(placement(START_FEN)), START_FEN.split(" ")[0])
    assert.throws(() => placement("8/8/8"), /want 8 ranks/)
    assert.throws(() => placement("9/8/8/8/8/8/8/8"), /unexpected 9|files/)
})

test("applyUCI: ordinary moves, captures, castling, en passant, promotion", () => {
    const cases = [
        // [start, moves, placement after]
        [START_FEN, ["e2e4", "e7e5", "g1f3"], "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R"],
        ["r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", ["e1g1", "e8c8"], "2kr3r/8/8/8/8/8/8/R4RK1"],
        // Chess960 castling as king takes rook.
        ["1r2k1r1/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1", ["e1g1", "e8b8"], "2kr2r1/8/8/8/8/8/8/1R3RK1"],
        ["4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", ["e5d6"], "4k3/8/3P4/8/8/8/8/4K3"],
        ["4k3/P7/8/8/8/8/7p/4K3 w - - 0 1", ["a7a8n", "h2h1q"], "N3k3/8/8/8/8/8/8/4K2q"],
    ]
    for (const [start, moves, want] of cases) assert.equal(placementAfter(start, moves), want, moves.join(" "))
    assert.throws(() => applyUCI(placement(START_FEN), "e4e5"), /no piece on e4/)
    assert.throws(() => applyUCI(placement(START_FEN), "zz"), /not a UCI move/)
})

test("placementAfter stops at n", () => {
    assert.equal(placementAfter("", ["e2e4", "e7e5"], 1), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR")
})

test("sansFromPGN skips tags, comments, variations, NAGs and the result", () => {
    const pgn = `[Event "Test [x]"]
[White "A"]

1. d4 {[%clk 0:15:10]} 1... Nf6 {[%clk
0:15:19]} 2. c4 $1 (2. Nf3 d5) 2... e6 ; a comment
3. Nc3 {a comment with
[%clk 0:15:26] on a line} Bb4 1-0
`
    assert.deepEqual(sansFromPGN(pgn), ["d4", "Nf6", "c4", "e6", "Nc3", "Bb4"])
    assert.deepEqual(sansFromPGN(""), [])
    assert.deepEqual(sansFromPGN("1. e4 e5 2. Nf3 *"), ["e4", "e5", "Nf3"])
})

test("notOlder orders by session, then seq; equal is not older", () => {
    assert.ok(notOlder({session: 2, seq: 1}, {session: 1, seq: 99}))
    assert.ok(!notOlder({session: 1, seq: 99}, {session: 2, seq: 1}))
    assert.ok(notOlder({session: 1, seq: 5}, {session: 1, seq: 5}))
    assert.ok(!notOlder({session: 1, seq: 4}, {session: 1, seq: 5}))
    assert.ok(notOlder({session: 1, seq: 1}, undefined))
})

test("clocks count down only on the running side and format like a clock", () => {
    const c = {white_ms: 65000, black_ms: 3723000, running: "white"}
    assert.equal(remainingMS(c, "white", 1000, 3500), 62500)
    assert.equal(remainingMS(c, "black", 1000, 3500), 3723000)
    assert.equal(remainingMS(c, "white", 1000, 1e9), 0)
    assert.equal(remainingMS(null, "white", 0, 0), null)
    assert.equal(formatClock(3723000), "1:02:03")
    assert.equal(formatClock(62500), "1:03")
    assert.equal(formatClock(60000), "1:00")
    assert.equal(formatClock(9950), "0:10")
    assert.equal(formatClock(9900), "0:09.9")
    assert.equal(formatClock(1), "0:00.1")
    assert.equal(formatClock(0), "0:00")
    assert.equal(formatClock(null), "–")
})

test("moveLabel counts from the start position", () => {
    assert.equal(moveLabel(1, START_FEN), "1.")
    assert.equal(moveLabel(2, START_FEN), "1…")
    assert.equal(moveLabel(21, ""), "11.")
    assert.equal(moveLabel(1, "4k3/8/8/8/8/8/8/4K3 b - - 0 30"), "30…")
    assert.equal(moveLabel(2, "4k3/8/8/8/8/8/8/4K3 b - - 0 30"), "31.")
})

test("isPrefix and topicParts", () => {
    assert.ok(isPrefix(["a"], ["a", "b"]))
    assert.ok(!isPrefix(["a", "c"], ["a", "b"]))
    assert.ok(!isPrefix(["a", "b", "c"], ["a", "b"]))
    assert.deepEqual(topicParts("chess/v1/board", "chess/v1/board/b-1/alerts/active"), {board: "b-1", leaf: "alerts/active"})
    assert.equal(topicParts("chess/v1/board", "chess/v1/other/b-1/state"), null)
    assert.equal(topicParts("chess/v1/board", "chess/v1/board/b-1"), null)
})

test("lawText: the edition once, the article without a prefix", () => {
    assert.equal(lawText("2023", "7.5.1"), "FIDE Laws 2023, Art. 7.5.1")
    assert.equal(lawText("2023", "7.5.1, 7.5.5"), "FIDE Laws 2023, Art. 7.5.1, 7.5.5")
    // The form boards once sent: the edition inside the article.
    assert.equal(lawText("2023", "2023 Art. 7.2.1"), "FIDE Laws 2023, Art. 7.2.1")
    assert.equal(lawText("", "2018 Art. 4.4.2"), "FIDE Laws 2018, Art. 4.4.2")
    assert.equal(lawText("1997", "Art. 7.4"), "FIDE Laws 1997, Art. 7.4")
    assert.equal(lawText("", "7.4"), "FIDE Laws, Art. 7.4")
    assert.equal(lawText("2023", ""), "")
    assert.equal(lawText("2023", undefined), "")
})

test("pgnFileName: round, board and players, safe for any file system", () => {
    assert.equal(pgnFileName({round: "3", board_no: "1", white: "Ju, Wenjun", black: "Lei, Tingjie"}), "Round 3 Board 1 Ju Wenjun-Lei Tingjie.pgn")
    assert.equal(pgnFileName({white: "A/B", black: "C:D"}), "A_B-C_D.pgn")
    assert.equal(pgnFileName({game: "b1-20250601"}), "b1-20250601.pgn")
    assert.equal(pgnFileName(null), "game.pgn")
})
