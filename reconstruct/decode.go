package reconstruct

import (
	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/trace"
)

// The ordered decoder: the searches on a still board see only which
// squares were emptied and filled, so a run of replies each begun within
// a quarter second of the move before (no decision point between them)
// is beyond them once it is longer than they search. The square changes
// since the published game last changed are kept in order (evLog), and
// replayed one by one from the published position: whenever the board so
// far shows the position after a legal move, that move may be taken
// (depth first, taking before waiting), and a sequence that ends where the
// board is explains every change in the order it came.

const (
	// maxLogEvents bounds the changes kept; a longer stretch with no
	// change to the published game is left to the other searches.
	maxLogEvents = 400
	// decodeBudget bounds the states the decoder visits.
	decodeBudget = 20000
)

// evLog is the square changes since the published game last changed.
type evLog struct {
	evs   []logEvent
	start physBoard // the raw board before them
	ok    bool      // false after a frame or an overflow
}

// logEvent is what the log keeps of a square change (a trace event
// without the fields of a frame, a press or a promotion).
type logEvent struct {
	T         int64
	Kind      trace.Kind
	Square    chess.Square
	Piece     chess.Piece
	HasColour bool
	HasPieces bool
}

// reset starts the log afresh from raw board pb.
func (l *evLog) reset(pb *physBoard) {
	l.evs, l.start, l.ok = l.evs[:0], *pb, true
}

// add keeps one square change.
func (l *evLog) add(ev *trace.Event) {
	if !l.ok {
		return
	}
	if ev.Kind == trace.Frame || len(l.evs) == maxLogEvents {
		l.ok = false
		return
	}
	if ev.Kind == trace.Off || ev.Kind == trace.On {
		l.evs = append(l.evs, logEvent{T: ev.T, Kind: ev.Kind, Square: ev.Square, Piece: ev.Piece, HasColour: ev.HasColour, HasPieces: ev.HasPieces})
	}
}

// apply changes pb as the sensors reported ev.
func (pb *physBoard) apply(ev *logEvent) {
	if ev.Kind == trace.Off {
		pb.clear(ev.Square)
		return
	}
	pb.set(ev.Square, ev.Piece, ev.HasColour, ev.HasPieces)
}

type decodeState struct {
	r     *Reconstructor
	nodes int
	seq   [maxCatchPlies]chess.Move
	n     int
	found bool
	end   chess.Position
}

// decodeLog replays the log from the published position and returns the
// first sequence of legal moves (at most maxCatchPlies) whose changes came
// in the order they did and that ends where the board is, if any.
func (r *Reconstructor) decodeLog() (catchMatch, bool) {
	if !r.log.ok || len(r.log.evs) == 0 || len(r.lines) == 0 {
		return catchMatch{}, false
	}
	ds := decodeState{r: r}
	pb := r.log.start
	ds.search(0, r.lines[0].pos, pb, -1, chess.NoSquare)
	if !ds.found || ds.n == 0 {
		return catchMatch{}, false
	}
	m := catchMatch{n: ds.n, pos: ds.end}
	copy(m.moves[:], ds.seq[:ds.n])
	return m, true
}

// liftedAt is when game square s was last emptied among changes
// first..i-1 (the time of change i if it was not).
func (ds *decodeState) liftedAt(first, i int, s chess.Square) int64 {
	evs := ds.r.log.evs
	raw := unrotSquare(s, ds.r.orient)
	for j := i - 1; j >= first; j-- {
		if evs[j].Kind == trace.Off && evs[j].Square == raw {
			return evs[j].T
		}
	}
	return evs[i].T
}

// search replays the changes from i on, with p the position decoded so
// far, pb the board before change i, prevT when the move before was
// completed (-1: none decoded) and prevLand where it landed. A move is
// taken only if its first change came minReadyReplyMs or more after the
// move before, and, when its piece stood next to that landing (a
// recapture there aside) and it came sooner than knockMs, only if it was
// carried (minQuickCarryMs from lift to landing): pushed faster, it is
// the mover's hand knocking a piece.
func (ds *decodeState) search(i int, p chess.Position, pb physBoard, prevT int64, prevLand chess.Square) {
	r := ds.r
	evs := r.log.evs
	first := i
	for ; i < len(evs); i++ {
		ds.nodes++
		if ds.nodes > decodeBudget {
			return
		}
		pb.apply(&evs[i])
		var v view
		pb.makeView(r.orient, &v)
		if v.diff(&p) == 0 || ds.n == maxCatchPlies || prevT >= 0 && evs[first].T-prevT < minReadyReplyMs {
			continue // nothing to take
		}
		// A move whose position the board shows now may be taken here, or
		// its piece may still be on its way (waiting, the loop).
		var ml chess.MoveList
		p.GenerateLegal(&ml)
		for _, m := range ml.Moves() {
			if m.IsPromotion() && m.Promotion() != r.promoGuess() && r.sensor != trace.PieceSensor {
				continue
			}
			if p.OccupancyAfter(m) != v.occ {
				continue
			}
			if prevT >= 0 && evs[first].T-prevT < knockMs && chess.KingAttacks(prevLand).Has(m.From()) && m.To() != prevLand &&
				evs[i].T-ds.liftedAt(first, i, m.From()) < minQuickCarryMs {
				continue // pushed faster than a hand carries a piece: a knock
			}
			q := p
			q.MakeMove(m)
			if v.diff(&q) != 0 {
				continue
			}
			ds.seq[ds.n] = m
			ds.n++
			ds.search(i+1, q, pb, evs[i].T, moveLanding(m))
			if ds.found || ds.nodes > decodeBudget {
				return
			}
			ds.n--
		}
	}
	var v view
	pb.makeView(r.orient, &v)
	if v.diff(&p) == 0 && v.diff(&r.lines[0].pos) != 0 {
		ds.found, ds.end = true, p
	}
}

// promoGuess is the promotion piece a board that cannot see it assumes:
// the one an input chose, else the queen.
func (r *Reconstructor) promoGuess() chess.PieceType {
	if r.promo != chess.NoPieceType {
		return r.promo
	}
	return chess.Queen
}

// decode publishes what the ordered decoder finds, on colour and piece
// boards (on occupancy boards a capture nobody saw fits every victim the
// piece could have taken, and the first one found is no better than a
// guess), when nothing else explains a still board: of at least minN
// plies. On a board still for the commit timer minN is 3: a move and a
// piece its hand knocked where a legal move could have put it, which may
// still be put back, decode as two plies (on the corpus a dozen such
// knocks were published and retracted); the searches there reach six
// plies, so the decoder is for runs longer than that. On a board still
// for the alert timer any run counts. ok reports whether it published.
func (r *Reconstructor) decode(t int64, minN int, out []Output) (_ []Output, ok bool) {
	// Once an alert has stopped the game without a clock, a guess at the
	// captures is better than a board gone dark: every later move would
	// be lost with it.
	lost := r.state == stateIrregular && !r.clock
	if r.sensor == trace.Occupancy && !lost || r.state != statePlay && !lost && !(r.state == stateSetup && r.sawStart) {
		return out, false
	}
	m, ok := r.decodeLog()
	if !ok || m.n < minN {
		return out, false
	}
	return r.adoptCatch([]catchMatch{m}, 0, t, out), true
}
