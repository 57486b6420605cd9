package session

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/reconstruct"
	"github.com/boardd/boardd/rules"
	"github.com/boardd/boardd/trace"
)

// Config describes one board's game.
type Config struct {
	// Start is the declared start position; nil means the standard one.
	Start *chess.Position
	// Sensor is what the board reports per square.
	Sensor trace.Sensor
	// Rules selects the FIDE profile: edition, game type, supervision
	// (SettingFor reads them as configuration and trace headers write
	// them). A 1997 standard game switches to the quickplay-finish profile
	// (Article 10) by itself when a player reaches a last period without
	// increment.
	Rules rules.Setting
	// TimeControl is the clock's; the zero value means no time control
	// (no clock times, no flags).
	TimeControl rules.TimeControl
	// Clock says a chess clock is connected: a move is complete when its
	// player presses the clock (a trace that presses switches it on).
	Clock bool
	// SetUp is the set-up whose appearance on the board starts a new game
	// (reconstruct.Config.SetUp); nil means Start. A game resumed after a
	// restart gives the configured start here: until the board shows
	// Start it has pieces out of place, not a wrong set-up.
	SetUp *chess.Position
	// ClockStartsWithPress: the clock starts when Black (or the arbiter)
	// presses it (2018 6.6), as on a live board; otherwise it starts at the
	// first event, as a trace writes it.
	ClockStartsWithPress bool
	// Timing tunes the reconstruction's still-board delays.
	Timing reconstruct.Timing
	// MovesOnly leaves the notation out of move outputs (reconstruct.Config).
	MovesOnly bool
	// Remaining are a resumed game's clocks by colour (the journal's last
	// reading), set when its clock starts; zero: the time control's. They
	// apply to the first game only.
	Remaining [2]time.Duration
	// AnalysisBudget is the node budget of each dead-position and mating
	// analysis (a flag fall, a losing illegal move); 0 means
	// DefaultAnalysisBudget. An analysis that runs out says the arbiter
	// decides.
	AnalysisBudget int
}

// DefaultAnalysisBudget keeps a flag verdict within a few milliseconds on
// a Raspberry Pi; see docs/rules.md for the figures.
const DefaultAnalysisBudget = 50_000

// AnalysisStaticCost is what one static reachability proof counts against
// the budget (rules.Analyzer.SetStaticCost), so that the budget bounds the
// time.
const AnalysisStaticCost = 200

// SettingFor reads a rules setting as configuration and trace headers
// write it: edition "1997", "2018", "2023" ("" is 2023), game type
// "standard", "rapid", "blitz" ("" is the type the time control gives,
// else standard), supervised or not (rapid and blitz only).
func SettingFor(edition, gameType string, supervised bool, tc rules.TimeControl) (rules.Setting, error) {
	s := rules.Setting{Edition: rules.Edition2023, Type: rules.Standard, Supervised: supervised}
	if edition != "" {
		ed, err := rules.ParseEdition(edition)
		if err != nil {
			return s, err
		}
		s.Edition = ed
	}
	switch {
	case gameType != "":
		gt, err := rules.ParseGameType(gameType)
		if err != nil {
			return s, err
		}
		s.Type = gt
	case tc.Timed():
		if c, err := tc.Classify(s.Edition); err == nil {
			s.Type = c.Type
		}
	}
	if _, err := rules.Lookup(s); err != nil {
		return s, err
	}
	return s, nil
}

// ConfigFromHeader makes the configuration a trace header declares.
func ConfigFromHeader(h trace.Header) (Config, error) {
	start, err := h.StartPosition()
	if err != nil {
		return Config{}, fmt.Errorf("trace setup: %w", err)
	}
	var tc rules.TimeControl
	if h.Clock != "" {
		if tc, err = rules.ParseTimeControl(h.Clock); err != nil {
			return Config{}, fmt.Errorf("trace clock %q: %w", h.Clock, err)
		}
	}
	set, err := SettingFor(h.Edition, h.Game, !h.Unsupervised, tc)
	if err != nil {
		return Config{}, fmt.Errorf("trace rules: %w", err)
	}
	return Config{Start: start, Sensor: h.Sensor, Rules: set, TimeControl: tc, Clock: h.Clock != ""}, nil
}

// ClockChange is the Kind of an output that reports the clocks: a press,
// a flag, time added as a penalty, a reset for a new game.
const ClockChange reconstruct.Kind = 32

