// The console's pairing import reads the files `boardd round import`
// reads and gives the same pairings: publish/round's TestParsedJSON holds
// the Go parser to publish/round/testdata/parsed.json, and this test the
// JavaScript one.
import {test} from "node:test"
import assert from "node:assert/strict"
import {readFileSync} from "node:fs"
import {boardID, commandID, importGames, parseCSV, parsePairings, parseTRF, sha256} from "../src/round.js"

const dir = new URL("../../publish/round/testdata/", import.meta.url)
const file = (name) => readFileSync(new URL(name, dir))
const want = JSON.parse(readFileSync(new URL("parsed.json", dir), "utf8"))

test("the same pairings as the Go parser, TRF rounds 1 to 3 and the CSV files", () => {
    for (const n of [1, 2, 3]) assert.deepEqual(parseTRF(file("round3.trf"), n), want[`round3.trf#${n}`], `round ${n}`)
    for (const name of ["pairings.csv", "pairings-latin1.csv"]) assert.deepEqual(parseCSV(file(name)), want[name], name)
})

test("TRF: Latin-1, a byte-order mark, one-letter titles, board order", () => {
    const utf8 = file("round3.trf")
    const text = utf8.toString("utf8")
    const latin = Buffer.from(text.replaceAll("ü", "\xfc"), "latin1")
    assert.deepEqual(parseTRF(latin, 3), want["round3.trf#3"])
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8])
    assert.equal(parseTRF(bom, 3).event, "Test Open 2025")
    const r = parsePairings(bom, "3")
    assert.equal(r.kind, "TRF")
    assert.deepEqual(r.pairings.map(p => [p.board, p.white.title, p.white.name, p.black.name]), [
        [1, "GM", "Nakamura, Hikaru", "Carlsen, Magnus"], [2, "CM", "Roe, Richard", "Person, Late"], [3, "", "Doe, Jane", "Charkhalashvili, Inga"]])
    assert.deepEqual(r.byes, ["Müller, Jürgen"])
    assert.throws(() => parsePairings(utf8, ""), /which one/)
    assert.equal(parsePairings(utf8, "3", "round3.txt").kind, "TRF")
    assert.equal(parsePairings("1,A,B\n", "3", "pairings.csv").kind, "CSV")
    assert.equal(parsePairings("board,white,black\n1,A,B\n", "3", "pairings").kind, "CSV")
    assert.throws(() => parsePairings("1,A,B\n", "3", "round.trf"), /no player lines/)
})

test("errors name the line, as the Go parser's do", () => {
    const text = file("round3.trf").toString("utf8")
    const line3 = text.split("\n")[3]
    for (const [trf, n, msg] of [
        ["012 Nothing\n", 1, /no player lines/],
        [text, 0, /round 0/],
        [text, 4, /no pairings for round 4/],
        [text.replace("2830", "28x0"), 3, /rating/],
        [text.replace("0002 b", "0005 b"), 3, /who plays/],
        [text.replace("0002 b", "0002 w"), 3, /and so has/],
        [text + line3 + "\n", 3, /already used/],
        [text.replace("0002 b", "0002 x"), 3, /colour/],
    ]) assert.throws(() => parseTRF(trf, n), msg)
    for (const [csv, msg] of [
        ["board,white\n1,A\n", /no black column/],
        ["board,white,black,colour\n", /column "colour"/],
        ["board,white,black\n1,A,B\n1,C,D\n", /board 1 already on line 2/],
        ["board,white,black\nx,A,B\n", /board "x"/],
        ["board,white,black\n1,A,\n", /no black player/],
        ["board,white,black,white elo\n1,A,B,high\n", /white_elo/],
        ["board,white,black\n", /no pairings/],
        ["", /empty/],
    ]) assert.throws(() => parseCSV(csv), msg)
    const r = parseCSV("1,A,B\n2,\"C, D\",E\n")
    assert.equal(r.pairings[1].white.name, "C, D")
    assert.equal(parseCSV("Board;White;Black\n1;A;B\n").pairings[0].black.name, "B")
})

test("board ids and the new_game bodies round import sends", () => {
    assert.equal(boardID("board-%d", 3), "board-3")
    assert.equal(boardID("b-%03d", 7), "b-007")
    assert.throws(() => boardID("board", 1), /one %d/)
    assert.throws(() => boardID("b %d", 1), /board id/)
    const games = importGames(parseTRF(file("round3.trf"), 3), {format: "b-%02d", round: "3", timeControl: "90m+30s"})
    assert.deepEqual(games.map(g => g.board), ["b-01", "b-02", "b-03"])
    assert.deepEqual(games[0].body, {white: "Nakamura, Hikaru", black: "Carlsen, Magnus", event: "Test Open 2025", round: "3", board_no: "1", time_control: "90m+30s",
        white_elo: 2790, white_title: "GM", white_fed: "USA", white_fide_id: "2016192",
        black_elo: 2830, black_title: "GM", black_fed: "NOR", black_fide_id: "1503014", black_team: "Norway"})
})

test("command ids are round import's: the same pairing sent twice is applied once", async () => {
    const {createHash} = await import("node:crypto")
    for (const n of [0, 1, 55, 56, 63, 64, 65, 1000]) {
        const b = new Uint8Array(n).map((_, i) => (i * 7 + n) & 255)
        assert.equal(Buffer.from(sha256(b)).toString("hex"), createHash("sha256").update(b).digest("hex"), `${n} bytes`)
    }
    const ids = JSON.parse(readFileSync(new URL("commands.json", dir), "utf8"))
    assert.equal(Object.keys(ids).length, 6)
    for (const [payload, id] of Object.entries(ids)) {
        const body = JSON.parse(payload)
        const by = body.by || ""
        delete body.id
        delete body.by
        assert.equal(commandID(body, by), id, payload)
    }
    // The bodies importGames builds carry the same ids.
    const games = importGames(parseTRF(file("round3.trf"), 3), {round: "3", timeControl: "90m+30s"})
    const want = games.map(g => Object.entries(ids).find(([p]) => JSON.parse(p).by === "director" && JSON.parse(p).board_no === g.body.board_no)[1])
    assert.equal(want.length, 3)
    assert.deepEqual(games.map(g => commandID(g.body, "director")), want)
})
