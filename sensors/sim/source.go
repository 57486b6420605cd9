package sim

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/trace"
)

// Item is one step of a simulated trace: an event, with the injected
// irregularities that begin with it and, with Options.Annotate, a note on
// what the hands did in the move it starts.
type Item struct {
	Event      trace.Event
	Injections []Injection
	Note       string
	// Move is the game move whose hands made the event (1 = the first of
	// Game.Moves): its events come after Move-1 moves were completed.
	// 0 for the opening frame, len(Moves)+1 after the last move.
	Move int
}

// change is one physical change of a square: at time t (ms) it starts to
// hold pc (chess.NoPiece: empty).
type change struct {
	t      int64
	sq     chess.Square
	pc     chess.Piece
	grp    int32 // a forced swap's changes share a group (see swapIn); 0 = none
	victim bool  // a captured piece leaves the square the capturing piece lands on
}

// Stats counts what the scan made of the hands' work so far.
type Stats struct {
	// Captures counts the captures whose piece lands on the captured
	// piece's square (all but en passant).
	Captures int
	// BlindCaptures counts those of them whose victim no scan saw gone:
	// the square was never read empty between the victim's lift and the
	// capturing piece's landing (an occupancy board sees nothing change
	// there; a colour or piece board sees one piece replaced by another).
	BlindCaptures int
}

// fixLater is a knocked piece left off its square, put back later.
type fixLater struct {
	origin, landing chess.Square // landing is NoSquare when it fell off the board
	pc              chess.Piece
	afterMove       bool // put back after the opponent's move, else before it
}

// Timing constants of the hand model, in ms (docs/simulation.md).
const (
	minReaction = 300 // from the opponent's clock press to the first touch
	minGap      = 20  // between two actions of a hand on the same square
)

// Source plays one game on a simulated board and yields the events its
// sensors and clock report, one at a time, in time order. It is not safe
// for concurrent use.
type Source struct {
	opts   Options
	r      Rates
	rng    *rand.Rand
	header trace.Header
	moves  []chess.Move
	game   Game
	pos    chess.Position // the game position before move ply
	ply    int            // index of the next game move
	ply0   int            // the start position's ply number (0 for a game from move 1, White to move)

	period  int64 // sensor sampling period (ms)
	phase   int64 // offset of the first sample
	clocked bool
	hurry   bool  // the player to move is short of time: quick hands
	think   int64 // the think time of the move being played
	tc      TimeControl
	rem     [2]int64 // remaining clock time (ms) for synthetic think times

	phys    [64]chess.Piece // physical board at the scheduling cursor
	physAt0 [64]chess.Piece // physical board at the start of the batch
	shown   [64]chess.Piece // what the sensors last reported, per square
	t       int64           // scheduling cursor, relative to the batch start
	changes []change
	grp     int32         // group of the changes being made (fast swaps)
	ngrp    int32         // groups in the batch
	direct  []trace.Event // clock presses and promotion choices (relative T)
	injs    []Injection   // injections of the batch (relative T)
	note    []string
	base    int64       // absolute time of the previous batch's last event
	shift   int64       // what Options.Retime has added to the times so far
	running chess.Color // whose clock runs
	since   int64       // when it started
	moved   [2]int      // presses that ended a turn, per side
	lastT   int64
	// moveSpan: when the hands of the ply's move began and ended (batch
	// time; zero when the move was an injection's).
	moveSpan [2]int64

	plan [numKinds]int // move index of each planned injection, -1 none
	fix  *fixLater

	// A knocked piece whose put-back overlaps the next move
	// (Rates.KnockOverlap): overlap is decided in the knocking move, its
	// changes are cut from that batch (carryOut, batch-relative) and
	// played in the next one (carryIn, absolute), whose hands leave the
	// squares in busy alone.
	overlap   *fixLater
	overlapAt int64
	carryOut  []change
	carryIn   []change
	carryFix  *fixLater
	busy      chess.Bitboard

	out     []Item
	outPos  int
	started bool
	done    bool
	all     []Injection
	scratch []trace.Event
	stats   Stats
}

const (
	injIllegal = iota
	injClockOnly
	injUnreplaced
	injMisplaced
	injRookFirst
	injChanged
	numKinds
)

var injNames = [numKinds]string{KindIllegalMove, KindClockWithoutMove, KindUnreplacedPromo, KindMisplaced, KindRookFirst, KindMoveChanged}