// Output is one thing the session reports, in order. The embedded
// reconstruct.Output carries moves, corrections, alerts, notes, new games
// and the end of a game exactly as the reconstruction documents them, with
// these differences: plies and sides are the game's; alerts carry the
// plain article of the profile's edition ("7.5.1"; Edition says which);
// final moves carry the mover's clock; End carries the session's result.
type Output struct {
	reconstruct.Output
	// Verdict is the ruling on an alert or on the end of the game; nil
	// for other kinds and for an End that withdraws a result.
	Verdict *rules.Verdict
	// ClockEvent says what changed the clocks (Kind ClockChange): "press",
	// "flag", "penalty" (ClockMs is the time added to Side's clock),
	// "reset".
	ClockEvent string
	// Clock is the clock after the output, when the game has a time
	// control (Timed).
	Clock rules.ClockSnapshot
	Timed bool
}

// Type is the output's name as the event stream writes it: "move",
// "alert", ... and "clock" for ClockChange.
func (o *Output) Type() string {
	if o.Kind == ClockChange {
		return "clock"
	}
	return o.Kind.String()
}

// Session runs one board's game. See the package documentation.
type Session struct {
	cfg      Config
	base     *rules.Profile // the configured profile
	quick    *rules.Profile // 1997 quickplay finish; nil where it cannot apply
	rec      *reconstruct.Reconstructor
	analyzer *rules.Analyzer
	clock    *rules.ClockModel // nil without a time control
	pressed  bool              // a press was seen (clocked)

	start chess.Position
	moves []chess.Move
	pos   chess.Position
	hist  *rules.History

	// The game's end: set by the rules, a verdict or the arbiter.
	ended          bool
	result, reason string
	// provEnd: the game ended on a move the reconstruction still holds as
	// provisional (no press follows a mate); it is in moves.
	provEnd bool
	// gesture: the reconstruction ended the game (the kings' result sign).
	gesture bool
	// byPosition: the position ended the game (mate, stalemate, dead
	// position, automatic draw): a correction of an earlier move can undo it.
	byPosition bool

	verdicts []rules.Verdict // judged by reconstruct, waiting for their alert
	// resetting: the reconstruction is being put on the session's game
	// (CorrectMove); its new-game output is not a new game.
	resetting bool
	// open: an irregularity was alerted and the board has not been set
	// back nor a move made since.
	open     bool
	claimPly int // the ply of the last claim alert
	flagged  [2]bool
	begun    bool
	lastT    int64
	routs    []reconstruct.Output

	// pending: the end-of-game check of the last move, deferred so that
	// the move is out before the analysis runs (Settle). pendingProv: the
	// move was provisional (it ends the game only if the check says so).
	pending     bool
	pendingT    int64
	pendingProv reconstruct.Output
	settling    bool
	backlog     []reconstruct.Output
	resumeClock [2]time.Duration    // Config.Remaining, until the clock starts
	endClock    rules.ClockSnapshot // the clocks when the game ended, stopped
	// presses: the clocks at the last presses, so that moves judged
	// together at a later press each get the time at their own
	// (reconstruct.Output.PressT).
	presses [8]pressClock
	npress  int
}

// pressClock is the clocks right after a press at t.
type pressClock struct {
	t    int64
	snap rules.ClockSnapshot
}

// clockAtPress is the clocks kept for the press at t, if kept.
func (s *Session) clockAtPress(t int64) (rules.ClockSnapshot, bool) {
	for i := range s.presses {
		if p := &s.presses[i]; t > 0 && p.t == t {
			return p.snap, true
		}
	}
	return rules.ClockSnapshot{}, false
}

// New starts a session.
func New(cfg Config) (*Session, error) {
	if cfg.Start == nil {
		cfg.Start = chess.NewPosition()
	}
	base, err := rules.Lookup(cfg.Rules)
	if err != nil {
		return nil, fmt.Errorf("session: %w", err)
	}
	s := &Session{cfg: cfg, base: base, resumeClock: cfg.Remaining}
	s.quick = quickplayProfile(cfg.Rules, cfg.TimeControl)
	budget := cfg.AnalysisBudget
	if budget <= 0 {
		budget = DefaultAnalysisBudget
	}
	s.analyzer = rules.NewAnalyzer(budget)
	s.analyzer.SetStaticCost(AnalysisStaticCost)
	rc, err := reconstruct.New(reconstruct.Config{
		Start:     cfg.Start,
		SetUp:     cfg.SetUp,
		Sensor:    cfg.Sensor,
		Edition:   base.Edition.String(),
		GameType:  base.Type.String(),
		Clock:     cfg.Clock,
		Judge:     judge{s},
		Timing:    cfg.Timing,
		MovesOnly: cfg.MovesOnly,
		// The session rules on dead positions (gameEnd), once.
		NoDeadAnalysis: true,
		// No TimeControl: the session keeps the clock, once.
	})
	if err != nil {
		return nil, fmt.Errorf("session: %w", err)
	}
	s.rec = rc
	s.reset(rc.StartPosition())
	return s, nil
}

