package reconstruct

import (
	"fmt"
	"time"

	"github.com/boardd/boardd/chess"
)

// Record rebuilds the games from a Reconstructor's outputs, as a consumer
// of the output stream sees them: final moves append, retractions
// truncate, amendments replace, a new game starts a new record, an end
// sets the result. Provisional outputs are ignored. It is what `boardd
// replay` prints as PGN and what a live PGN publisher keeps.
type Record struct {
	games []*chess.Game
	tip   chess.Position // position after the current game's moves
}

// NewRecord starts a record whose first game begins at start.
func NewRecord(start *chess.Position) *Record {
	p := *start
	return &Record{games: []*chess.Game{chess.NewGame(&p)}, tip: p}
}

// Current is the game being played (the last one).
func (rec *Record) Current() *chess.Game { return rec.games[len(rec.games)-1] }

// Games returns every game recorded, oldest first.
func (rec *Record) Games() []*chess.Game { return rec.games }

// Apply takes one output into the record. It returns an error when the
// output does not fit the record (a ply that is not the next one, a move
// that is not legal): a consumer that sees one has lost outputs.
func (rec *Record) Apply(o *Output) error {
	g := rec.Current()
	idx := o.Ply - g.Start.Ply() - 1
	switch o.Kind {
	case Move:
		if o.Provisional {
			return nil
		}
		if idx != len(g.Moves) {
			return fmt.Errorf("move %s at ply %d, but the record has %d moves", o.SAN, o.Ply, len(g.Moves))
		}
		var l chess.MoveList
		rec.tip.GenerateLegal(&l)
		if !l.Contains(o.Move) {
			return fmt.Errorf("move %s at ply %d is not legal in the record", o.SAN, o.Ply)
		}
		rec.tip.MakeMove(o.Move)
		clk := chess.NoClock
		if o.ClockMs >= 0 {
			clk = time.Duration(o.ClockMs) * time.Millisecond
		}
		g.Append(o.Move, clk)
	case Retract:
		if o.Provisional {
			return nil
		}
		if idx < 0 || idx >= len(g.Moves) {
			return fmt.Errorf("retraction of ply %d, but the record has %d moves", o.Ply, len(g.Moves))
		}
		g.Moves, g.Comments, g.Clocks = g.Moves[:idx], g.Comments[:idx], g.Clocks[:idx]
		g.Result = "*"
		rec.tip = *g.End()
	case Amend:
		if idx < 0 || idx >= len(g.Moves) {
			return fmt.Errorf("amendment of ply %d, but the record has %d moves", o.Ply, len(g.Moves))
		}
		if !legalAt(g, idx, o.Move) {
			return fmt.Errorf("amended move %s at ply %d is not legal in the record", o.SAN, o.Ply)
		}
		g.Moves[idx] = o.Move
		rec.tip = *g.End()
	case NewGame:
		p, err := chess.ParseFEN(o.FEN)
		if err != nil {
			return fmt.Errorf("new game: %w", err)
		}
		p.SetChess960(g.Start.Chess960())
		if len(g.Moves) == 0 && g.Result == "*" {
			rec.games[len(rec.games)-1] = chess.NewGame(p)
		} else {
			rec.games = append(rec.games, chess.NewGame(p))
		}
		rec.tip = *p
	case End:
		if o.Result != "*" || len(g.Moves) > 0 {
			g.Result = o.Result
		}
	}
	return nil
}

// legalAt reports whether m is legal after the first idx moves of g.
func legalAt(g *chess.Game, idx int, m chess.Move) bool {
	p := g.Position(idx)
	var l chess.MoveList
	p.GenerateLegal(&l)
	return l.Contains(m)
}