// NewSource prepares the simulation of g. It checks that the moves are
// legal and returns an error naming the first that is not.
func NewSource(g Game, opts Options) (*Source, error) {
	start, err := g.validate()
	if err != nil {
		return nil, fmt.Errorf("simulating game: %w", err)
	}
	if opts.Sensor > trace.PieceSensor {
		return nil, fmt.Errorf("simulating game: unknown sensor kind %v", opts.Sensor)
	}
	s := &Source{opts: opts, moves: g.Moves, game: g, pos: *start, ply0: start.Ply()}
	if opts.Rates != nil {
		s.r = *opts.Rates
	} else {
		s.r = DefaultRates()
	}
	s.rng = rand.New(rand.NewPCG(opts.Seed, opts.Seed^0x6a09e667f3bcc909))
	periods := s.r.ScanPeriods[opts.Sensor]
	if len(periods) == 0 {
		periods = []int64{10}
	}
	s.period = max(periods[s.rng.IntN(len(periods))], 4)
	s.phase = s.rng.Int64N(s.period)

	s.header = trace.Header{Sensor: opts.Sensor}
	switch n := chess960Number(start); {
	case n >= 0:
		s.header.Setup, s.header.Number = trace.Setup960, n
	case start.FEN() != chess.StartFEN:
		s.header.Setup, s.header.FEN = trace.SetupFEN, start.FEN()
	}

	s.chooseClock()
	for sq := chess.Square(0); sq < 64; sq++ {
		s.phys[sq] = start.PieceAt(sq)
	}
	s.shown = s.phys
	for i := range s.plan {
		s.plan[i] = -1
	}
	if opts.Irregular {
		s.planInjections()
	}
	return s, nil
}

// chess960Number returns the Chess960 number of a Chess960 start position,
// or -1 when p is not one (or is the standard game).
func chess960Number(p *chess.Position) int {
	if !p.Chess960() || p.Ply() != 0 || p.Castling() != chess.CastlingRights(15) {
		return -1
	}
	var back [8]byte
	for f := 0; f < 8; f++ {
		w, b := p.PieceAt(chess.NewSquare(f, 0)), p.PieceAt(chess.NewSquare(f, 7))
		if w == chess.NoPiece || b != chess.NewPiece(chess.Black, w.Type()) || w.Color() != chess.White ||
			p.PieceAt(chess.NewSquare(f, 1)) != chess.WhitePawn || p.PieceAt(chess.NewSquare(f, 6)) != chess.BlackPawn {
			return -1
		}
		back[f] = w.FENLetter()
	}
	if p.Occupied().Count() != 32 {
		return -1
	}
	return chess.Chess960Number(string(back[:]))
}

// chooseClock decides whether the game has a clock and its time control.
func (s *Source) chooseClock() {
	g := &s.game
	playable := g.TimeControl != nil && g.TimeControl.playable()
	switch s.opts.Clock {
	case ClockAlways:
		s.clocked = true
	case ClockNever:
		s.clocked = false
	default:
		s.clocked = playable || g.hasClocks() || s.chance(s.r.ClockedGame)
	}
	if !s.clocked {
		return
	}
	switch {
	case playable:
		s.tc = *g.TimeControl
	case g.hasClocks():
		// Readings without a usable time control: the first reading is
		// close to the base time; no increment is assumed.
		base := g.clock(0)
		if c := g.clock(1); c > base {
			base = c
		}
		s.tc = TimeControl{Base: base.Round(60e9)}
		if s.tc.Base <= 0 {
			s.tc.Base = base
		}
	default:
		s.tc = TimeControl{Base: 90 * 60e9, Increment: 30e9}
	}
	s.header.Clock = s.tc.String()
	// FIDE clocks credit a Fischer increment before the move it belongs to:
	// both clocks start at base + increment (rules.ClockModel).
	b := s.tc.Base.Milliseconds() + s.tc.Increment.Milliseconds()
	s.rem = [2]int64{b, b}
	for c, r := range g.Remaining {
		if r > 0 {
			s.rem[c] = r.Milliseconds()
		}
	}
	s.running = s.pos.SideToMove()
}

// Header is the trace header of the simulated game.
func (s *Source) Header() trace.Header { return s.header }

// ScanPeriod is the sampling period of the simulated sensors in ms.
func (s *Source) ScanPeriod() int64 { return s.period }