// quickplayProfile is the 1997 quickplay-finish profile (Article 10) a
// 1997 standard game switches to in the last period of tc, when that
// period has no increment; nil where it cannot apply.
func quickplayProfile(set rules.Setting, tc rules.TimeControl) *rules.Profile {
	n := len(tc.Periods)
	if set.Edition != rules.Edition1997 || set.Type != rules.Standard || set.QuickplayFinish ||
		n == 0 || tc.Periods[n-1].Moves != 0 || tc.Periods[n-1].Increment != 0 {
		return nil
	}
	set.QuickplayFinish = true
	p, _ := rules.Lookup(set) // the table has the 1997 standard quickplay row
	return p
}

// reset starts the game record and the clock over from start.
func (s *Session) reset(start chess.Position) {
	s.start, s.pos = start, start
	s.moves = s.moves[:0]
	s.hist = rules.NewHistory(&start)
	s.ended, s.result, s.reason, s.provEnd, s.gesture, s.byPosition = false, "", "", false, false, false
	s.claimPly, s.flagged, s.open = 0, [2]bool{}, false
	s.verdicts = s.verdicts[:0]
	s.clock, s.endClock = nil, rules.ClockSnapshot{}
	if s.cfg.TimeControl.Timed() {
		// NewClockModel fails only for an untimed control.
		s.clock, _ = rules.NewClockModel(s.cfg.TimeControl, rules.ClockOptions{})
	}
}

// at is the instant of board time t (ms) for the clock model; only
// differences count.
func at(t int64) time.Time { return time.UnixMilli(t) }

// Start is the game's start position.
func (s *Session) Start() chess.Position { return s.start }

// Position is the position after the game's moves.
func (s *Session) Position() chess.Position { return s.pos }

// Moves returns the game's moves (a copy): the reconstruction's final
// moves, and a game-ending move that no press completed.
func (s *Session) Moves() []chess.Move { return append([]chess.Move(nil), s.moves...) }

// Result is the game's result and why; "" while it goes on.
func (s *Session) Result() (result, reason string) { return s.result, s.reason }

// Profile is the rules profile in force for side now (the 1997 quickplay
// finish once side is in its last period).
func (s *Session) Profile(side chess.Color) *rules.Profile { return s.profileFor(side) }

// Clock is the clock at board time t; ok is false without a time control.
func (s *Session) Clock(t int64) (snap rules.ClockSnapshot, ok bool) {
	if s.clock == nil {
		return snap, false
	}
	if !s.clock.Started() {
		snap = s.clock.Snapshot(at(s.lastT))
		return snap, true
	}
	if s.ended && !s.endClock.At.IsZero() {
		return s.endClock, true
	}
	return s.clock.Snapshot(at(max(t, s.lastT))), true
}

func (s *Session) profileFor(side chess.Color) *rules.Profile {
	if s.quick != nil && s.clock != nil {
		snap := s.clock.Snapshot(at(s.lastT))
		if snap.Period[side] == len(s.cfg.TimeControl.Periods)-1 {
			return s.quick
		}
	}
	return s.base
}

// Feed processes one trace event (a frame, a square change, a clock
// press, a promotion choice) and appends what it leads to to out. Events
// must come in time order.
func (s *Session) Feed(ev *trace.Event, out []Output) []Output {
	out = s.settleAll(out)
	out = s.advanceTo(ev.T, out)
	if !s.begun {
		s.begun = true
		if !s.cfg.ClockStartsWithPress {
			s.startClock(ev.T)
		}
	}
	if ev.Kind == trace.Press {
		// What the still board showed before the press comes first (a
		// live board's ticks would have told it already): a mate made
		// before it ends the game, and the press then counts for nothing.
		out = s.boardUntil(ev.T, out)
		out = s.press(ev.Side, ev.T, out)
	}
	s.routs = s.rec.Feed(ev, s.routs[:0])
	return s.take(out)
}

// Advance tells the session that board time t has come: flags fall, a
// still board is acted on. A live board calls it every 50-100 ms.
func (s *Session) Advance(t int64, out []Output) []Output {
	out = s.settleAll(out)
	out = s.advanceTo(t, out)
	s.routs = s.rec.Advance(t, s.routs[:0])
	return s.take(out)
}

