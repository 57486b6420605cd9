package sensorstest

import (
	"fmt"
	"io"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/trace"
)

// GameEvents turns a game into the sensor events of a tidy player: a
// frame of the start position at 0, then per move, MoveMs apart, the
// lifts (the captured piece first) and then the placements, StepMs
// apart, and a clock press. Colour events carry the colour for colour
// and piece sensors.
func GameEvents(start *chess.Position, moves []chess.Move, sensor trace.Sensor, moveMs, stepMs int64) ([]trace.Event, error) {
	pos := *start
	var evs []trace.Event
	frame := trace.Event{T: 0, Kind: trace.Frame}
	for sq := chess.Square(0); sq < 64; sq++ {
		if pc := pos.PieceAt(sq); pc != chess.NoPiece {
			frame.Occ |= sq.Bitboard()
			if pc.Color() == chess.White && sensor != trace.Occupancy {
				frame.White |= sq.Bitboard()
			}
			if sensor == trace.PieceSensor {
				frame.Placement[sq] = pc
			}
		}
	}
	frame.HasColour = sensor != trace.Occupancy
	frame.HasPieces = sensor == trace.PieceSensor
	evs = append(evs, frame)
	for i, m := range moves {
		legal := false
		for _, l := range pos.LegalMoves() {
			legal = legal || l == m
		}
		if !legal {
			return nil, fmt.Errorf("move %d (%s) is not legal in %s", i+1, pos.UCI(m), pos.FEN())
		}
		var before [64]chess.Piece
		for sq := chess.Square(0); sq < 64; sq++ {
			before[sq] = pos.PieceAt(sq)
		}
		side := pos.SideToMove()
		pos.MakeMove(m)
		t := int64(i+1) * moveMs
		var offs, ons []chess.Square
		// Captured pieces first, then the movers' squares.
		for sq := chess.Square(0); sq < 64; sq++ {
			b, a := before[sq], pos.PieceAt(sq)
			if b != chess.NoPiece && b != a && b.Color() != side {
				offs = append(offs, sq)
			}
		}
		for sq := chess.Square(0); sq < 64; sq++ {
			b, a := before[sq], pos.PieceAt(sq)
			if b != chess.NoPiece && b != a && b.Color() == side {
				offs = append(offs, sq)
			}
			if a != chess.NoPiece && a != b {
				ons = append(ons, sq)
			}
		}
		for _, sq := range offs {
			evs = append(evs, trace.Event{T: t, Kind: trace.Off, Square: sq})
			t += stepMs
		}
		for _, sq := range ons {
			ev := trace.Event{T: t, Kind: trace.On, Square: sq}
			if sensor != trace.Occupancy {
				ev.Piece, ev.HasColour = pos.PieceAt(sq), true
				if sensor == trace.Colour {
					ev.Piece = chess.NewPiece(ev.Piece.Color(), chess.NoPieceType)
				} else {
					ev.HasPieces = true
				}
			}
			evs = append(evs, ev)
			t += stepMs
		}
		evs = append(evs, trace.Event{T: t, Kind: trace.Press, Side: side})
	}
	return evs, nil
}

// FirstGame reads the first game of a PGN file's text and returns its
// start position and moves.
func FirstGame(r io.Reader) (*chess.Position, []chess.Move, error) {
	pr := chess.NewPGNReader(r)
	g, err := pr.Next()
	if err != nil {
		return nil, nil, err
	}
	return g.Start, g.Moves, nil
}

// Events is an EventReader over a slice.
type Events struct {
	List []trace.Event
	i    int
}

// Next implements sensors.EventReader.
func (e *Events) Next() (trace.Event, error) {
	if e.i >= len(e.List) {
		return trace.Event{}, io.EOF
	}
	e.i++
	return e.List[e.i-1], nil
}
