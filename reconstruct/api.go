package reconstruct

import (
	"fmt"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/rules"
	"github.com/boardd/boardd/trace"
)

// Config describes one game to reconstruct.
type Config struct {
	// Start is the declared start position; nil means the standard one.
	// A Chess960 start must have Chess960() set (chess.Chess960Start does).
	Start *chess.Position
	// SetUp is the set-up that starts a new game when the board shows it
	// after a game; nil means Start. A game resumed from its middle after
	// a restart has its position as Start and the game's set-up here, so
	// that a new game set up on the board is seen.
	SetUp *chess.Position
	// Sensor is what the board reports per square.
	Sensor trace.Sensor
	// Edition of the FIDE Laws ("1997", "2018", "2023"; "" means 2023) and
	// GameType ("standard", "rapid", "blitz"; "" means standard): they
	// choose the article and penalty Judge puts on alerts.
	Edition  string
	GameType string
	// Clock says a chess clock is connected: a move is complete when its
	// player presses the clock. Without it a move is complete once the board
	// has stood still in the new position for Timing.CommitMs. A trace that
	// presses a clock switches clock mode on at the first press anyway.
	Clock bool
	// TimeControl is the clock's time control as the trace header writes it
	// ("90m+30s", "40/120m,60m,15m+30s", "5m+3s", "15m d10s"); "" when
	// unknown. With it, final moves carry the mover's remaining time.
	TimeControl string
	// Judge fills in the FIDE article and penalty of an alert; nil means a
	// RulesJudge for Edition and GameType.
	Judge Judge
	// Timing tunes when a still board counts as settled; zero fields take
	// the defaults (see Timing).
	Timing Timing
	// MovesOnly leaves the notation out of the outputs (SAN, UCI, FEN,
	// OldSAN and OldUCI stay empty; Move and Old are set as always), for
	// consumers that keep moves, not text: a PGN writer, the accuracy
	// benchmark. Writing notation is a seventh of the replay's work.
	// Texts still name moves in SAN.
	MovesOnly bool
	// NoDeadAnalysis leaves dead positions to the caller (a session, which
	// rules on the game's end itself, under its own analysis budget): the
	// reconstruction does not search for them.
	NoDeadAnalysis bool
}

// Timing holds the delays, in board milliseconds, after which a board that
// has not changed is acted on. Board time is the trace's clock (ev.T), never
// the wall clock, so a replay decides exactly as the live board did.
type Timing struct {
	// SettleMs: a board unchanged this long is settled; a settled legal
	// move is announced as a provisional move. Default 250.
	SettleMs int64
	// CommitMs: without a clock, a move settled this long is published.
	// Default 1000: longer than a slide's pause on a square or a piece
	// touched down on the way, about the quickest reply.
	CommitMs int64
	// ReleaseMs: a move that stood this long before the clock press and
	// was then changed into another counts as released (move-changed).
	// Default 1500.
	ReleaseMs int64
	// AlertMs: without a clock, an irregular board (illegal move, misplaced
	// pieces) settled this long is alerted; with one, a piece of the player
	// who pressed last seen out of place this long. Default 4000.
	AlertMs int64
}

func (t Timing) withDefaults() Timing {
	if t.SettleMs <= 0 {
		t.SettleMs = 250
	}
	if t.CommitMs <= 0 {
		t.CommitMs = 1000
	}
	if t.ReleaseMs <= 0 {
		t.ReleaseMs = 1500
	}
	if t.CommitMs < t.SettleMs {
		t.CommitMs = t.SettleMs
	}
	if t.AlertMs <= 0 {
		t.AlertMs = 4000
	}
	if t.AlertMs < t.CommitMs {
		t.AlertMs = t.CommitMs
	}
	return t
}

// ConfigFromHeader makes the configuration a trace header declares.
func ConfigFromHeader(h trace.Header) (Config, error) {
	start, err := h.StartPosition()
	if err != nil {
		return Config{}, fmt.Errorf("trace setup: %w", err)
	}
	return Config{
		Start:       start,
		Sensor:      h.Sensor,
		Edition:     h.Edition,
		GameType:    h.Game,
		Clock:       h.Clock != "",
		TimeControl: h.Clock,
	}, nil
}

// Kind is the kind of an Output.
type Kind uint8

// Output kinds.
const (
	// Move: a move was made. Final moves are the game record; a provisional
	// one (Provisional set) is what the board shows before the clock press,
	// for displays only, and is superseded by the next provisional or final
	// move of the same ply or withdrawn by a provisional Retract.
	Move Kind = iota + 1
	// Retract: the move of ply Ply (Old) is withdrawn: a takeback, or the
	// board went back. Later plies were retracted first.
	Retract
	// Amend: the move of ply Ply is replaced: Old by Move (rook-first
	// castling, a promotion piece learned later, a capture the following
	// moves proved to be another). Moves after it are replayed as Amends
	// where their notation changes.
	Amend
	// Alert: an irregularity boardd can stand behind (docs/rules.md), or a
	// game-state alert (checkmate, stalemate, automatic draws, claims).
	Alert
	// Note: something the board saw but cannot judge (a piece lifted and put
	// back, a missed clock press, a re-synchronisation): for the arbiter's
	// log, never an alert.
	Note
	// NewGame: a new game starts from FEN (the start set-up appeared).
	NewGame
	// End: the game is over: Result ("1-0", "0-1", "1/2-1/2") and Reason.
	End
)