// advanceTo lets time run to t in order: what the still board shows
// before a flag falls is decided before the flag (a mate that nobody
// pressed after ends the game before the mating player's time runs out),
// then the flag.
func (s *Session) advanceTo(t int64, out []Output) []Output {
	for s.clock != nil {
		_, fall, ok := s.clock.NextFlag()
		tf := fall.UnixMilli()
		if !ok || tf > t || tf < s.lastT {
			break
		}
		// The still board's end of the game, analysis included, comes
		// before the flag.
		out = s.boardUntil(tf, out)
		n := len(out)
		out = s.advanceClock(tf, out)
		if len(out) == n && !s.ended {
			break // nothing fell (a paused clock); let advanceClock below finish
		}
	}
	return s.advanceClock(t, out)
}

// boardUntil takes what the still board shows up to t, with its end of
// the game settled: it must come before a press or a flag at t.
func (s *Session) boardUntil(t int64, out []Output) []Output {
	s.routs = s.rec.Advance(t, s.routs[:0])
	return s.settleAll(s.take(out))
}

// End says the input is over at t: a move standing on the board is
// completed.
func (s *Session) End(t int64, out []Output) []Output {
	out = s.settleAll(out)
	out = s.advanceTo(t, out)
	s.routs = s.rec.End(t, s.routs[:0])
	return s.settleAll(s.take(out))
}

// SetPosition replaces the game by p (an arbiter's command).
func (s *Session) SetPosition(t int64, p *chess.Position, out []Output) []Output {
	out = s.settleAll(out)
	s.routs = s.rec.SetPosition(t, p, s.routs[:0])
	return s.take(out)
}

// ErrGameOver is returned for a result entered for a game that has one.
var ErrGameOver = errors.New("the game already has a result")

// SetResult ends the game with the arbiter's result ("1-0", "0-1",
// "1/2-1/2", or the forfeits "+/-" and "-/+") and reason ("resignation",
// "agreement", "forfeit", ...). A result for a game that already has one
// is refused with ErrGameOver unless replace is set (the arbiter
// overrides a ruling). Nothing changes on an error.
func (s *Session) SetResult(t int64, result, reason string, replace bool, out []Output) ([]Output, error) {
	out = s.settleAll(out)
	pgn, forfeit, ok := rules.ArbiterResult(strings.TrimSpace(result))
	if !ok {
		return out, fmt.Errorf("result %q: want %s", result, rules.ArbiterResults)
	}
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return out, errors.New("reason: say why (resignation, agreement, forfeit, arbiter's decision)")
	}
	if len(reason) > 200 {
		return out, fmt.Errorf("reason: %d characters, at most 200", len(reason))
	}
	if s.ended && !replace {
		return out, fmt.Errorf("%w (%s, %s); set replace to override it", ErrGameOver, s.result, s.reason)
	}
	if forfeit && !strings.Contains(strings.ToLower(reason), "forfeit") {
		reason = "forfeit: " + reason
	}
	s.ended, s.result, s.reason = true, pgn, reason
	s.lastT = max(s.lastT, t)
	o := s.endOutput(t, pgn, reason, "The arbiter entered the result: "+pgn+" ("+reason+").")
	return append(out, o), nil
}

func (s *Session) endOutput(t int64, result, reason, text string) Output {
	if result != "*" && s.clock != nil {
		// The clocks stop with the game (Clock shows them as they were).
		s.endClock = s.clock.Snapshot(at(t))
		s.endClock.Running = rules.ClockStopped
	}
	return Output{Output: reconstruct.Output{Kind: reconstruct.End, T: t, Ply: s.pos.Ply(), Side: s.pos.SideToMove(),
		Result: result, Reason: reason, Text: text, ClockMs: -1, From: chess.NoSquare, To: chess.NoSquare}}
}

// AddTime adds d to side's clock at t (an arbiter's decision beyond the
// Laws' own penalties, which the session adds itself).
func (s *Session) AddTime(t int64, side chess.Color, d time.Duration, out []Output) ([]Output, error) {
	out = s.settleAll(out)
	if s.clock == nil || !s.clock.Started() {
		return out, errors.New("the game has no running clock")
	}
	if _, err := s.clock.AddTime(side, d, at(max(t, s.lastT))); err != nil {
		return out, fmt.Errorf("adding %v to %s's clock: %w", d, side, err)
	}
	s.lastT = max(s.lastT, t)
	snap, _ := s.Clock(t)
	return append(out, Output{Output: reconstruct.Output{Kind: ClockChange, T: t, Side: side, ClockMs: d.Milliseconds(), From: chess.NoSquare, To: chess.NoSquare,
		Text: fmt.Sprintf("%s added to %s's clock by the arbiter", minutes(d), colourName(side))},
		ClockEvent: "penalty", Clock: snap, Timed: true}), nil
}

