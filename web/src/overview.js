// The round overview of the demonstration page: every board the page
// sees, grouped by round and ordered by board number, with the players
// and the game's status. No DOM here: node --test runs it.
import {moveLabel} from "./chessutil.js"

// playerText says a player as the overview shows them: "GM Carlsen, Magnus 2830".
export function playerText(st, side) {
    return [st[side + "_title"], st[side] || (side === "white" ? "White" : "Black"), st[side + "_elo"] || ""].filter(Boolean).join(" ")
}

const RESULT_TEXT = {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "½-½", "+/-": "+/-", "-/+": "-/+"}

// gameStatus is a game's status: its result, or the move being played.
export function gameStatus(st) {
    if (st.result && st.result !== "*") return {status: "finished", text: RESULT_TEXT[st.result] || st.result}
    const ply = st.ply || 0
    if (ply === 0) return {status: "ready", text: "not started"}
    return {status: "playing", text: `in progress, move ${parseInt(moveLabel(ply + 1, st.start_fen), 10)}`}
}

// overviewRounds groups the boards seen (each {id, state}) by round:
// [{round, event, boards: [{id, no, white, black, status, text}]}], the
// rounds in number order (a board without a round last), each round's
// boards by board number.
export function overviewRounds(boards) {
    const rounds = new Map()
    for (const b of boards) {
        const st = b.state
        if (!st) continue
        const round = st.round ? String(st.round) : ""
        if (!rounds.has(round)) rounds.set(round, {round, event: st.event || "", boards: []})
        const r = rounds.get(round)
        if (!r.event && st.event) r.event = st.event
        r.boards.push({id: b.id, no: st.board_no ? String(st.board_no) : "", white: playerText(st, "white"), black: playerText(st, "black"), ...gameStatus(st)})
    }
    const num = (s) => {
        const n = parseFloat(s)
        return Number.isFinite(n) ? n : 1e9
    }
    const out = [...rounds.values()].sort((a, c) => (a.round === "") - (c.round === "") || num(a.round) - num(c.round) || (a.round < c.round ? -1 : a.round > c.round ? 1 : 0))
    for (const r of out) r.boards.sort((a, c) => num(a.no) - num(c.no) || (a.id < c.id ? -1 : a.id > c.id ? 1 : 0))
    return out
}