// Clocked reports whether the game is played with a clock.
func (s *Source) Clocked() bool { return s.clocked }

// Stats returns the counts of the events generated so far (all of the
// game's once Next has returned io.EOF).
func (s *Source) Stats() Stats { return s.stats }

// Injections returns the irregularities injected so far (all of them once
// Next has returned io.EOF).
func (s *Source) Injections() []Injection { return s.all }

// Next returns the next item, or io.EOF after the last.
func (s *Source) Next() (Item, error) {
	for s.outPos >= len(s.out) {
		if s.done {
			return Item{}, io.EOF
		}
		s.out, s.outPos = s.out[:0], 0
		s.step()
	}
	it := s.out[s.outPos]
	s.outPos++
	return it, nil
}

// step produces the next batch of items: the opening frame, one move, or
// the end of the game.
func (s *Source) step() {
	if !s.started {
		s.started = true
		ev := trace.Event{T: 0, Kind: trace.Frame}
		for sq, pc := range s.phys {
			if pc == chess.NoPiece {
				continue
			}
			bb := chess.Square(sq).Bitboard()
			ev.Occ |= bb
			if pc.Color() == chess.White && s.opts.Sensor != trace.Occupancy {
				ev.White |= bb
			}
			if s.opts.Sensor == trace.PieceSensor {
				ev.Placement[sq] = pc
			}
		}
		ev.HasColour = s.opts.Sensor != trace.Occupancy
		ev.HasPieces = s.opts.Sensor == trace.PieceSensor
		s.out = append(s.out, Item{Event: ev, Move: 0})
		return
	}
	if s.ply >= len(s.moves) {
		s.done = true
		if s.fix != nil {
			// The piece was left at the game's last move: it stays as long
			// as one left in a game would (6-20 s), longer than a careful
			// player's knock takes to undo, or the injection would not be
			// an irregularity at all.
			s.begin()
			s.wait(6000, 20000)
			s.doFix(s.fix)
			s.fix = nil
			s.flush(s.base)
		}
		return
	}
	s.playPly()
}

func (s *Source) chance(p float64) bool { return p > 0 && s.rng.Float64() < p }

// between returns a uniform integer in [lo, hi].
func (s *Source) between(lo, hi int64) int64 {
	if hi <= lo {
		return lo
	}
	return lo + s.rng.Int64N(hi-lo+1)
}

func (s *Source) wait(lo, hi int64) { s.t += s.between(lo, hi) }

// begin starts a batch of actions on a relative time line.
func (s *Source) begin() {
	s.changes, s.direct, s.injs, s.note = s.changes[:0], s.direct[:0], s.injs[:0], s.note[:0]
	s.grp, s.ngrp = 0, 0
	s.physAt0 = s.phys
	s.busy = 0
	if f := s.carryFix; f != nil && len(s.carryIn) > 0 {
		// The put-back is still to come: at the batch's start the piece
		// lies where it fell.
		s.physAt0[f.origin] = chess.NoPiece
		s.busy = f.origin.Bitboard()
		if f.landing != chess.NoSquare {
			s.physAt0[f.landing] = f.pc
			s.busy |= f.landing.Bitboard()
		}
	}
	s.t = 0
}

func (s *Source) notef(format string, args ...any) {
	if s.opts.Annotate {
		s.note = append(s.note, fmt.Sprintf(format, args...))
	}
}

func (s *Source) set(t int64, sq chess.Square, pc chess.Piece) {
	s.changes = append(s.changes, change{t: t, sq: sq, pc: pc, grp: s.grp})
}

// lift takes the piece off sq now.
func (s *Source) lift(sq chess.Square) chess.Piece {
	pc := s.phys[sq]
	s.phys[sq] = chess.NoPiece
	s.set(s.t, sq, chess.NoPiece)
	s.chatter(sq, pc, chess.NoPiece)
	return pc
}

// place puts pc on sq now.
func (s *Source) place(sq chess.Square, pc chess.Piece) {
	s.phys[sq] = pc
	s.set(s.t, sq, pc)
	s.chatter(sq, chess.NoPiece, pc)
}

