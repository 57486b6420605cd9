package trace

import (
	"fmt"

	"github.com/boardd/boardd/chess"
)

// Sensor is the kind of information a board gives per square.
type Sensor uint8

// The three sensor kinds of the trace format.
const (
	Occupancy   Sensor = iota // present or not
	Colour                    // empty, white or black
	PieceSensor               // empty or a piece (colour and type)
)

var sensorNames = [...]string{"occupancy", "colour", "piece"}

func (s Sensor) String() string {
	if int(s) < len(sensorNames) {
		return sensorNames[s]
	}
	return fmt.Sprintf("sensor(%d)", s)
}

// ParseSensor reads a sensor kind name.
func ParseSensor(name string) (Sensor, error) {
	for i, n := range sensorNames {
		if n == name {
			return Sensor(i), nil
		}
	}
	return 0, fmt.Errorf("sensor %q: want occupancy, colour or piece", name)
}

// SetupKind says how the operator declared the start position.
type SetupKind uint8

// Setup kinds; SetupStandard is the default when a trace says nothing.
const (
	SetupStandard SetupKind = iota
	Setup960
	SetupFEN
)

// Header holds a trace's header lines.
type Header struct {
	Sensor  Sensor
	Setup   SetupKind
	Number  int    // Chess960 start position number when Setup == Setup960
	FEN     string // start position when Setup == SetupFEN
	Edition string // "1997", "2018", "2023" or "" (not declared)
	Game    string // "standard", "rapid", "blitz" or ""
	// Unsupervised: a rapid or blitz game without an arbiter watching it
	// (2018 A.4, 2023 A.5), written "game rapid unsupervised".
	Unsupervised bool
	Clock        string // the time control as written, "" if none
}

// StartPosition returns the declared start position.
func (h *Header) StartPosition() (*chess.Position, error) {
	switch h.Setup {
	case Setup960:
		return chess.Chess960Start(h.Number)
	case SetupFEN:
		return chess.ParseFEN(h.FEN)
	}
	return chess.NewPosition(), nil
}

// Kind is the kind of a timed event.
type Kind uint8

// Event kinds.
const (
	Frame   Kind = iota + 1 // a full snapshot of the board
	Off                     // a square became empty
	On                      // a square became occupied
	Press                   // a player pressed the clock ("clock w|b")
	Promote                 // a promotion choice from a button or the operator
)

var kindNames = [...]string{"", "frame", "off", "on", "clock", "promote"}

func (k Kind) String() string {
	if int(k) < len(kindNames) && k != 0 {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

// Event is one timed line of a trace. Which fields matter depends on Kind:
//
//   - Frame: Occ; for colour sensors also White (the white-occupied squares)
//     with HasColour set; for piece sensors Placement, with Occ derived
//     from it and HasPieces set.
//   - Off: Square.
//   - On: Square; Piece when the sensor reported one (colour sensors give a
//     piece of type NoPieceType with the right colour and HasColour set;
//     piece sensors give the full piece and HasPieces set).
//   - Press: Side, the player who pressed.
//   - Promote: Promo, the piece type chosen.
type Event struct {
	T         int64 // milliseconds since the start of the trace
	Kind      Kind
	Square    chess.Square
	Occ       chess.Bitboard
	White     chess.Bitboard
	Placement [64]chess.Piece
	Piece     chess.Piece
	HasColour bool
	HasPieces bool
	Side      chess.Color
	Promo     chess.PieceType
	Line      int // line number in the source, 0 if not read from text
}

// ParseError is a problem at a line of a trace.
type ParseError struct {
	Line int
	Msg  string
}

func (e *ParseError) Error() string { return fmt.Sprintf("%d: %s", e.Line, e.Msg) }