// SetTimeControl puts a new time control on the clock at t (an arbiter's
// command): both clocks start over from it, the player to move's running.
func (s *Session) SetTimeControl(t int64, tc rules.TimeControl, out []Output) []Output {
	out = s.settleAll(out)
	s.cfg.TimeControl = tc
	s.quick = quickplayProfile(s.cfg.Rules, tc)
	s.clock, s.flagged = nil, [2]bool{}
	if !tc.Timed() {
		return out
	}
	s.clock, _ = rules.NewClockModel(tc, rules.ClockOptions{})
	s.lastT = max(s.lastT, t)
	if s.begun && !s.cfg.ClockStartsWithPress {
		_ = s.clock.StartFor(s.pos.SideToMove(), at(s.lastT))
	}
	snap, _ := s.Clock(t)
	return append(out, Output{Output: reconstruct.Output{Kind: ClockChange, T: t, ClockMs: -1, From: chess.NoSquare, To: chess.NoSquare,
		Text: "time control set: " + tc.String()}, ClockEvent: "reset", Clock: snap, Timed: true})
}

// CorrectMove replaces the move of ply (numbered as in the game score) by
// the move uci (an arbiter's correction of a published move): the
// moves after it stay as long as they are legal after the correction; the
// first that is not, and those after it, are retracted. The board is then
// expected to show the corrected game. Nothing changes on an error.
func (s *Session) CorrectMove(t int64, ply int, uci string, out []Output) ([]Output, error) {
	out = s.settleAll(out)
	idx := ply - s.start.Ply() - 1
	if idx < 0 || idx >= len(s.moves) {
		return out, fmt.Errorf("ply %d: the game has plies %d to %d", ply, s.start.Ply()+1, s.start.Ply()+len(s.moves))
	}
	pos := s.start
	for _, m := range s.moves[:idx] {
		pos.MakeMove(m)
	}
	m, err := pos.ParseUCI(strings.TrimSpace(uci))
	if err != nil {
		return out, fmt.Errorf("move %q at ply %d: %w", uci, ply, err)
	}
	var l chess.MoveList
	pos.GenerateLegal(&l)
	if !l.Contains(m) {
		return out, fmt.Errorf("move %q at ply %d: not legal in %s", uci, ply, pos.FEN())
	}
	if m == s.moves[idx] {
		return out, fmt.Errorf("ply %d is already %s", ply, pos.SAN(m))
	}
	// The moves that stay: the corrected one and those after it that are
	// still legal.
	keep := append(append([]chess.Move(nil), s.moves[:idx]...), m)
	after := pos
	after.MakeMove(m)
	for _, later := range s.moves[idx+1:] {
		var ll chess.MoveList
		after.GenerateLegal(&ll)
		if !ll.Contains(later) {
			break
		}
		keep = append(keep, later)
		after.MakeMove(later)
	}
	s.lastT = max(s.lastT, t)
	// Retract what goes, from the last move back, then amend the ply.
	old := append([]chess.Move(nil), s.moves...)
	for len(s.moves) > len(keep) {
		out = s.popLast(t, out)
		out[len(out)-1].Text = "retracted by the arbiter's correction of an earlier move"
	}
	s.rebuild(keep)
	before := s.start
	for _, mv := range keep[:idx] {
		before.MakeMove(mv)
	}
	amended := before
	amended.MakeMove(m)
	out = append(out, Output{Output: reconstruct.Output{Kind: reconstruct.Amend, T: t, Ply: ply, Side: before.SideToMove(),
		Move: m, SAN: before.SAN(m), UCI: before.UCI(m), FEN: amended.FEN(), Old: old[idx], OldSAN: before.SAN(old[idx]), OldUCI: before.UCI(old[idx]),
		ClockMs: -1, From: chess.NoSquare, To: chess.NoSquare, Text: "corrected by the arbiter"}})
	// The reconstruction follows the board from the corrected game.
	s.resetting = true
	final := s.pos
	s.routs = s.rec.SetPosition(t, &final, s.routs[:0])
	out = s.take(out)
	s.resetting = false
	if s.ended && s.byPosition {
		if _, ok := s.gameEnd(&s.pos, chess.NoMove); !ok {
			out = s.withdrawEnd(t, "the arbiter corrected a move", out)
		}
		return out, nil
	}
	return s.checkEnd(t, chess.NoMove, out), nil
}