// chatter models contact bounce: for a few ms after a transition the
// square flips back and forth before it settles on to.
func (s *Source) chatter(sq chess.Square, from, to chess.Piece) {
	if !s.chance(s.r.Bounce) {
		return
	}
	t := s.t
	for n := 1 + s.rng.IntN(2); n > 0; n-- {
		t += 1 + s.rng.Int64N(2)
		s.set(t, sq, from)
		t += 1 + s.rng.Int64N(2)
		s.set(t, sq, to)
	}
}

// press records a clock press by side now.
func (s *Source) press(side chess.Color) {
	s.direct = append(s.direct, trace.Event{T: s.t, Kind: trace.Press, Side: side})
}

func (s *Source) inject(kind int, side chess.Color, squares ...chess.Square) {
	s.injs = append(s.injs, Injection{Kind: injNames[kind], Ply: s.ply0 + s.ply + 1, Side: side, Squares: squares, T: s.t})
	s.notef("inject %s", injNames[kind])
}

// Hand movement times; a player short of time moves twice as fast.
func (s *Source) reach() { s.hand(150, 600) }

// carry lifts the piece on from, carries it to and sets it down there,
// and returns it.
func (s *Source) carry(from, to chess.Square) chess.Piece {
	pc := s.lift(from)
	s.travel(from, to)
	s.place(to, pc)
	return pc
}

func (s *Source) travel(from, to chess.Square) {
	d := int64(chess.Distance(from, to))
	s.hand(150+40*d, 400+80*d)
}

func (s *Source) aside() { s.hand(250, 700) }

func (s *Source) hand(lo, hi int64) {
	if s.hurry {
		lo, hi = lo/2, hi/2
	}
	s.wait(lo, hi)
}

// sampleAt is the first time at or after t at which the scan reads sq.
// Squares are read one after another over the period, as a scanning
// board (or a DGT board's 200 ms sweep) does.
func (s *Source) sampleAt(sq chess.Square, t int64) int64 {
	o := s.phase + int64(sq)*s.period/64
	if t <= o {
		return o
	}
	return o + (t-o+s.period-1)/s.period*s.period
}

// sense reduces a piece to what the sensor kind can tell.
func (s *Source) sense(pc chess.Piece) chess.Piece {
	if pc == chess.NoPiece {
		return chess.NoPiece
	}
	switch s.opts.Sensor {
	case trace.Occupancy:
		return chess.WhitePawn
	case trace.Colour:
		return chess.NewPiece(pc.Color(), chess.Pawn)
	}
	return pc
}

func (s *Source) onEvent(t int64, sq chess.Square, pc chess.Piece) trace.Event {
	ev := trace.Event{T: t, Kind: trace.On, Square: sq}
	switch s.opts.Sensor {
	case trace.Colour:
		ev.Piece, ev.HasColour = chess.NewPiece(pc.Color(), chess.NoPieceType), true
	case trace.PieceSensor:
		ev.Piece, ev.HasColour, ev.HasPieces = pc, true, true
	}
	return ev
}