var kindNames = [...]string{"", "move", "retract", "amend", "alert", "note", "game", "end"}

func (k Kind) String() string {
	if int(k) < len(kindNames) && k != 0 {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

// AlertKind is the stable name of an irregularity or game state.
type AlertKind string

// Alert kinds: the names rules defines (docs/rules.md, "Alert kinds").
const (
	IllegalMove         AlertKind = rules.KindIllegalMove
	ClockWithoutMove    AlertKind = rules.KindClockWithoutMove
	PromotionUnreplaced AlertKind = rules.KindPromotionUnreplaced
	CastlingRookFirst   AlertKind = rules.KindCastlingRookFirst
	MoveChanged         AlertKind = rules.KindMoveChanged
	MisplacedPieces     AlertKind = rules.KindMisplacedPieces
	WrongSetup          AlertKind = rules.KindWrongSetup
	BoardRotated        AlertKind = rules.KindBoardRotated
	FlagFall            AlertKind = rules.KindFlagFall
	Checkmate           AlertKind = rules.KindCheckmate
	Stalemate           AlertKind = rules.KindStalemate
	DeadPosition        AlertKind = rules.KindDeadPosition
	DrawFivefold        AlertKind = rules.KindDrawFivefold
	Draw75Moves         AlertKind = rules.KindDraw75Moves
	ThreefoldClaimable  AlertKind = rules.KindThreefoldClaimable
	FiftyMovesClaimable AlertKind = rules.KindFiftyMovesClaimable
	BothFlags           AlertKind = rules.KindBothFlags
)

// NoteKind names what a Note reports.
type NoteKind string

// Note kinds.
const (
	NoteHesitation  NoteKind = "hesitation"   // a piece lifted and put back (j'adoube or touch-move?)
	NoteTwoLifted   NoteKind = "two-lifted"   // pieces of both sides in the air at once
	NoteMoveChanged NoteKind = "move-changed" // a settled move replaced before the clock press
	NoteTakeback    NoteKind = "takeback"     // the board went back to an earlier position
	NoteNoPress     NoteKind = "no-press"     // a move completed by the opponent's reply, not by a press
	NoteExtraPress  NoteKind = "extra-press"  // a press the board cannot account for
	NoteResync      NoteKind = "resync"       // moves inferred after missed events
	NoteRestored    NoteKind = "restored"     // the board is back in the game position
	// NotePartlyRestored: back in the game position but for squares
	// already reported out of place.
	NotePartlyRestored NoteKind = "partly-restored"
	NoteAmbiguous      NoteKind = "ambiguous"      // several moves explain the board; the best is published
	NoteResultSign     NoteKind = "result-gesture" // kings on the centre squares
	NoteUnrecognised   NoteKind = "unrecognised"   // the board matches nothing near the game
)

// Reasons of the End outputs that are the board's own (the others are
// the position's: checkmate, stalemate...).
const (
	// ReasonNewGame: the start set-up stood on the board after a game.
	ReasonNewGame = "a new game was set up"
	// ReasonResultSign: the kings were put on the centre squares.
	ReasonResultSign = "result shown with the kings"
)

// Output is one thing the reconstruction reports. Which fields matter
// depends on Kind; the rest are zero.
type Output struct {
	Kind Kind
	// T is the board time (ms) of what is reported: for a move, the sensor
	// event that completed its position on the board; for a correction or an
	// alert, the event that proved it.
	T int64
	// Ply is the half-move concerned, numbered as in the game score: a
	// standard game's first move is ply 1. An alert about a move that was
	// not (or not legally) made carries the ply that move would have had.
	Ply int
	// Side is the player who moved, or whom the alert or note concerns.
	Side chess.Color

	// Move and Amend: the move, in the position before it, and that
	// position's successor as FEN.
	Move          chess.Move
	SAN, UCI, FEN string
	// Provisional (Move, Retract): not yet completed by a clock press.
	Provisional bool
	// Uncertain (Move, Amend): the best of several explanations of the
	// board (a capture whose victim was never seen lifted); a later move may
	// amend it.
	Uncertain bool
	// ClockMs (final Move): the mover's remaining time after the clock
	// press when the time control is known; -1 otherwise.
	ClockMs int64
	// PressT (final Move): the time of the clock press that completed
	// the move, 0 if none did. Moves judged together at a later press
	// each name their own.
	PressT int64

	// Retract and Amend: the move withdrawn.
	Old            chess.Move
	OldSAN, OldUCI string

	// Alert: its kind; Note: its kind.
	Alert AlertKind
	Note  NoteKind
	// Squares involved (alerts and notes); From and To for a recognised
	// move (NoSquare otherwise).
	Squares  chess.Bitboard
	From, To chess.Square
	// Expected and Seen: what should stand on Squares and what the board
	// shows there, e.g. "e5: black pawn, f6: empty" vs "e5: empty, f6: piece".
	Expected, Seen string
	// Article and Penalty under the configured edition and game type, from
	// Config.Judge (by default the rules profile's verdict).
	Article, Penalty string

	// Text is a human sentence for alerts, notes and corrections.
	Text string
	// Result and Reason (End; also NewGame when the previous game ended
	// unfinished: Result "*").
	Result, Reason string
}
