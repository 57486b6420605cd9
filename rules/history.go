package rules

import "github.com/boardd/boardd/chess"

// History records the game's positions, one entry per ply, for the
// repetition rules. A position is identified by chess.Position.Key, which
// is the FIDE notion of "the same position" (2018 9.2.3, 1997 9.2): same
// player to move, same pieces on the same squares, same castling rights,
// and an en passant square only when an en passant capture is legal. The
// placement alone (what a sensor board sees) is not enough.
//
// The zero History is empty; use NewHistory. Not safe for concurrent use.
type History struct {
	keys   []uint64
	clocks []int // halfmove clock of each position
}

// NewHistory starts a history at the game's initial position (or the
// position a game is resumed from).
func NewHistory(start *chess.Position) *History {
	h := &History{}
	h.Push(start)
	return h
}

// Push records pos, the position after the latest move.
func (h *History) Push(pos *chess.Position) {
	h.keys = append(h.keys, pos.Key())
	h.clocks = append(h.clocks, pos.HalfmoveClock())
}

// Pop removes the latest position (a move taken back, or an illegal move
// being reinstated). It reports false if only the start position is left.
func (h *History) Pop() bool {
	if len(h.keys) <= 1 {
		return false
	}
	h.keys = h.keys[:len(h.keys)-1]
	h.clocks = h.clocks[:len(h.clocks)-1]
	return true
}

// Len is the number of positions recorded (plies played + 1).
func (h *History) Len() int { return len(h.keys) }

// Key is the key of the position after ply i (0 is the start position).
func (h *History) Key(i int) uint64 { return h.keys[i] }

// Occurrences counts the recorded positions equal to key that can still
// be repeated: those since the last capture or pawn move (earlier ones
// cannot recur, so they are not compared).
func (h *History) Occurrences(key uint64) int {
	last := len(h.keys) - 1
	if last < 0 {
		return 0
	}
	return h.count(key, last-h.clocks[last])
}

// count counts key among the recorded positions from index first on.
func (h *History) count(key uint64, first int) int {
	n := 0
	for i := len(h.keys) - 1; i >= max(first, 0); i-- {
		if h.keys[i] == key {
			n++
		}
	}
	return n
}

// Repetitions is how many times the latest position has occurred.
func (h *History) Repetitions() int {
	if len(h.keys) == 0 {
		return 0
	}
	return h.Occurrences(h.keys[len(h.keys)-1])
}

// occurrencesAfter counts key among the recorded positions plus one more
// position with that key and halfmove clock reached by one further move.
func (h *History) occurrencesAfter(key uint64, clock int) int {
	return 1 + h.count(key, len(h.keys)-clock)
}

// Claims is what the player to move may claim (9.2, 9.3), now or by
// writing down a move and announcing it to the arbiter (2018 9.2.1.1,
// 9.3.1; 1997 9.2a, 9.3a).
type Claims struct {
	// Threefold: the current position has occurred for at least the third time.
	Threefold bool
	// ThreefoldMoves: moves that would produce a position occurring for
	// at least the third time.
	ThreefoldMoves []chess.Move
	// Fifty: the last 50 moves of each player had no pawn move or capture.
	Fifty bool
	// FiftyMoves: moves that would complete such 50 moves (only when
	// Fifty is false).
	FiftyMoves []chess.Move
}

// CanClaimThreefold reports whether a threefold claim is correct now or by
// announcing a move.
func (c Claims) CanClaimThreefold() bool { return c.Threefold || len(c.ThreefoldMoves) > 0 }

// CanClaimFifty reports whether a 50-move claim is correct now or by
// announcing a move.
func (c Claims) CanClaimFifty() bool { return c.Fifty || len(c.FiftyMoves) > 0 }

// ClaimsFor lists the draw claims open to the player to move in pos, the
// latest position of h. A game that has already ended (checkmate,
// stalemate) offers no claims, and an announced move that would mate or
// stalemate ends the game by that instead.
func ClaimsFor(pos *chess.Position, h *History) Claims {
	var c Claims
	var list chess.MoveList
	pos.GenerateLegal(&list)
	if list.Len() == 0 {
		return c
	}
	c.Threefold = h.Repetitions() >= 3
	c.Fifty = pos.HalfmoveClock() >= 100
	p := *pos
	for _, m := range list.Moves() {
		u := p.MakeMove(m)
		if p.HasLegalMove() {
			if !c.Threefold && h.occurrencesAfter(p.Key(), p.HalfmoveClock()) >= 3 {
				c.ThreefoldMoves = append(c.ThreefoldMoves, m)
			}
			if !c.Fifty && p.HalfmoveClock() >= 100 {
				c.FiftyMoves = append(c.FiftyMoves, m)
			}
		}
		p.UnmakeMove(m, u)
	}
	return c
}

// AutomaticDraw reports the automatic draw in force in pos, the latest
// position of h, under the 2014+ rules (2018/2023 9.6): "draw-fivefold"
// when the position has occurred at least five times, "draw-75-moves"
// when 75 moves of each player had no pawn move or capture, "" otherwise.
// A checkmate takes precedence (9.6.2) and a stalemate is reported as such
// by GameEnd, so a position without legal moves gives "".
func AutomaticDraw(pos *chess.Position, h *History) string {
	if !pos.HasLegalMove() {
		return ""
	}
	if h.Repetitions() >= 5 {
		return KindDrawFivefold
	}
	if pos.HalfmoveClock() >= 150 {
		return KindDraw75Moves
	}
	return ""
}