// flush turns the batch's physical changes into sensor events, places the
// batch on the absolute time line at offset, and queues the items.
func (s *Source) flush(offset int64) int64 {
	for i := range s.changes {
		s.changes[i].t += offset
	}
	// A knocked piece put back while this batch's move is made.
	s.changes = append(s.changes, s.carryIn...)
	s.carryIn, s.carryFix = s.carryIn[:0], nil
	// A fast swap is moved (by less than a scan period) to start just
	// after a sample of its square, so that the next sample sees only
	// its result.
	for g := int32(1); g <= s.ngrp; g++ {
		var shift int64 = -1
		for i := range s.changes {
			c := &s.changes[i]
			if c.grp != g {
				continue
			}
			if shift < 0 {
				shift = s.sampleAt(c.sq, c.t) + 1 - c.t
			}
			c.t += shift
		}
	}
	slices.SortStableFunc(s.changes, func(a, b change) int { return cmpInt(a.t, b.t) })

	// Sample each touched square in scan order.
	evs := s.scratch[:0]
	var touched chess.Bitboard
	for _, c := range s.changes {
		touched |= c.sq.Bitboard()
	}
	for bb := touched; bb != 0; bb &= bb - 1 {
		sq := bb.First()
		cur, shown := s.physAt0[sq], s.shown[sq]
		// A capture on sq: from the victim's lift until a sample reads the
		// capturing piece there, is the square ever read empty?
		watch, landed, victim := false, false, chess.NoPiece
		for j := 0; j < len(s.changes); {
			if s.changes[j].sq != sq {
				j++
				continue
			}
			tk := s.sampleAt(sq, s.changes[j].t)
			for ; j < len(s.changes) && s.changes[j].t <= tk; j++ {
				c := &s.changes[j]
				if c.sq != sq {
					continue
				}
				switch {
				case c.victim:
					s.stats.Captures++
					watch, landed, victim = true, false, cur
				case watch && c.pc != chess.NoPiece && c.pc != victim:
					landed = true
				}
				cur = c.pc
			}
			if watch && (cur == chess.NoPiece || landed) {
				if cur != chess.NoPiece {
					s.stats.BlindCaptures++
				}
				watch = false
			}
			if s.sense(cur) == s.sense(shown) {
				continue
			}
			if shown != chess.NoPiece {
				evs = append(evs, trace.Event{T: tk, Kind: trace.Off, Square: sq})
			}
			if cur != chess.NoPiece {
				evs = append(evs, s.onEvent(tk, sq, cur))
			}
			shown = cur
		}
		s.shown[sq] = shown
	}
	slices.SortStableFunc(evs, func(a, b trace.Event) int { return cmpInt(a.T, b.T) })

	// Merge with the presses and promotion choices (already in time order);
	// a sensor event and a press in the same ms: the sensor event first.
	di := 0
	emit := func(ev trace.Event) {
		ev.T = max(ev.T, s.lastT)
		s.lastT = ev.T
		s.out = append(s.out, Item{Event: ev, Move: s.ply + 1})
	}
	for _, ev := range evs {
		for di < len(s.direct) && s.direct[di].T+offset < ev.T {
			d := s.direct[di]
			d.T += offset
			emit(d)
			di++
		}
		emit(ev)
	}
	for ; di < len(s.direct); di++ {
		d := s.direct[di]
		d.T += offset
		emit(d)
	}
	s.scratch = evs[:0]

	// Announce each injection with the first event at or after it.
	first := len(s.out) - len(evs) - len(s.direct)
	for _, in := range s.injs {
		in.T += offset
		k := first
		for k < len(s.out)-1 && s.out[k].Event.T < in.T {
			k++
		}
		if k < len(s.out) {
			in.T = s.out[k].Event.T
			s.out[k].Injections = append(s.out[k].Injections, in)
			s.all = append(s.all, in)
		}
	}
	if len(s.note) > 0 && first < len(s.out) {
		s.out[first].Note = strings.Join(s.note, "; ")
	}
	return offset
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// thinkTime is how long (ms) the player to move uses for move i: from the
// recorded clocks when they are known, else drawn from a log-normal
// distribution and kept within the remaining clock time.
func (s *Source) thinkTime(i int, side chess.Color) int64 {
	if s.r.FittedThink {
		scale := s.r.ThinkScale
		if scale <= 0 {
			scale = 1
		}
		return int64(scale * float64(s.fittedThink(i, side)))
	}
	g := &s.game
	if s.clocked {
		if cur := g.clock(i); cur >= 0 {
			// Aim at the recorded reading from the simulated clock, so that
			// the few hundred ms the hands need beyond a recorded 0 s (the
			// readings are whole seconds) do not add up to a flag fall.
			// Readings are truncated to whole seconds: one that seems to
			// use more than the time left (before the increment) or to
			// leave 0 s means a fraction of a second was left, not a
			// fallen flag.
			aim := max(cur.Milliseconds(), 1000)
			used := s.rem[side] + s.tc.Increment.Milliseconds() - aim
			return max(min(used, s.rem[side]-500), 0)
		}
	}
	median, sigma := 15000.0, 0.9
	switch {
	case i < 16:
		median, sigma = 3000, 0.7
	case s.clocked:
		perMove := float64(s.tc.Base.Milliseconds())/40 + float64(s.tc.Increment.Milliseconds())
		median = 0.6 * perMove
	}
	think := int64(median * math.Exp(sigma*s.rng.NormFloat64()))
	think = min(max(think, 1000), 15*60*1000)
	if s.clocked {
		movesLeft := int64(max(10, 45-i/2))
		avail := s.rem[side] - 120000
		limit := max(avail*2/movesLeft, 1000)
		think = min(think, limit)
	}
	return think
}

// fittedThink is a think time of Rates.FittedThink: a whole turn, from
// the opponent's last act to the player's own. A game's clock readings
// give it with or without a clock; otherwise it is drawn from the corpus
// fit and, with a clock, kept within the remaining time.
func (s *Source) fittedThink(i int, side chess.Color) int64 {
	g := &s.game
	if s.r.QuickPromoCapture && i > 0 {
		if prev := s.moves[i-1]; prev.IsPromotion() && prev.Promotion() != chess.Queen && s.moves[i].To() == prev.To() {
			return 0
		}
	}
	if cur := g.clock(i); cur >= 0 {
		if s.clocked {
			aim := max(cur.Milliseconds(), 1000)
			used := s.rem[side] + s.tc.Increment.Milliseconds() - aim
			return max(min(used, s.rem[side]-500), 0)
		}
		var inc time.Duration
		if g.TimeControl != nil {
			inc = g.TimeControl.Increment
		}
		if prev := g.clock(i - 2); prev >= 0 {
			// Readings are truncated to whole seconds: the turn took
			// up to a second more than their difference says.
			return max((prev+inc-cur).Milliseconds(), 0) + s.rng.Int64N(1000)
		}
	}
	mix := s.r.ThinkLater
	if i < 16 {
		mix = s.r.ThinkOpening
	}
	think := min(mix.draw(s.rng), 15*60*1000)
	if s.clocked {
		movesLeft := int64(max(10, 45-i/2))
		avail := s.rem[side] - 120000
		think = min(think, max(avail*2/movesLeft, 1000))
	}
	return think
}

// shortOfTime reports whether either player has under enough ms, or
// will have by the recorded clocks within horizon moves.
func (s *Source) shortOfTime(i, horizon int, enough int64) bool {
	if s.rem[0] < enough || s.rem[1] < enough {
		return true
	}
	for j := i; j < len(s.moves) && j < i+horizon; j++ {
		if c := s.game.clock(j); c >= 0 && c.Milliseconds() < enough {
			return true
		}
	}
	return false
}

// playPly plays game move s.ply with everything the hands do around it.
func (s *Source) playPly() {
	i := s.ply
	m := s.moves[i]
	side := s.pos.SideToMove()
	think := s.thinkTime(i, side)
	s.think = think
	s.hurry = (s.clocked || s.r.FittedThink) && think < 4000
	s.begin()
	s.moveSpan = [2]int64{}
	if s.opts.Annotate {
		s.notef("hand ply=%d move=%s", s.ply0+i+1, s.pos.SAN(m))
	}

	// A piece knocked over in the previous move goes back now, or after
	// this move.
	pending := s.fix
	s.fix = nil
	if pending != nil && !pending.afterMove {
		s.wait(6000, 20000)
		s.doFix(pending)
	}

	kind := -1
	for k, p := range s.plan {
		if p == i {
			kind = k
		}
	}
	// A clock runs while the position is put right (the trace cannot show
	// an arbiter stopping the clocks): no injection that could make a flag
	// fall. After a press without a move or an illegal move it is not even
	// clear whose clock that is (a second press by the same player changes
	// nothing on a chess clock), so those need time to the end of the game;
	// the others cost the player whose clock runs anyway, who wins it back
	// from the next long think.
	switch {
	case kind < 0 || !s.clocked:
	case kind == injIllegal || kind == injClockOnly:
		if s.shortOfTime(i, len(s.moves), 90000) {
			kind = -1
		}
	case s.shortOfTime(i, 10, 60000):
		kind = -1
	}
	moved, pressed := false, false
	switch kind {
	case injIllegal:
		if !s.illegalFirst(side) {
			kind = -1
		}
	case injClockOnly:
		s.wait(1000, 10000)
		s.inject(injClockOnly, side)
		s.press(side)
		s.wait(5000, 30000)
	case injChanged:
		if s.changedMove(m, side) {
			moved = true
		} else {
			kind = -1
		}
	case injUnreplaced:
		if s.unreplacedPromotion(m, side) {
			moved, pressed = true, true
		} else {
			kind = -1
		}
	case injMisplaced:
		if !s.canKnock(m) {
			kind = -1
		}
	case injRookFirst:
		if !rookFirstPossible(m) {
			kind = -1
		}
	}
	if kind < 0 {
		s.preExtras(m, side)
	}
	if !moved {
		start := s.t
		s.playMove(m, side, kind == injRookFirst)
		s.moveSpan = [2]int64{start, s.t}
	}
	if kind == injMisplaced {
		s.knock(m, side, true)
	} else if kind < 0 {
		s.postExtras(m, side)
	}
	if !pressed {
		s.endMove(side)
	}
	pressAt := s.t
	for _, d := range s.direct {
		if d.Kind == trace.Press {
			pressAt = d.T
			break
		}
	}
	if pending != nil && pending.afterMove {
		s.wait(2000, 10000)
		s.doFix(pending)
	}
	if f := s.overlap; f != nil {
		// The put-back is played with the next move's events: the
		// opponent does not wait for it.
		s.overlap = nil
		end, n0 := s.t, len(s.changes)
		s.t = max(s.overlapAt, end)
		s.doFix(f)
		s.carryOut = append(s.carryOut[:0], s.changes[n0:]...)
		s.changes = s.changes[:n0]
		s.carryFix = f
		s.t = end
	}
	s.finishPly(m, side, think, pressAt)
}

// endMove presses the clock after the move, if the game has a clock. The
// press comes at least 300 ms after the last placement, longer than any
// scan period, so the board has reported the move before the press.
func (s *Source) endMove(side chess.Color) {
	if !s.clocked {
		return
	}
	switch {
	case s.t == s.moveSpan[1] && s.t > s.moveSpan[0] && len(s.direct) == 0 && s.chance(s.r.EarlyPress):
		// Nothing done since the piece landed: the press comes as
		// it is set down, a moment ahead of it.
		at := s.t
		s.t -= min(s.between(10, 150), (s.moveSpan[1]-s.moveSpan[0])/2)
		s.notef("early press %dms", at-s.t)
		s.press(side)
		s.t = at
		return
	case s.think > s.t+25000 && s.chance(s.r.LatePress):
		// Only when the think time leaves room: the move is made
		// earlier, the press comes when the clock readings say.
		s.wait(3000, 20000)
		s.notef("late press")
	case s.hurry:
		s.wait(300, 450)
	default:
		s.wait(300, 900)
	}
	s.press(side)
}

// finishPly places the batch in time and advances the game. With a clock
// the player's (first) press lands think ms after their clock started,
// unless the hands cannot be that fast; without one the hands start think
// ms after the previous move.
//
// The clock is kept as a chess clock (and a replay) keeps it: a press
// stops the presser's clock, if it was running, and starts the other's; a
// press on a stopped clock changes nothing. So after an injected press
// without a move or an illegal move the opponent's clock runs while the
// position is put right (the trace cannot say that an arbiter stopped the
// clocks).
func (s *Source) finishPly(m chess.Move, side chess.Color, think, pressAt int64) {
	// The hands' own clock ignores Options.Retime (shift is what it has
	// added so far), so that retiming changes nothing but the gaps.
	var offset int64
	base := s.base - s.shift
	switch {
	case s.clocked:
		offset = max(base+minReaction, s.since+think-pressAt)
	case s.r.FittedThink:
		// A think time is the whole turn, the hands' work included.
		offset = base + max(think-pressAt, minReaction)
	default:
		offset = base + max(think, minReaction)
	}
	plain := offset
	offset += s.shift
	if s.opts.Retime != nil {
		offset = s.base + max(s.opts.Retime(s.ply+1, plain-base), 0)
		s.shift = offset - plain
	}
	offset = s.flush(offset)
	for _, c := range s.carryOut {
		c.t += offset
		s.carryIn = append(s.carryIn, c)
	}
	s.carryOut = s.carryOut[:0]
	for _, d := range s.direct {
		if d.Kind != trace.Press || d.Side != s.running {
			continue
		}
		t := plain + d.T
		s.rem[d.Side] += s.tc.Increment.Milliseconds() - (t - s.since)
		s.moved[d.Side]++
		if s.tc.Moves > 0 && s.moved[d.Side] == s.tc.Moves {
			s.rem[d.Side] += s.tc.Second.Milliseconds()
		}
		s.running, s.since = d.Side.Other(), t
	}
	s.base = s.lastT
	if s.r.FittedThink {
		// The opponent reacts to what the hands did, seen by the sensors
		// or not (a capture swapped between two scans lands after the
		// last event).
		for _, c := range s.changes {
			s.base = max(s.base, c.t)
		}
	}
	s.pos.MakeMove(m)
	s.ply++
}
