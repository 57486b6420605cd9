package reconstruct

import (
	"slices"

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
	// decodeBudget bounds the states one pass of the decoder visits.
	decodeBudget = 20000
	// decisionBudget bounds the states all the decoder's passes visit
	// for one change or one timer: a game gone dark runs a dozen passes
	// over hundreds of changes at every change (381,000 states, 170 ms
	// on a desktop core, for one change of a bullet game gone dark).
	// Catching up a game 25 plies dark took one decision 98,649.
	decisionBudget = 5 * decodeBudget
	// maxDecodePlies bounds the plies one decoding finds: a board dark
	// that long (no still moment between fast plies) is still caught up.
	maxDecodePlies = 48
)

// evLog is the square changes since the published game last changed.
type evLog struct {
	evs   []logEvent
	start physBoard // the raw board before them
	ok    bool      // false after a frame or an overflow
	// prev: the changes the last decision read, up to the first of evs,
	// from the board prevStart, made from the position after nPrev
	// plies (key prevKey) when it only added plies (decodeBack).
	prev      []logEvent
	prevStart physBoard
	prevOK    bool
	nPrev     int
	prevKey   uint64
	// reread: the decision being published is decodeBack's: its changes
	// are prev and evs together, from the same position.
	reread bool
	// prev2: the changes of the decision before the last, up to the
	// first of prev, from the board prev2Start and the position after
	// nPrev2 plies (key prev2Key), when both only added plies
	// (decodeBack2).
	prev2      []logEvent
	prev2Start physBoard
	prev2OK    bool
	nPrev2     int
	prev2Key   uint64
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
	l.evs, l.start, l.ok, l.prevOK, l.prev2OK = l.evs[:0], *pb, true, false, false
}

// split records the log's first k changes as the last decision's, made
// from the position after nPrev plies (key), and goes on from the board
// after them with the rest (decodeBack).
func (l *evLog) split(k, nPrev int, key uint64) {
	// (The buffers swap: the last decision's changes become the one
	// before's with no copy.)
	l.prev2, l.prev = l.prev, l.prev2
	l.prev2Start, l.prev2OK = l.prevStart, l.prevOK && l.ok
	l.nPrev2, l.prev2Key = l.nPrev, l.prevKey
	l.prev, l.prevStart, l.prevOK = append(l.prev[:0], l.evs[:k]...), l.start, l.ok
	l.nPrev, l.prevKey = nPrev, key
	for j := range l.evs[:k] {
		l.start.apply(&l.evs[j])
	}
	l.evs = l.evs[:copy(l.evs, l.evs[k:])]
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

// settledChange is when the board last changed but for flickers at its
// end: on colour and piece boards, a square read emptied and, at most
// maxTouchMs later with nothing else read between, filled again by the
// piece it showed before (a piece set down off-centre on a reed switch,
// or adjusted). Else, and on occupancy boards, where a capture's piece
// set down looks alike, lastChange.
func (r *Reconstructor) settledChange() int64 {
	evs := r.log.evs
	if r.sensor == trace.Occupancy || !r.log.ok {
		return r.lastChange
	}
	k := len(evs) - 1
	for k >= 1 {
		on, off := &evs[k], &evs[k-1]
		if on.Kind != trace.On || off.Kind != trace.Off || off.Square != on.Square || on.T-off.T > maxTouchMs || !on.HasColour {
			break
		}
		j := k - 2
		for j >= 0 && evs[j].Square != on.Square {
			j--
		}
		if j >= 0 {
			if prev := &evs[j]; prev.Kind != trace.On || !prev.HasColour || prev.Piece.Color() != on.Piece.Color() ||
				prev.HasPieces && on.HasPieces && prev.Piece != on.Piece {
				break
			}
		} else if !r.log.start.putBack(on.Square, on) {
			break
		}
		k -= 2
	}
	if k < 0 {
		return r.lastChange
	}
	if k == len(evs)-1 {
		return r.lastChange
	}
	return evs[k].T
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
	sq    sqIndex         // (lastChange on long logs)
	start *chess.Position // the position the search begins from
	// ready: no move is taken whose first change came sooner after the
	// move before. readyMet: some step met a move begun sooner than
	// ready, but not before the move before's reading less landReadLag
	// (with ready 0 the search would have gone another way there, and
	// only there).
	ready    int64
	readyMet bool
	// partial: where no sequence explains every change, the longest
	// prefix after which the board showed its position exactly (best,
	// bestN plies) is kept (decodePartial).
	partial bool
	bestN   int
	best    [maxDecodePlies]chess.Move
	bestEnd chess.Position
	// away[i] is the game squares emptied by change i or before whose
	// piece a later change puts back (the same colour, or piece, on the
	// same square, the square's next change): a piece adjusted, or
	// knocked off and put back, or lifted and put down again, while
	// moves went on. Such a piece stands where it stood for the moves
	// made meanwhile (colour and piece boards), while the decoded game
	// has a piece there before and after the move (not one that moved
	// away in between, and another of its colour that came back).
	away [maxLogEvents]chess.Bitboard
	// astray[i] is the game squares where such a piece stands after
	// change i, on its way back (set down there and lifted again before
	// it is put back). Where the decoded game has no piece, they are
	// empty for the second pass (stray): the stray piece is no part of
	// the game.
	astray [maxLogEvents]chess.Bitboard
	strays bool // astray has a square
	stray  bool // astray is applied
	// overlapMet: readEarly turned down a reply's piece lifted while the
	// move's piece was in the hand, more than a sweep before its landing
	// was read; overlap: the second reading takes it (hands that overlap).
	overlapMet, overlap bool
	// nextDoor: recaptured turned down a reply that moved a piece next
	// to the move's hand one square, as a knock; nearOK: the last pass
	// takes it (knockOrMove).
	nextDoor, nearOK bool
	// paused: the changes (pausedAt, the first of them) at which a
	// slide stood longer than a touch-down before going on along its
	// line, read as its landing; pauseOK: the second reading defers
	// such a landing as a touch-down (decodeFrom).
	pausedAt [4]int16
	paused   int
	pauseOK  bool
	// noSlidOn: the second reading of a board whose first took a pawn's
	// single step the pawn went on from (slidOnTwo) takes no such step
	// (decodeFrom).
	noSlidOn bool
	// noFall: detour never takes a piece of the lifted one's kind set
	// down next to its square sooner than a carry for the lifted piece
	// fallen there (the retry). fellNear: a put-back was taken for
	// another piece only so, and the retry may read it.
	noFall, fellNear bool
	// unread: landedUnread has readied its search; landedSq, the game
	// squares it counts filled (away) before the game has them so.
	unread   bool
	landedSq chess.Bitboard
	// touch[i]: change i is the lift or the put-back of such a piece,
	// no move's change.
	touch [maxLogEvents]bool
	nodes int
	// knockAt: how many decoded moves came before the one whose hand
	// knocked off the piece on knockSq (-1: none).
	knockAt  int
	knockSq  chess.Square
	knockFar bool // knockSq two squares off the piece in the hand (search's knock.far)
	// knockFirst: the log's first change, a piece on knockSq emptied, is
	// the hand of the published game's last ply knocking it (knockedFirst).
	knockFirst bool
	// leftAt, leftOnto: the change that set a piece knocked onto the next
	// square and never put back, and the two game squares (-1: none).
	leftAt   int
	leftOnto chess.Bitboard
	leftUsed bool // the sequence found leaves it there
	// takenAt[i]: the change at which seq[i] was taken.
	takenAt [maxDecodePlies]int16
	// ex: the game squares an alert named out of place (view).
	ex chess.Bitboard
	// liftOnly[i]: seq[i] is a capture taken at its piece's lift, its
	// victim pushed off unseen (occupancy boards).
	liftOnly [maxDecodePlies]bool
	seq      [maxDecodePlies]chess.Move
	quick    [maxDecodePlies]bool // seq[i] may be a knock: not the last ply
	// pushed[i]: seq[i] was pushed next door faster than a hand carries
	// a piece, next to where the move before landed: taken only with
	// two plies after it.
	pushed [maxDecodePlies]bool
	n      int
	found  bool
	end    chess.Position
	// leftOff: the sequence found leaves the piece knocked off off the
	// board (else it was put back).
	leftOff bool
	// want, when set, is the only sequence tried (replays).
	want []chess.Move
	// inHand: the sequence found leaves the log's last change, a lift,
	// to the next move (capturerInHand).
	inHand bool
	// handLate: the sequence found leaves a piece lifted before the last
	// ply's landing to the next move (replyInHand).
	handLate bool
	// prefix: the search ends when want is taken (takenThrough).
	prefix bool
}

// rankPushed orders a move pushed next door faster than a hand carries a
// piece after every other reading.
const rankPushed = 5000

// pushedLate reports whether one of the last two plies decoded was
// pushed (a knock as likely, unless the game went on).
func (ds *decodeState) pushedLate() bool {
	if ds.r.decodeAsSeen {
		return false
	}
	for j := max(0, ds.n-2); j < ds.n; j++ {
		if ds.pushed[j] {
			return true
		}
	}
	return false
}

// complete reports whether the plies decoded are all of want, if set.
func (ds *decodeState) complete() bool {
	return ds.want == nil || ds.n == len(ds.want)
}

// allowed reports whether m may be the next ply decoded (ply ds.n+k).
func (ds *decodeState) allowed(m chess.Move, k int) bool {
	return ds.want == nil || ds.n+k < len(ds.want) && ds.want[ds.n+k] == m
}

// decodeLog replays the log from the published position and returns the
// first sequence of legal moves (at most maxDecodePlies) whose changes came
// in the order they did and that ends where the board is, if any.
func (r *Reconstructor) decodeLog(ready int64) (catchMatch, bool) {
	m, ok, _ := r.decodeReady(ready, nil)
	return m, ok
}

// leftAtOnce reports whether m's landing, where m was taken at change i,
// is emptied again within a sweep: the piece slid on (d2-d4 read on d3
// on the way), no prefix to stop at.
func (ds *decodeState) leftAtOnce(i int, m chess.Move) bool {
	evs := ds.r.log.evs
	raw := unrotSquare(m.Landing(), ds.r.orient)
	for j := i + 1; j < len(evs) && evs[j].T-evs[i].T <= ds.r.sweepMs(); j++ {
		if evs[j].Square == raw {
			return evs[j].Kind == trace.Off
		}
	}
	return false
}

// decodePartial is decodeLog(0), or where no sequence explains every
// change, on piece boards, the longest sequence after which the board
// showed its position exactly, every piece where the moves put it: the
// plies read in order up to a change the decoder cannot read (a landing
// no sweep read, its piece taken within the sweep; a piece knocked over
// and put back while another was carried). Published, they leave the
// changes after them to the next decision; else the game stays where it
// was, every later ply lost with it.
func (r *Reconstructor) decodePartial() (catchMatch, bool) {
	if m, ok := r.decodeLog(0); ok || r.sensor != trace.PieceSensor || !r.log.ok || len(r.log.evs) == 0 || len(r.lines) == 0 {
		return m, ok
	}
	ds := decodeState{r: r, partial: true, knockAt: -1, leftAt: -1, ex: r.excused(&r.lines[0].pos), start: &r.lines[0].pos}
	ds.findAway()
	ds.search(0, r.lines[0].pos, r.log.start, -1, chess.NoSquare, 0)
	if !ds.found && ds.unfall() {
		ds.search(0, r.lines[0].pos, r.log.start, -1, chess.NoSquare, 0)
	}
	if ds.found || ds.bestN == 0 {
		return catchMatch{}, false
	}
	m := catchMatch{n: ds.bestN, pos: ds.bestEnd}
	copy(m.moves[:], ds.best[:ds.bestN])
	return m, true
}

// decodeBoth is decodeLog(minReadyReplyMs) and decodeLog(0); the second
// search runs only where the first met a reply begun sooner than a reply
// is ready (elsewhere it would take every step the same way).
func (r *Reconstructor) decodeBoth() (m catchMatch, ok bool, q catchMatch, qok bool) {
	m, ok, met := r.decodeReady(minReadyReplyMs, nil)
	if !met {
		return m, ok, m, ok
	}
	q, qok = r.decodeLog(0)
	return m, ok, q, qok
}

// replays reports whether the changes came in an order that moves, from
// the published position, could have made them.
func (r *Reconstructor) replays(moves []chess.Move) bool {
	_, ok := r.decodeWant(0, moves)
	return ok
}

// takenThrough is the index of the logged change at which moves, made
// from start in the order of the changes, were done (the last of them
// taken), -1 if they were not so made.
func (r *Reconstructor) takenThrough(start *chess.Position, moves []chess.Move) int {
	if !r.log.ok || len(r.log.evs) == 0 || len(moves) == 0 || len(moves) > maxDecodePlies {
		return -1
	}
	ds := decodeState{r: r, want: moves, prefix: true, knockAt: -1, leftAt: -1, ex: r.excused(start), start: start}
	ds.findAway()
	ds.search(0, *start, r.log.start, -1, chess.NoSquare, 0)
	if !ds.found && ds.overlapMet {
		ds.nodes, ds.n, ds.overlap = 0, 0, true
		ds.search(0, *start, r.log.start, -1, chess.NoSquare, 0)
	}
	if !ds.found || ds.n != len(moves) {
		return -1
	}
	return int(ds.takenAt[ds.n-1])
}

// decodeWant is decodeLog, the sequence restricted to want when set.
func (r *Reconstructor) decodeWant(ready int64, want []chess.Move) (catchMatch, bool) {
	m, ok, _ := r.decodeReady(ready, want)
	return m, ok
}

// decodeReady is decodeWant, and whether the search met a move begun
// sooner than ready after the move before (decodeState.readyMet).
func (r *Reconstructor) decodeReady(ready int64, want []chess.Move) (_ catchMatch, _ bool, readyMet bool) {
	if !r.log.ok || len(r.log.evs) == 0 || len(r.lines) == 0 {
		return catchMatch{}, false, false
	}
	return r.decodeFrom(&r.lines[0].pos, ready, want)
}

// decodeFrom is decodeReady from position start (the log's changes made
// from it).
func (r *Reconstructor) decodeFrom(start *chess.Position, ready int64, want []chess.Move) (_ catchMatch, _ bool, readyMet bool) {
	ds := decodeState{r: r, ready: ready, want: want, knockAt: -1, leftAt: -1, ex: r.excused(start), start: start}
	ds.findAway()
	pb := r.log.start
	if want == nil {
		// (A piece emptied as the last ply landed, next to where its hand
		// let go, is read that hand's knock first: 4. Bxc6, b7 knocked
		// off 350 ms after, 4... dxc6 taking the bishop off first: read
		// as bxc6, d7 knocked by the capturing hand.)
		ds.knockedFirst(start, pb)
	}
	if !ds.found {
		ds.search(0, *start, pb, -1, chess.NoSquare, 0)
	}
	if !ds.found && r.sensor == trace.Occupancy {
		ds.findKnockedOnto(false, false)
	}
	if !ds.found && ds.strays {
		// Again with the pieces knocked onto another square and put back
		// taken for no part of the game: a piece may also have moved
		// there and back (a repetition), which the first pass reads.
		ds.nodes, ds.n, ds.stray = 0, 0, true
		ds.search(0, *start, pb, -1, chess.NoSquare, 0)
	}
	for _, anyPiece := range [...]bool{false, true} {
		if !ds.found && r.sensor == trace.Occupancy && ds.slowFalls(anyPiece) {
			ds.search(0, *start, pb, -1, chess.NoSquare, 0)
		}
	}
	if !ds.found && ds.unfall() {
		ds.search(0, *start, pb, -1, chess.NoSquare, 0)
	}
	if !ds.found && ds.bare() {
		ds.search(0, *start, pb, -1, chess.NoSquare, 0)
	}
	if !ds.found && ds.knockOrMove() {
		ds.search(0, *start, pb, -1, chess.NoSquare, 0)
	}
	if !ds.found && ds.landedUnread() {
		ds.search(0, *start, pb, -1, chess.NoSquare, 0)
	}
	if !ds.found && ds.overlapMet && !ds.overlap {
		ds.nodes, ds.n, ds.overlap = 0, 0, true
		ds.search(0, *start, pb, -1, chess.NoSquare, 0)
	}
	if !ds.found || ds.n == 0 {
		return catchMatch{}, false, ds.readyMet
	}
	if want == nil && ds.tookPause() {
		// A slide paused on its way (up to standMs) and gone on along its
		// line is read again with the pause a touch-down, which waits
		// for the slide's end: taken when it reaches the same board
		// (Re4-h4 paused 386 ms on g4, then Nf1, then Rh4-e4 over g4: the
		// first reading, Rg4 Nf1 Rg4-e4, reaches it too).
		ds2 := ds.reread(ready, pb, func(d *decodeState) { d.pauseOK = true })
		if ds2.found && ds2.n == ds.n && ds2.end.Key() == ds.end.Key() && ds2.knockAt < 0 && !ds2.leftUsed && ds.knockAt < 0 && !ds.leftUsed {
			return ds2.match(), true, ds.readyMet
		}
	}
	if want == nil && r.sensor != trace.Occupancy && ds.knockAt < 0 && !ds.knockFirst && !ds.leftUsed && ds.slidOn() {
		// A pawn's single step the pawn went on from, read before its
		// double step could be (the reply begun sooner than ready, the
		// opponent's piece knocked in the hand): read again without such
		// steps, the double step taken when it reaches the same position
		// in as many plies (d5 exd6 e.p., read d6 exd6).
		noSlidOn := func(d *decodeState) { d.noSlidOn = true }
		ds2 := ds.reread(ready, pb, noSlidOn)
		if !ds2.found && !r.clock {
			ds2 = ds.reread(0, pb, noSlidOn)
		}
		if ds2.found && ds2.n == ds.n && ds2.end.Key() == ds.end.Key() && ds2.knockAt < 0 && !ds2.leftUsed {
			return ds2.match(), true, ds.readyMet
		}
	}
	m := ds.match()
	if ds.knockFirst {
		m.knocked, m.knockAt, m.putBack = ds.knockSq.Bitboard(), -1, !ds.leftOff
	} else if ds.knockAt >= 0 {
		m.knocked, m.knockAt, m.putBack = ds.knockSq.Bitboard(), ds.knockAt, !ds.leftOff
	} else if ds.leftAt >= 0 && ds.leftUsed {
		// (Left knocked onto the next square: named as of the move
		// decoded last before the knock.)
		n := 0
		for n < ds.n && int(ds.takenAt[n]) < ds.leftAt {
			n++
		}
		m.knocked, m.knockAt = ds.leftOnto, n-1
	}
	return m, true, ds.readyMet
}

// reread is a fresh reading of ds's log from its start (board pb), with
// ready and the options set, for a second reading of the same changes.
func (ds *decodeState) reread(ready int64, pb physBoard, set func(*decodeState)) decodeState {
	d := decodeState{r: ds.r, ready: ready, knockAt: -1, leftAt: -1, ex: ds.ex, start: ds.start}
	set(&d)
	d.findAway()
	d.search(0, *ds.start, pb, -1, chess.NoSquare, 0)
	return d
}

// over reports whether the pass has used its budget, or the decision
// all of its own.
func (ds *decodeState) over() bool {
	return ds.nodes > decodeBudget || ds.r.spent > decisionBudget
}

// match is the sequence found, from the search's start to its end.
func (ds *decodeState) match() catchMatch {
	m := catchMatch{n: ds.n, pos: ds.end, inHand: ds.inHand, handLate: ds.handLate}
	copy(m.moves[:], ds.seq[:ds.n])
	for i := range ds.n {
		if ds.quick[i] || ds.liftOnly[i] {
			m.quick |= 1 << i
		}
	}
	return m
}

// view makes v, the board pb as the decoder compares it with p: the
// squares an alert already named out of place (excused) show what p has
// there, as far as the sensors tell: a piece knocked off for good and
// alerted no longer keeps every later move from being decoded (b2 knocked
// off by 24... Rd7's hand and never put back: nothing after the next
// reply begun early was published).
func (ds *decodeState) view(pb *physBoard, p *chess.Position, v *view) {
	pb.makeView(ds.r.orient, v)
	if ex := ds.ex; ex != 0 {
		v.occ = v.occ&^ex | p.Occupied()&ex
		v.colourKnown &^= ex
		v.pieceKnown &^= ex
	}
}

// nextChanges fills next[i] with the index of the next change of change
// i's square (-1: none), and returns each raw square's first change.
func nextChanges(evs []logEvent, next *[maxLogEvents]int16) (first [64]int16) {
	for s := range first {
		first[s] = -1
	}
	for i := len(evs) - 1; i >= 0; i-- {
		s := evs[i].Square
		next[i], first[s] = first[s], int16(i)
	}
	return first
}

// lastChange is the index of the last change of game square s among
// changes lo..i-1, -1 if none.
func (ds *decodeState) lastChange(lo, i int, s chess.Square) int {
	evs := ds.r.log.evs
	raw := unrotSquare(s, ds.r.orient)
	if len(evs) > sqIndexMin {
		return ds.sq.last(evs, lo, i, raw)
	}
	for j := i - 1; j >= lo; j-- {
		if evs[j].Square == raw {
			return j
		}
	}
	return -1
}

// sqIndexMin is the log length above which lastChange asks a square's
// changes by index rather than scanning back: in a game gone dark every
// decision decodes the whole log (up to maxLogEvents changes), and the
// scans took most of the time (0.97 s to replay 158 events).
const sqIndexMin = 48

// sqIndex is the log's changes by raw square, in order, built at the
// first question of a decodeState (whose changes stay the same) and again
// if the changes asked about are another slice.
type sqIndex struct {
	built bool
	first *logEvent // the changes it was built for
	n     int
	off   [65]int16 // square s's changes are idx[off[s]:off[s+1]]
	idx   []int16
}

// last is the index of the last change of raw square raw among evs'
// changes lo..i-1, -1 if none.
func (x *sqIndex) last(evs []logEvent, lo, i int, raw chess.Square) int {
	if !x.built || x.first != &evs[0] || x.n != len(evs) {
		x.build(evs)
	}
	list := x.idx[x.off[raw]:x.off[raw+1]]
	// The last entry below i.
	a, b := 0, len(list)
	for a < b {
		m := int(uint(a+b) >> 1)
		if int(list[m]) < i {
			a = m + 1
		} else {
			b = m
		}
	}
	if a == 0 || int(list[a-1]) < lo {
		return -1
	}
	return int(list[a-1])
}

func (x *sqIndex) build(evs []logEvent) {
	x.built, x.first, x.n = true, &evs[0], len(evs)
	var count [64]int16
	for k := range evs {
		count[evs[k].Square]++
	}
	x.off[0] = 0
	for s := range 64 {
		x.off[s+1] = x.off[s] + count[s]
	}
	if cap(x.idx) < len(evs) {
		x.idx = make([]int16, len(evs), maxLogEvents)
	}
	x.idx = x.idx[:len(evs)]
	next := x.off
	for k := range evs {
		s := evs[k].Square
		x.idx[next[s]] = int16(k)
		next[s]++
	}
}

// findAway fills ds.away and ds.astray (left empty on occupancy boards,
// where a piece put back cannot be told from a capture's piece set down).
func (ds *decodeState) findAway() {
	r := ds.r
	evs := r.log.evs
	if r.sensor == trace.Occupancy {
		return
	}
	// next[i]: the index of the next change of change i's square (-1:
	// none).
	var next [maxLogEvents]int16
	last := nextChanges(evs, &next)
	pb := r.log.start
	var away chess.Bitboard // raw squares
	// A piece of the published position already off its square when the
	// log began (knocked as its move landed, before that move was
	// published), and put back by its square's first change.
	P := ds.start
	for b := P.Occupied() &^ rotBB(pb.occ, r.orient); b != 0; b &= b - 1 {
		raw := unrotSquare(b.First(), r.orient)
		if j := last[raw]; j >= 0 && evs[j].Kind == trace.On && evs[j].seenAs(P.PieceAt(b.First())) {
			away |= raw.Bitboard()
			ds.touch[j] = true
		}
	}
	// set[k], cleared[k]: raw squares where such a piece, on its way
	// back, stands from change k on (a pawn knocked onto e6, picked up
	// from there and put back on e7), and from which it is lifted.
	var set, cleared [maxLogEvents]chess.Bitboard
	var stops [4][2]int
	var astray chess.Bitboard // raw squares
	var lifted [maxLogEvents]liftedPiece
	for i := range evs {
		ev := &evs[i]
		b := ev.Square.Bitboard()
		if ev.Kind == trace.Off {
			lifted[i] = liftedPiece{ok: pb.colourKnown&b != 0, white: pb.white&b != 0, pc: pb.pieces[ev.Square], known: pb.pieceKnown&b != 0}
		}
		if ev.Kind == trace.On {
			away &^= b
		} else if j := next[i]; j >= 0 && evs[j].Kind == trace.On && pb.putBack(ev.Square, &evs[j]) {
			elsewhere, n := detour(evs, i, int(j), pb, stops[:], r.sweepMs(), lifted[:i], !ds.noFall)
			if elsewhere && !ds.noFall && !ds.fellNear {
				var st [len(stops)][2]int
				again, _ := detour(evs, i, int(j), pb, st[:], r.sweepMs(), lifted[:i], false)
				ds.fellNear = !again
			}
			if !elsewhere {
				away |= b
				ds.touch[i], ds.touch[j] = true, true
				for _, st := range stops[:n] {
					sb := evs[st[0]].Square.Bitboard()
					if st[0] < i {
						// (Read there before this lift.)
						astray |= sb
						for k := st[0]; k < i; k++ {
							ds.astray[k] |= rotBB(sb, r.orient)
						}
					}
					set[st[0]] |= sb
					cleared[st[1]] |= sb
				}
			}
		}
		astray = astray&^cleared[i] | set[i]
		ds.strays = ds.strays || astray != 0
		pb.apply(ev)
		ds.away[i] = rotBB(away, r.orient)
		ds.astray[i] = rotBB(astray, r.orient)
	}
}

// unfall readies a search again in which no put-back is another piece
// only because one like it was set down next to its square sooner than a
// hand carries a piece after the lift (detour's fall), if some was: the
// reading of a slow sweep may come that late after the landing it reads.
func (ds *decodeState) unfall() bool {
	if !ds.fellNear || ds.noFall {
		return false
	}
	ds.noFall, ds.strays, ds.stray = true, false, false
	clear(ds.touch[:len(ds.r.log.evs)])
	ds.findAway()
	ds.nodes, ds.n = 0, 0
	return true
}

// bare readies a search again with no change taken for a piece put back
// (no touch, no piece away or astray), if findAway took any: the piece
// may have moved and come back by moves (Bxb7 Rc7 Bf3, the bishop back
// where it stood two plies before, read as f3 lifted and put back).
func (ds *decodeState) bare() bool {
	n := len(ds.r.log.evs)
	if ds.r.sensor == trace.Occupancy || !slices.Contains(ds.touch[:n], true) {
		return false
	}
	clear(ds.touch[:n])
	clear(ds.away[:n])
	clear(ds.astray[:n])
	ds.strays, ds.stray, ds.nodes, ds.n = false, false, 0, 0
	return true
}

// landedUnread readies a last search, on colour and piece boards, in
// which a piece lifted and first read set down on a square B, later
// carried from B to a square C next to it, landed on C unread and was
// knocked onto B (by the replying hand, before a sweep read C), then put
// back: C counts as filled, B as empty, from B's filling to C's, and
// those changes are no move's (4... d7-d6 knocked onto c6, 5. e4, the
// pawn put back on d6: no move reaches c6, and the game went dark).
func (ds *decodeState) landedUnread() bool {
	r := ds.r
	evs := r.log.evs
	if r.sensor == trace.Occupancy || ds.unread {
		return false
	}
	ds.unread = true
	var next [maxLogEvents]int16
	nextChanges(evs, &next)
	pb := r.log.start
	var lifted [maxLogEvents]liftedPiece
	var found bool
	for i := range evs {
		ev := &evs[i]
		if ev.Kind == trace.Off {
			b := ev.Square.Bitboard()
			lifted[i] = liftedPiece{ok: pb.colourKnown&b != 0, white: pb.white&b != 0, pc: pb.pieces[ev.Square], known: pb.pieceKnown&b != 0}
		}
		pb.apply(ev)
	}
	same := func(l *liftedPiece, e *logEvent) bool {
		return l.ok && e.HasColour && (e.Piece.Color() == chess.White) == l.white && (!l.known || !e.HasPieces || e.Piece == l.pc)
	}
	var moved chess.Bitboard // raw squares changed since the log began
	for i := range evs {
		A := evs[i].Square
		wasMoved := moved.Has(A)
		moved |= A.Bitboard()
		if evs[i].Kind != trace.Off || ds.touch[i] || !lifted[i].ok || wasMoved {
			continue
		}
		// The piece of the log's first position lifted from A.
		ga := rotSquare(A, r.orient)
		pc := ds.start.PieceAt(ga)
		if pc == chess.NoPiece || (pc.Color() == chess.White) != lifted[i].white {
			continue
		}
		// k: the next setting down of such a piece, on B, with no other
		// such piece lifted between, then a (B emptied) and b (C, next to
		// B, filled with it).
		k := i + 1
		for k < len(evs) && !(evs[k].Kind == trace.On && same(&lifted[i], &evs[k])) && !(evs[k].Kind == trace.Off && lifted[k].ok && lifted[k].white == lifted[i].white) {
			k++
		}
		if k >= len(evs) || evs[k].Kind != trace.On || ds.touch[k] || evs[k].Square == A {
			continue
		}
		// (B where the piece cannot go from A, C where it can.)
		if reaches(pc, ga, rotSquare(evs[k].Square, r.orient), false) {
			continue
		}
		a := int(next[k])
		if a < 0 || evs[a].Kind != trace.Off || ds.touch[a] {
			continue
		}
		// (C may be read filled up to a sweep before B is read empty.)
		bi := a - 1
		for bi > k && evs[a].T-evs[bi].T <= r.sweepMs() {
			bi--
		}
		for bi++; bi < len(evs) && evs[bi].T-evs[a].T <= knockMs && !(bi != a && evs[bi].Kind == trace.On && same(&lifted[i], &evs[bi]) && chess.KingAttacks(evs[k].Square).Has(evs[bi].Square)); bi++ {
		}
		if bi >= len(evs) || evs[bi].T-evs[a].T > knockMs || ds.touch[bi] {
			continue
		}
		B, C := evs[k].Square, evs[bi].Square
		if C == B || C == A || !chess.KingAttacks(B).Has(C) || ds.lastChange(k+1, bi, rotSquare(C, r.orient)) >= 0 || !reaches(pc, ga, rotSquare(C, r.orient), true) {
			continue
		}
		ds.touch[k], ds.touch[a], ds.touch[bi] = true, true, true
		gb, gc := rotSquare(B, r.orient).Bitboard(), rotSquare(C, r.orient).Bitboard()
		for x := k; x < bi; x++ {
			ds.away[x] |= gc
		}
		ds.landedSq |= gc
		for x := k; x < a; x++ {
			ds.astray[x] |= gb
		}
		found = true
	}
	if !found {
		return false
	}
	ds.strays, ds.stray, ds.nodes, ds.n = true, true, 0, 0
	return true
}

// reaches reports whether piece pc on from could move to to on an empty
// board (a pawn diagonally only if capture).
func reaches(pc chess.Piece, from, to chess.Square, capture bool) bool {
	if pc.Type() != chess.Pawn {
		return chess.Attacks(pc.Type(), pc.Color(), from, 0).Has(to)
	}
	d, rank := int(to)-int(from), int(from)/8
	if pc.Color() == chess.Black {
		d, rank = -d, 7-rank
	}
	return d == 8 || d == 16 && rank == 1 || capture && chess.PawnAttacks(pc.Color(), from).Has(to)
}

// slidOnLine reports whether a piece of type t moved from from to via
// and then on to to went on along the line it came by (a bishop, rook
// or queen, or a pawn's double step stopped on its middle square: f2-f4
// paused on f3 as b8 was lifted, f3 then kept and 3. Nf3 read as Ne2): no
// knock sends a piece so.
func slidOnLine(t chess.PieceType, from, via, to chess.Square) bool {
	if t == chess.Pawn {
		d, rank := int(to)-int(from), int(from)/8
		return (d == 16 && rank == 1 || d == -16 && rank == 6) && chess.Between(from, to).Has(via)
	}
	return (t == chess.Bishop || t == chess.Rook || t == chess.Queen) && chess.Between(from, to).Has(via)
}

// knockOrMove readies a last search, when nothing else was found, in
// which a reply read before the move it answers landed may move a piece
// next to that move's hand one square, which the other passes take for
// its knock: the later changes must bear it out (22... g6 read landing
// after 23. Qf5-f4: nothing was published for the rest of the game).
func (ds *decodeState) knockOrMove() bool {
	if !ds.nextDoor || ds.nearOK {
		return false
	}
	ds.nearOK, ds.stray, ds.nodes, ds.n = true, false, 0, 0
	return true
}

// findKnockedOnto fills, on occupancy boards, ds.away, ds.astray and
// ds.touch for the second pass: a piece knocked onto the next square and
// put back. Its square emptied and, faster than a hand carries a piece
// (minQuickCarryMs), an empty square next to it filled; later that square
// emptied, and the first filled again within knockMs, no change of either
// between. (Nf6's hand knocked e6 onto d5, put back 1 s later as Nc3
// landed: with no decoding, 4. Nxd4 Nf6 5. Nc3 was published as 4. Nc3
// Nf6 5. Nxd4.) The first pass reads these as moves if moves explain
// them: a king stepped aside and back. With slow (a last pass), the fall
// may take up to knockFlightMs where the piece that stood on the square
// at the log's start could not move to the next one (a pawn knocked
// sideways or back; with anyPiece, where it could too) and it is put
// back; it reports whether it took such a fall.
func (ds *decodeState) findKnockedOnto(slow, anyPiece bool) (tookSlow bool) {
	r := ds.r
	evs := r.log.evs
	// next[i]: the index of the next change of change i's square (-1:
	// none); filled[i]: whether change i's square was filled before it.
	var next [maxLogEvents]int16
	nextChanges(evs, &next)
	flight := int64(minQuickCarryMs)
	if slow {
		flight = knockFlightMs
	}
	occ := r.log.start.occ
	var filled [maxLogEvents]bool
	for i := range evs {
		filled[i] = occ.Has(evs[i].Square)
		if evs[i].Kind == trace.On {
			occ |= evs[i].Square.Bitboard()
		} else {
			occ &^= evs[i].Square.Bitboard()
		}
	}
	for i := range evs {
		b := int(next[i])
		if evs[i].Kind != trace.Off || ds.touch[i] {
			continue
		}
		s := evs[i].Square
		for k := i + 1; (b < 0 || k < b) && k < len(evs) && evs[k].T-evs[i].T < flight; k++ {
			t := evs[k].Square
			if evs[k].Kind != trace.On || filled[k] || !chess.KingAttacks(s).Has(t) {
				continue
			}
			late := evs[k].T-evs[i].T >= minQuickCarryMs
			if late && !anyPiece {
				pc := ds.start.PieceAt(rotSquare(s, r.orient))
				gt := rotSquare(t, r.orient)
				if pc == chess.NoPiece || reaches(pc, rotSquare(s, r.orient), gt, ds.start.Occupied().Has(gt)) {
					break
				}
			}
			a := int(next[k])
			// (Past the contact's chatter on a raw matrix: the square
			// read emptied and filled again within bounceMs. g1 chattered
			// five times as f2 was knocked onto it, and the knock put back
			// 0.9 s later was read as moves: the game stopped there.)
			for a >= 0 && (b < 0 || a < b) && next[a] >= 0 && (b < 0 || int(next[a]) < b) && evs[next[a]].T-evs[a].T <= bounceMs {
				a = int(next[next[a]])
			}
			if b < 0 && a < 0 {
				if late {
					break
				}
				// Never put back: left there (taken so only on the alert
				// timer's board: search's last check).
				a, b = len(evs), len(evs)
				ds.leftAt, ds.leftOnto = k, rotSquare(s, r.orient).Bitboard()|rotSquare(t, r.orient).Bitboard()
			}
			if a < 0 || b < 0 || a > b || b < len(evs) && evs[b].T-evs[a].T > knockMs || ds.touch[k] {
				break
			}
			ds.touch[i], ds.touch[k] = true, true
			if b < len(evs) {
				ds.touch[a], ds.touch[b] = true, true
			}
			gs, gt := rotSquare(s, r.orient).Bitboard(), rotSquare(t, r.orient).Bitboard()
			for x := i; x < b; x++ {
				ds.away[x] |= gs
			}
			for x := k; x < a; x++ {
				ds.astray[x] |= gt
			}
			ds.strays = true
			tookSlow = tookSlow || late
			break
		}
	}
	return tookSlow
}

// slowFalls readies a search again, on occupancy boards, with the
// knocked pieces of findKnockedOnto's slow reading, if it took any: a
// pawn knocked sideways that took 110 ms to land there (g4 onto h4 by
// 17... hxg5's hand, put back after 18. Kb1) was read as no move, and the
// game went dark for 30 plies. With anyPiece, a fall that a move of the
// piece could have made counts too (a bishop knocked one step along its
// diagonal); first without, as a capture one square away and a move back
// over it look just like such a fall and its put-back (dxc4, then Bc4-d5).
func (ds *decodeState) slowFalls(anyPiece bool) bool {
	n := len(ds.r.log.evs)
	clear(ds.touch[:n])
	clear(ds.away[:n])
	clear(ds.astray[:n])
	ds.strays, ds.leftAt, ds.leftOnto = false, -1, 0
	if !ds.findKnockedOnto(true, anyPiece) {
		return false
	}
	ds.nodes, ds.n, ds.stray = 0, 0, true
	return true
}

// detour reports whether the piece that change i lifted stands on
// another square when change j fills its square again: set down there (a
// piece of its side, on piece boards its piece, while no other such piece
// lifted since was in the air) and not lifted from there since. The piece
// set down on its square is then another: the king lifted from e1 and set
// on g1, the rook from h1 on f1 (O-O), that rook then lifted and set on
// e1 (Re1) is no king put back on e1, and Rg1 with the king touched is no
// reading of it. A piece back in the hand (a pawn knocked onto a3 and
// picked up from there to be put back) is the one put back: stops gets
// the changes that set it down and lifted it on the way (n of them; more
// than stops holds are taken for a piece gone elsewhere). pb is the board
// before change i.
//
// With fall, a piece like it set down next to its square sooner after its
// lift (or another's) than a hand carries a piece is taken for it, fallen
// there; a slow sweep may read another's landing as late (g2-g3 read
// 131 ms after it landed, 35 ms after f2 knocked off was).
func detour(evs []logEvent, i, j int, pb physBoard, stops [][2]int, sweep int64, lifted []liftedPiece, fall bool) (elsewhere bool, n int) {
	s := evs[i].Square
	b := s.Bitboard()
	white, pc, known := pb.white&b != 0, pb.pieces[s], pb.pieceKnown&b != 0
	same := func(w bool, p chess.Piece, pk bool) bool {
		return w == white && (!known || !pk || p == pc)
	}
	air := 0
	if pb.colourKnown&b != 0 {
		air = inAir(evs, lifted, i, same)
	}
	// A piece knocked onto the next square may be read there up to a
	// sweep before its own square is read empty (the f1 rook on e2 37 ms
	// before f1): it stands there from that change on, if it is picked up
	// from there again before it is put back.
	for k := i - 1; k >= 0 && evs[i].T-evs[k].T <= sweep; k-- {
		if e := &evs[k]; e.Kind == trace.On && e.HasColour && chess.KingAttacks(s).Has(e.Square) && pb.occ.Has(e.Square) &&
			same(e.Piece.Color() == chess.White, e.Piece, e.HasPieces) {
			if elsewhere, n := walkDetour(evs, i, j, pb, stops, same, e.Square, k, air, fall, sweep); !elsewhere {
				return false, n
			}
			break
		}
	}
	return walkDetour(evs, i, j, pb, stops, same, chess.NoSquare, 0, air, fall, sweep)
}

// liftedPiece is what a sweep last told of the piece a lift took up.
type liftedPiece struct {
	ok, white, known bool // colour told; white; piece told
	pc               chess.Piece
}

// inAir is how many pieces like the one change i lifts (same: its
// colour, on piece boards its piece) were lifted up to knockMs before it
// (lifted[k] tells change k's piece) and not set down since: a hand
// carrying one of them may have knocked this one (Ke6 lifted from f6
// 11 ms before f7 was knocked off: the king's landing on e6 is no knocked
// pawn set down there).
func inAir(evs []logEvent, lifted []liftedPiece, i int, same func(bool, chess.Piece, bool) bool) int {
	lo := i
	for lo > 0 && evs[i].T-evs[lo-1].T <= knockMs {
		lo--
	}
	n := 0
	for k := lo; k < i; k++ {
		e, lk := &evs[k], &lifted[k]
		switch {
		case e.Kind == trace.Off && lk.ok && same(lk.white, lk.pc, lk.known):
			n++
		case e.Kind == trace.On && n > 0 && e.HasColour && same(e.Piece.Color() == chess.White, e.Piece, e.HasPieces):
			n--
		}
	}
	return n
}

// walkDetour is detour's walk from change i to j, the piece lifted by i
// standing on at (set there by change atOn) unless at is NoSquare.
func walkDetour(evs []logEvent, i, j int, pb physBoard, stops [][2]int, same func(bool, chess.Piece, bool) bool, at chess.Square, atOn, air int, fall bool, sweep int64) (elsewhere bool, n int) {
	inHand := at == chess.NoSquare
	pb.apply(&evs[i])
	// ahead: a square such a piece was set down on (change aheadOn) while
	// it stood on at, none in the air: it, slid on, read before at
	// emptied.
	ahead, aheadOn := chess.NoSquare, 0
	others := air       // pieces like it lifted since (or in the air at i), not set down yet
	otherT := int64(-1) // when the last of them was lifted since i (-1: none)
	for k := i + 1; k < j; k++ {
		ev := &evs[k]
		kb := ev.Square.Bitboard()
		switch {
		case ev.Kind == trace.Off && !inHand && ev.Square == at:
			if n == len(stops) {
				return true, n
			}
			stops[n] = [2]int{atOn, k}
			n++
			if at, atOn, ahead = ahead, aheadOn, chess.NoSquare; at == chess.NoSquare {
				inHand = true
			}
		case ev.Kind == trace.Off:
			if ev.Square == ahead {
				ahead = chess.NoSquare
			}
			if pb.occ&pb.colourKnown&kb != 0 && same(pb.white&kb != 0, pb.pieces[ev.Square], pb.pieceKnown&kb != 0) {
				others++
				otherT = ev.T
			}
		case ev.HasColour && same(ev.Piece.Color() == chess.White, ev.Piece, ev.HasPieces):
			switch {
			case fall && others > 0 && inHand && chess.KingAttacks(evs[i].Square).Has(ev.Square) &&
				(ev.T-evs[i].T < minQuickCarryMs || otherT >= 0 && ev.T-otherT < minQuickCarryMs):
				// Next to its square sooner after its own lift, or the
				// other's, than a hand carries a piece: this one, fallen
				// there (h6 knocked onto g5 76 ms after it left, the
				// queen in the air; g5 knocked onto g6 3 ms after the
				// king left e6).
				inHand, at, atOn = false, ev.Square, k
			case others > 0:
				others--
			case inHand:
				inHand, at, atOn = false, ev.Square, k
			case at != chess.NoSquare && (chess.KingAttacks(at).Has(ev.Square) || chess.Between(at, ev.Square) != 0):
				// (On a line from it: a slide goes straight on. The
				// rook lifted from e1 and set on e2 is no d1 rook
				// knocked onto c1 slid on.)
				ahead, aheadOn = ev.Square, k
			}
		}
		pb.apply(ev)
	}
	if !inHand && chess.KingAttacks(evs[i].Square).Has(at) {
		// Set down next to its square, and that square read emptied
		// within a sweep after the put-back: picked up from there and
		// put back, the sweep reading its square first (d5 knocked onto
		// d6, read back on d5 32 ms before d6 was read empty).
		for k := j + 1; k < len(evs) && evs[k].T-evs[j].T <= sweep; k++ {
			if evs[k].Square == at {
				if evs[k].Kind == trace.Off && n < len(stops) {
					stops[n] = [2]int{atOn, k}
					return false, n + 1
				}
				break
			}
		}
	}
	return !inHand, n
}

// seenAs reports whether change on (a square filled) may show piece pc,
// as far as the sensors tell.
func (on *logEvent) seenAs(pc chess.Piece) bool {
	if !on.HasColour || on.Piece.Color() != pc.Color() {
		return false
	}
	return !on.HasPieces || on.Piece == pc
}

// putBack reports whether change on (a square filled) shows on square s
// what pb shows there, as far as the sensors tell: the piece lifted put
// back.
func (pb *physBoard) putBack(s chess.Square, on *logEvent) bool {
	b := s.Bitboard()
	if pb.occ&b == 0 || pb.colourKnown&b == 0 || !on.HasColour || (pb.white&b != 0) != (on.Piece.Color() == chess.White) {
		return false
	}
	return pb.pieceKnown&b == 0 || !on.HasPieces || pb.pieces[s] == on.Piece
}

// repeated publishes, without a clock, plies that brought the board back
// to the published position (a repetition, at least four plies: eight
// changes), on a still board that shows that position.
func (r *Reconstructor) repeated(t int64, out []Output) []Output {
	if r.clock || r.state != statePlay || len(r.log.evs) < 8 || r.v.diff(&r.lines[0].pos) != 0 {
		return out
	}
	out, _ = r.decode(t, 4, out)
	return out
}

// samePlacement reports whether a and b have the same pieces on the same
// squares (whoever is to move).
func samePlacement(a, b *chess.Position) bool {
	if a.ByColor(chess.White) != b.ByColor(chess.White) || a.ByColor(chess.Black) != b.ByColor(chess.Black) {
		return false
	}
	for t := chess.Pawn; t <= chess.King; t++ {
		if a.Pieces(chess.White, t)|a.Pieces(chess.Black, t) != b.Pieces(chess.White, t)|b.Pieces(chess.Black, t) {
			return false
		}
	}
	return true
}

// decodeBack is the ordered decoder from the position the decision
// before the last one left (the plies the last one added taken back,
// back > 0), over that decision's changes and the log's: the last
// decision may have published a piece still on its way (Qc7-c3 slid
// over c6, read there and on c7 emptied: Qc6 was published, and every
// later board was one nothing from it reached). The sequence must reach
// as far as the game published and leave no piece knocked off.
func (r *Reconstructor) decodeBack() (catchMatch, bool) {
	l := &r.log
	n := len(r.plies)
	if !r.backReady() {
		return catchMatch{}, false
	}
	// The board stood still showing what the decision published three
	// times as long as a move is committed: that stood, unless its
	// piece was moved on (movedOnFirst, checked below), or it left
	// changes no ply of it reads (passedUnread).
	stood := r.decisionStood() && r.passedUnread() == 0
	if stood && !r.lastLandingLeft(l.evs) {
		return catchMatch{}, false // (nothing moved on: not worth decoding)
	}
	m, ok := r.orderedBack()
	r.backMemo.key, r.backMemo.m, r.backMemo.ok = r.backKey(), m, ok
	if !ok || l.nPrev+m.n < n || m.knocked != 0 && !m.putBack {
		return catchMatch{}, false
	}
	m.back = n - l.nPrev
	r.keepSameLead(&m)
	if stood && !r.movedOnFirst(&m) {
		return catchMatch{}, false
	}
	return m, true
}

// passedUnread is, on an occupancy board, the game squares that the last
// decision's changes filled and emptied again, empty before them, that
// none of its plies moved a piece to, from or over: a piece set down
// there and taken on, which the plies published do not read (Qd4-d3-d2,
// Bxb2 and Qxb2 with both victims swapped unseen, read as Qxd5 Bxb2,
// d3 and d2 no move's).
func (r *Reconstructor) passedUnread() chess.Bitboard {
	l := &r.log
	if r.sensor != trace.Occupancy || !l.prevOK || l.nPrev > len(r.plies) {
		return 0
	}
	var filled, passed chess.Bitboard
	for i := range l.prev {
		e := &l.prev[i]
		b := e.Square.Bitboard()
		switch {
		case e.Kind == trace.On && l.prevStart.occ&b == 0:
			filled |= b
		case e.Kind == trace.Off && filled&b != 0:
			passed |= b
		}
	}
	if passed == 0 {
		return 0
	}
	return rotBB(passed, r.orient) &^ playedSquares(&r.befores[l.nPrev], r.pub[l.nPrev:], true)
}

// playedSquares is the squares moves, made from p in turn, move a piece
// from or to (moveSquares), and with over those between a move's from
// and to squares too (a slide's path).
func playedSquares(p *chess.Position, moves []chess.Move, over bool) chess.Bitboard {
	q := *p
	var sq chess.Bitboard
	for _, m := range moves {
		all, _ := moveSquares(&q, m)
		sq |= all
		if over {
			sq |= chess.Between(m.From(), m.To())
		}
		q.MakeMove(m)
	}
	return sq
}

// decisionStood reports whether the board stood still, after the last
// decision's changes, three times as long as a move is committed.
func (r *Reconstructor) decisionStood() bool {
	l := &r.log
	return len(l.prev) > 0 && len(l.evs) > 0 && l.evs[0].T-l.prev[len(l.prev)-1].T >= 3*r.timing.CommitMs
}

// backReady reports whether the last decision's changes are kept, without
// a clock, from the position it started at (decodeBack, decodeFewer).
func (r *Reconstructor) backReady() bool {
	l := &r.log
	return !r.clock && l.ok && l.prevOK && l.nPrev < len(r.plies) && len(l.prev)+len(l.evs) <= maxLogEvents && r.befores[l.nPrev].Key() == l.prevKey
}

// backKey identifies the changes orderedBack reads: the published plies
// and the hypotheses' version, the last change and how many the log holds.
func (r *Reconstructor) backKey() [4]int64 {
	return [4]int64{int64(len(r.plies)), int64(r.ver), r.lastChange, int64(len(r.log.evs))}
}

// orderedBack is the ordered decoder from the position the last decision
// started at, over its changes and the log's.
func (r *Reconstructor) orderedBack() (catchMatch, bool) {
	l := &r.log
	r.backBuf = append(append(r.backBuf[:0], l.prev...), l.evs...)
	return r.orderedOver(&r.befores[l.nPrev], r.backBuf, &l.prevStart)
}

// decodeFewer is the ordered decoder from the position the decision
// before the last one left, over that decision's changes and the log's,
// where it reads no more plies than the last decision published: that
// decision read, from changes whose order it had lost, plies that pieces
// knocked onto the next square looked like (g6, its hand knocking h7
// onto h6, and d4, e4 knocked onto e5, published as g6 e5 h6 d4), and
// the pieces put back show the board the fewer plies reach. Taken only
// where the published game is not the board and the sequence is, every
// square as the sensors tell and none excused, with no piece left
// knocked off.
func (r *Reconstructor) decodeFewer() (catchMatch, bool) {
	l := &r.log
	n := len(r.plies)
	if !r.backReady() {
		return catchMatch{}, false
	}
	var v view
	r.raw.makeView(r.orient, &v)
	// (Only where the board now shows otherwise a square the decision's
	// plies changed: else the pieces put back are not what it read, and
	// the decoding, most often of a move under way, is not worth making.)
	if v.diff(&r.lines[0].pos)&playedSquares(&r.befores[l.nPrev], r.pub[l.nPrev:], false) == 0 {
		return catchMatch{}, false
	}
	if r.decisionStood() {
		// (The board stood showing what the decision published, as
		// decodeBack asks: a piece then put back had stood out of place
		// that long, which the alert timer judges.)
		return catchMatch{}, false
	}
	m, ok := r.backMemo.m, r.backMemo.ok
	if r.backMemo.key != r.backKey() {
		m, ok = r.orderedBack()
	}
	if !ok || l.nPrev+m.n > n || m.knocked != 0 && (!m.putBack || r.stoodKnocked(m.knocked)) || v.diff(&m.pos) != 0 {
		return catchMatch{}, false
	}
	m.back = n - l.nPrev
	r.keepSameLead(&m)
	return m, true
}

// stoodKnocked reports whether the board stood still for AlertMs, among
// the changes decodeFewer reads, while a piece on a square of knocked was
// off it: put back only after it stood out of place that long, which the
// arbiter is told of (7.4.1), not a knock to read past (the black queen
// moved from f6 to f5 by White's hand after 18. Qxg7+, put back 52 s
// later as 18... Kxg7 was made).
func (r *Reconstructor) stoodKnocked(knocked chess.Bitboard) bool {
	l := &r.log
	raw := unrotBB(knocked, r.orient)
	out, last := false, int64(-1)
	for _, evs := range [2][]logEvent{l.prev, l.evs} {
		for i := range evs {
			e := &evs[i]
			if out && e.T-last >= r.timing.AlertMs {
				return true
			}
			if raw.Has(e.Square) {
				out = e.Kind == trace.Off
			}
			last = e.T
		}
	}
	return false
}

// backTwoChanges is how many changes since the published game last
// changed decodeBack2 waits for: about three plies'.
const backTwoChanges = 12

// darkChanges is how many changes since the published game last changed
// make an occupancy board without an alert dark enough for decodeBack2
// (24 plies of a bullet game went unpublished after two knocks, the
// board never still for the alert timer).
const darkChanges = 2 * backTwoChanges

// decodeBack2 is decodeBack from before the decision before the last,
// over its changes, the last decision's and the log's, on a colour or
// piece board whose game nothing reaches any more, or an occupancy board
// with an alert standing (inTrouble): a decision two back
// may have published a ply wrong that the next one built on (76...
// Qf4-f2, 77. Re3-e2, 77... Qf2-f3 read as 76... Qf3 with the rook
// knocked, then 78. Rc3: nothing was published for 73 plies). The
// sequence must reach beyond the game published (decode asks two plies)
// and leave no piece knocked off.
func (r *Reconstructor) decodeBack2() (catchMatch, bool) {
	l := &r.log
	n := len(r.plies)
	// (Only once the board has gone on a few plies with nothing
	// published: decode fails on most changes in the middle of a move,
	// and reading three decisions' changes each time cost the replay 8%.)
	if len(l.evs) < backTwoChanges || r.clock || r.sensor == trace.Occupancy && !r.inTrouble() && len(l.evs) < darkChanges || !l.ok || !l.prevOK || !l.prev2OK || l.nPrev2 >= l.nPrev || l.nPrev > n ||
		len(l.prev2)+len(l.prev)+len(l.evs) > maxLogEvents || r.befores[l.nPrev2].Key() != l.prev2Key {
		return catchMatch{}, false
	}
	r.backBuf = append(append(append(r.backBuf[:0], l.prev2...), l.prev...), l.evs...)
	m, ok := r.orderedOver(&r.befores[l.nPrev2], r.backBuf, &l.prev2Start)
	if !ok || l.nPrev2+m.n <= n || m.knocked != 0 {
		return catchMatch{}, false
	}
	m.back = n - l.nPrev2
	r.keepSameLead(&m)
	// (Not a ply amended onto a square its piece then leaves for the
	// published landing, read there first: a knock put back read as two
	// moves, 35. Ra7 read Ra6 and Ra6-a7 when the replying hand knocked
	// the rook onto a6.)
	if pm, am := r.plies[n-m.back].move, m.moves[0]; am != pm && am.From() == pm.From() && r.firstOnIn(r.backBuf, pm.To()) < r.firstOnIn(r.backBuf, am.To()) {
		for _, mv := range m.moves[1:m.n] {
			if mv.From() == am.To() && mv.To() == pm.To() {
				return catchMatch{}, false
			}
		}
	}
	return m, true
}

// inTrouble reports whether an alert stands: pieces out of place, or an
// illegal move.
func (r *Reconstructor) inTrouble() bool {
	return r.overlay&^r.silent != 0 || r.state == stateIrregular
}

// firstOnIn is the index of the first change among evs that fills game
// square s (len(evs) if none).
func (r *Reconstructor) firstOnIn(evs []logEvent, s chess.Square) int {
	raw := unrotSquare(s, r.orient)
	for i := range evs {
		if evs[i].Square == raw && evs[i].Kind == trace.On {
			return i
		}
	}
	return len(evs)
}

// keepSameLead drops from m, a reading that takes back m.back published
// plies, the plies it reads again alike: they are not taken back.
func (r *Reconstructor) keepSameLead(m *catchMatch) {
	n := len(r.plies)
	for m.back > 1 && m.moves[0] == r.plies[n-m.back].move {
		copy(m.moves[:], m.moves[1:m.n])
		m.n, m.back, m.knockAt = m.n-1, m.back-1, m.knockAt-1
	}
}

// moverOnly reports whether every change since the published game last
// changed, as the sensors tell, was of a piece of the player who made
// its last ply: that hand going on, no reply begun (a slide paused, or a
// piece let go and taken on). An amendment with no ply added is read so
// only then: after a reply, a piece knocked onto the next square looks
// the same (Ra7, a6, the rook knocked onto b7 was read Rcb7).
func (r *Reconstructor) moverOnly() bool {
	if len(r.plies) == 0 {
		return false
	}
	white := r.lines[0].pos.SideToMove() == chess.Black // the last ply's side
	pb := r.log.start
	for i := range r.log.evs {
		e := &r.log.evs[i]
		b := e.Square.Bitboard()
		switch {
		case e.Kind == trace.On && (!e.HasColour || (e.Piece.Color() == chess.White) != white):
			return false
		case e.Kind == trace.Off && (pb.colourKnown&b == 0 || (pb.white&b != 0) != white):
			return false
		}
		pb.apply(e)
	}
	return true
}

// adoptBack publishes b, decodeBack's sequence, read again from the same
// position next time (reread).
func (r *Reconstructor) adoptBack(b *catchMatch, t int64, out []Output) []Output {
	r.log.reread = true
	out = r.adoptCatch([]catchMatch{*b}, 0, t, out)
	r.log.reread = false
	return out
}

// movedOnFirst reports whether b, decodeBack's sequence, amends the last
// published ply to a move of the same piece to another square (and may
// go on), and the log shows that piece lifted from where it was
// published and set down there before any other square changed: the
// piece let go and moved on (Art. 4.7 forbids it, the board cannot tell
// it from a piece held), then the reply if any. A piece the replying
// hand knocks comes after that hand's first change (Ra7, a6, the rook
// knocked onto b7), so it is not read so. It also serves occupancy
// boards, where moverOnly cannot tell whose piece was set down, for a
// piece moved on that nothing followed (44. Bh8 let go, then Bf8 as the
// input ended, had stayed Bh8).
func (r *Reconstructor) movedOnFirst(b *catchMatch) bool {
	n := len(r.plies)
	if b.back != 1 || b.n < 1 || n == 0 {
		return false
	}
	pm, m0 := r.plies[n-1].move, b.moves[0]
	if m0 == pm || m0.From() != pm.From() || !plainMove(pm) || !plainMove(m0) {
		return false
	}
	x, y := unrotSquare(pm.To(), r.orient), unrotSquare(m0.To(), r.orient)
	// A capture there: its victim seen taken off as the piece moved on
	// (not a square emptied long before, a piece put back on it then).
	capture := r.befores[n-1].PieceAt(m0.To()) != chess.NoPiece
	way := movedOnWay(pm, m0)
	evs := r.backBuf
	// The last filling of y, and a filling of x before it, the landing
	// published; between them and until x is read emptied (a slide reads
	// y filled first), nothing changed off the piece's way.
	jy := len(evs) - 1
	for jy >= 0 && !(evs[jy].Square == y && evs[jy].Kind == trace.On) {
		jy--
	}
	lastBefore := func(k int, s chess.Square, kind trace.Kind) int {
		for k--; k >= 0 && !(evs[k].Square == s && evs[k].Kind == kind); k-- {
		}
		return k
	}
	// From the last filling of x before y's, or, a victim on x put back
	// after the piece left it, the one before x's last emptying, after
	// the piece's own square emptied (not a victim's flicker on x).
	fromOff := lastBefore(jy, unrotSquare(pm.From(), r.orient), trace.Off)
	second := lastBefore(max(lastBefore(jy, x, trace.Off), 0), x, trace.On)
	// A slider gone on along its line from the pause (Be3-c1 paused 616
	// ms on d2): the reply's pieces may be read lifted before it is read
	// gone on, a sweep late (f8 read lifted 23 ms before c1 filled). No
	// knock sends a piece on along the line it came by.
	var replier chess.Bitboard
	if r.sensor != trace.Occupancy && slidOnLine(r.befores[n-1].PieceAt(pm.From()).Type(), pm.From(), pm.To(), m0.To()) {
		after := r.befores[n-1]
		after.MakeMove(pm)
		replier = after.ByColor(after.SideToMove())
	}
	for k, jl := range [2]int{lastBefore(jy, x, trace.On), second} {
		if jl < 0 || jy < 0 || k == 1 && jl < fromOff {
			continue
		}
		lifted, j, victim := int64(-1), jl+1, !capture
		for ; j < len(evs) && (way.Has(rotSquare(evs[j].Square, r.orient)) || j < jy && evs[j].Kind == trace.Off && replier.Has(rotSquare(evs[j].Square, r.orient))); j++ {
			if evs[j].Square == x && evs[j].Kind == trace.Off && lifted < 0 {
				lifted = evs[j].T
			}
			victim = victim || j < jy && evs[j].Square == y && evs[j].Kind == trace.Off
		}
		if lifted >= 0 && victim && j > jy && handLeft(evs, j, jy, lifted-evs[jl].T, x, y) {
			return true
		}
	}
	return false
}

// lastLandingLeft reports whether evs empty the square the last
// published ply landed on.
func (r *Reconstructor) lastLandingLeft(evs []logEvent) bool {
	x := unrotSquare(r.plies[len(r.plies)-1].move.To(), r.orient)
	for i := range evs {
		if evs[i].Square == x && evs[i].Kind == trace.Off {
			return true
		}
	}
	return false
}

// plainMove reports whether m is no castling, promotion or en passant
// capture: one piece from one square to another (movedOnFirst).
func plainMove(m chess.Move) bool {
	return !m.IsCastling() && !m.IsPromotion() && !m.IsEnPassant()
}

// landsWithin reports whether raw square y is read filled among the
// changes after change k, within a sweep of it: change k, off the way of
// a piece gone on to y, was read in the sweep before it landed.
func (r *Reconstructor) landsWithin(evs []logEvent, k int, y chess.Square) bool {
	for j := k + 1; j < len(evs) && evs[j].T-evs[k].T <= r.sweepMs(); j++ {
		if evs[j].Square == y && evs[j].Kind == trace.On {
			return true
		}
	}
	return false
}

// movedOnWay is the squares a hand carrying the piece of pm, published,
// on to m0's square may be read on: both landings, the squares between
// them and between the piece's own square and m0's, and its own square
// (a slide reads the landing filled first).
func movedOnWay(pm, m0 chess.Move) chess.Bitboard {
	return pm.From().Bitboard() | pm.To().Bitboard() | m0.To().Bitboard() | chess.Between(pm.To(), m0.To()) | chess.Between(pm.From(), m0.To())
}

// knockReplyMs: the replying hand that knocks a piece over lifts its own
// sooner than this after (112-136 ms in the seventeenth set; a piece
// moved on was answered 183 ms after it was set down in the sixteenth).
const knockReplyMs = 150

// handLeft reports whether the change after a piece moved on from raw
// square x to y, evs[j] if any, came knockReplyMs or more after it
// was set down (evs[jy]; x may be read emptied later, a slide), when it
// had stood (stand ms) longer than a touch-down and went next door: a
// hand moving its piece on withdraws before the other player's begins,
// while the replying hand that knocks the piece over, onto the next
// square, lifts its own at once (the queen knocked from f2 onto e2 1.6 s
// after it landed, g4 lifted 56 ms after). A slide's pause goes on
// before the other hand can reach it; a piece carried further is no
// knock (a piece board's sweep may read the reply's lift 70 ms after).
func handLeft(evs []logEvent, j, jy int, stand int64, x, y chess.Square) bool {
	return j >= len(evs) || stand < maxTouchMs || !chess.KingAttacks(x).Has(y) || evs[j].T-evs[jy].T >= knockReplyMs
}

// movedOnDirect is movedOnFirst's reading from the log since the
// published game last changed alone, where decodeBack reads nothing: the
// last ply's piece lifted from where it landed and set down on another
// square its move could have reached, nothing else changed meanwhile,
// then the plies the changes after show (decoded from there). A piece
// moved on a second time (Be7-d6 amended to Bg5 after a second's stand,
// then moved on to f6) is read so: decodeBack, from before the ply,
// cannot take two stands of a second for touch-downs.
func (r *Reconstructor) movedOnDirect() (catchMatch, bool) {
	l := &r.log
	n := len(r.plies)
	if r.clock || !l.ok || n == 0 || len(l.evs) < 2 || len(r.lines) == 0 || !r.lastLandingLeft(l.evs) {
		return catchMatch{}, false
	}
	pm, pb := r.plies[n-1].move, &r.befores[n-1]
	if !plainMove(pm) {
		return catchMatch{}, false
	}
	x := unrotSquare(pm.To(), r.orient)
	evs := l.evs
	// (Not r.legal: the decoder below uses its cache.)
	var ml chess.MoveList
	pb.GenerateLegal(&ml)
	for _, m0 := range ml.Moves() {
		if m0.From() != pm.From() || m0 == pm || !plainMove(m0) {
			continue
		}
		y := unrotSquare(m0.To(), r.orient)
		way := movedOnWay(pm, m0)
		// A slider gone on along its line: the reply's changes may be read
		// within the sweep before its landing (Be7-b4 over c5, e2-e3 read
		// 24-61 ms before b4): kept aside, decoded after it (early).
		slidOn := r.sensor != trace.Occupancy && slidOnLine(pb.PieceAt(pm.From()).Type(), pm.From(), pm.To(), m0.To())
		var early chess.Bitboard // raw squares of changes kept aside
		nEarly := 0
		lifted, jy, k, victim := int64(-1), -1, 0, pb.PieceAt(m0.To()) == chess.NoPiece
		for ; k < len(evs); k++ {
			if !way.Has(rotSquare(evs[k].Square, r.orient)) {
				if !slidOn || jy >= 0 || lifted < 0 || nEarly == 4 || !r.landsWithin(evs, k, y) {
					break
				}
				early |= evs[k].Square.Bitboard()
				nEarly++
				continue
			}
			if early.Has(evs[k].Square) || slidOn && jy >= 0 && evs[k].Kind == trace.On {
				// (After the landing a square on the way filled is
				// another piece's: ...d6 after Bb4.)
				break
			}
			switch {
			case evs[k].Square == x && evs[k].Kind == trace.Off && lifted < 0:
				lifted = evs[k].T
			case evs[k].Square == y && evs[k].Kind == trace.On:
				jy = k
			case evs[k].Square == y && evs[k].Kind == trace.Off && jy < 0:
				victim = true
			}
		}
		if lifted < 0 || jy < 0 || !victim || !handLeft(evs, k, jy, lifted-r.plies[n-1].t, x, y) {
			continue
		}
		q := *pb
		q.MakeMove(m0)
		m := catchMatch{back: 1, n: 1, pos: q}
		m.moves[0] = m0
		if nEarly > 0 && k == len(evs) {
			continue // (the reply's changes kept aside need decoding)
		}
		if k < len(evs) {
			// The plies after, from the board the piece's hand left.
			start := l.start
			rest := evs[k:]
			if nEarly > 0 {
				r.earlyBuf = r.earlyBuf[:0]
				for j := range evs[:k] {
					if early.Has(evs[j].Square) {
						r.earlyBuf = append(r.earlyBuf, evs[j])
					} else {
						start.apply(&evs[j])
					}
				}
				rest = append(r.earlyBuf, evs[k:]...)
				r.earlyBuf = rest
			} else {
				for j := range evs[:k] {
					start.apply(&evs[j])
				}
			}
			d, ok := r.orderedOver(&q, rest, &start)
			if !ok || d.knocked != 0 || 1+d.n > maxDecodePlies || putBackLater(m0, pm, d.moves[:d.n]) {
				continue
			}
			copy(m.moves[1:], d.moves[:d.n])
			m.n, m.pos = 1+d.n, d.pos
		} else if r.v.diff(&q) != 0 {
			continue
		}
		return m, true
	}
	return catchMatch{}, false
}

// putBackLater reports whether moves, after m0 (which replaced pm),
// take m0's piece back to pm's square: a piece the replying hand knocked
// from pm's landing onto m0's and put back after the reply, not a piece
// moved on.
func putBackLater(m0, pm chess.Move, moves []chess.Move) bool {
	for i := 1; i < len(moves); i += 2 {
		if moves[i].From() == m0.To() && moves[i].To() == pm.To() {
			return true
		}
	}
	return false
}

// decodeOrdered is decodeLog's sequence, found first with every reply
// begun minReadyReplyMs or more after the move before, else without a
// clock with replies begun sooner (a hand already over its piece as the
// move landed, in bullet play): a guess is better than a board gone dark.
func (r *Reconstructor) decodeOrdered() (catchMatch, bool) {
	if !r.log.ok || len(r.log.evs) == 0 || len(r.lines) == 0 {
		return catchMatch{}, false
	}
	return r.orderedFrom(&r.lines[0].pos)
}

// orderedOver is orderedFrom over changes evs, made from raw board pb,
// in place of the log's (decodeBack, movedOnDirect).
func (r *Reconstructor) orderedOver(start *chess.Position, evs []logEvent, pb *physBoard) (catchMatch, bool) {
	l := &r.log
	saved, savedStart := l.evs, l.start
	l.evs, l.start = evs, *pb
	m, ok := r.orderedFrom(start)
	l.evs, l.start = saved, savedStart
	return m, ok
}

// orderedFrom is decodeOrdered from position start.
func (r *Reconstructor) orderedFrom(start *chess.Position) (catchMatch, bool) {
	m, ok, met := r.decodeFrom(start, minReadyReplyMs, nil)
	if !ok && !r.clock && met {
		m, ok, _ = r.decodeFrom(start, 0, nil)
	}
	return m, ok
}

// liftedAt is when game square s was last emptied before change i
// (lastLift); the time of change i if it was not.
func (ds *decodeState) liftedAt(first, i int, s chess.Square) int64 {
	if j := ds.lastLift(first, i, s); j >= 0 {
		return ds.r.log.evs[j].T
	}
	return ds.r.log.evs[i].T
}

// lastLift is the index of the change that last emptied game square s
// before change i, if its piece is still off: among changes first..i-1,
// or before them when it was lifted as the move before landed, at most a
// sweep before (readEarly). -1: none.
func (ds *decodeState) lastLift(first, i int, s chess.Square) int {
	evs := ds.r.log.evs
	if j := ds.lastChange(0, i, s); j >= 0 && evs[j].Kind == trace.Off && (j >= first || evs[first-1].T-evs[j].T <= ds.r.sweepMs()) {
		return j
	}
	return -1
}

// search replays the changes from i on, with p the position decoded so
// far, pb the board before change i, prevT when the move before was
// completed (-1: none decoded) and prevLand where it landed. A move is
// taken only if its first change came minReadyReplyMs or more after the
// move before, and, when its piece stood next to that landing (a
// recapture there aside) and it came sooner than knockMs, only if it was
// carried (minQuickCarryMs from lift to landing): pushed faster, it is
// the mover's hand knocking a piece.
//
// On occupancy boards knocked (game squares) holds pieces taken to be
// knocked off the board, still standing in p, until a change fills their
// square again (put back). A piece next to where the move before landed,
// emptied sooner after that landing than knockMs, may be one: when the
// changes cannot be decoded with it lifted for a move, they are decoded
// again with it knocked (a hand knocks a piece next to where it sets its
// own down, and puts it back a second or two later, while the game goes
// on).
func (ds *decodeState) search(i int, p chess.Position, pb physBoard, prevT int64, prevLand chess.Square, knocked chess.Bitboard) {
	r := ds.r
	evs := r.log.evs
	first := i
	type knock struct {
		i  int
		pb physBoard
		sq chess.Square
		at int // the moves decoded before the one whose hand knocked it
		// far: two squares off the piece in the hand, where only the
		// move taken with it can show that hand passed.
		far bool
	}
	var knocks [2]knock
	nk := 0
	// Moves pushed next door too fast for a hand (rankPushed), tried
	// only when waiting past them finds nothing: a knock as likely.
	type pushedFit struct {
		i       int
		m       chess.Move
		quick   bool
		pb      physBoard
		knocked chess.Bitboard
	}
	var pushes [2]pushedFit
	np := 0
	// steps: a pawn's single step from its first rank read as a slide,
	// the double step legal, and on occupancy boards captures taken at
	// their piece's lift: tried after waiting finds nothing (a piece board read f7-f5 slid over f6, gxf6 e.p.
	// 225 ms later: f6 gxf6 was published, the same position).
	var steps [4]pushedFit
	ns := 0
	if r.sensor == trace.Occupancy && ds.n > 0 && i > 0 && knocked == 0 && ds.n < maxDecodePlies && ds.pushedOffEarly(i, &p, pb) {
		return
	}
	begun := int64(-1) // the first change since the move before, touches aside
	// touched: squares whose piece was lifted and put back since the move
	// before: a move that explains the lift comes before one that leaves
	// it a touch (O-O-O, king d1 to c1 and rook a1 to d1, before Rc1 with
	// the king lifted and put back).
	var touched chess.Bitboard
	// inHand: the squares read emptied since the move before, and when
	// the last was: the hand of the move under way may knock a piece
	// next to where it lifted its own (4. Qc2, c1 knocked off as the
	// queen left d1, read before c2 was read filled).
	var inHand chess.Bitboard
	var inHandT int64
	for ; i < len(evs); i++ {
		ds.nodes++
		ds.r.spent++
		if ds.over() {
			return
		}
		if begun < 0 && !ds.touch[i] {
			begun = evs[i].T
		}
		if ds.touch[i] && evs[i].Kind == trace.Off {
			touched |= rotSquare(evs[i].Square, r.orient).Bitboard()
		}
		pb.apply(&evs[i])
		var v view
		ds.view(&pb, &p, &v)
		if ds.stray {
			v.drop(ds.astray[i] &^ p.Occupied())
		}
		if knocked != 0 {
			if gs := rotSquare(evs[i].Square, r.orient); evs[i].Kind == trace.On && knocked.Has(gs) {
				knocked &^= gs.Bitboard() // put back
			}
			// (Standing as it stood: only its square's occupancy is
			// compared.)
			v.occ |= knocked
			v.colourKnown &^= knocked
			v.pieceKnown &^= knocked
		}
		if gs := rotSquare(evs[i].Square, r.orient); (r.sensor == trace.Occupancy || r.decodeLeft) && evs[i].Kind == trace.Off && !knocked.More() && nk < len(knocks) && p.PieceAt(gs) != chess.NoPiece {
			switch {
			case prevT >= 0 && evs[i].T-prevT < ds.knockWindow() && ds.knockReach(prevLand).Has(gs):
				knocks[nk] = knock{i: i, pb: pb, sq: gs, at: ds.n - 1}
				nk++
			case r.decodeLeft && inHandT > 0 && evs[i].T-inHandT < knockMs && around(around(inHand&^gs.Bitboard())).Has(gs):
				// (Two squares off the lifted piece, the hand carrying it
				// passing next to them, when the move taken bears it out:
				// d2 knocked as the bishop went f1-b5 over e2.)
				knocks[nk] = knock{i: i, pb: pb, sq: gs, at: ds.n, far: !around(inHand &^ gs.Bitboard()).Has(gs)}
				nk++
			}
		}
		if evs[i].Kind == trace.Off && !ds.touch[i] {
			inHand |= rotSquare(evs[i].Square, r.orient).Bitboard()
			inHandT = evs[i].T
		}
		away := ds.away[i]
		if vp := v; ds.n == maxDecodePlies || prevT >= 0 && begun >= 0 && begun-prevT < ds.ready-ds.r.landReadLag() {
			ds.readyMet = ds.readyMet || begun-prevT >= -ds.r.landReadLag()
			continue
		} else if vp.occ |= away & p.Occupied(); vp.diff(&p) == 0 {
			// Nothing to take, but a castling that changes no square.
			if m, ok := ds.swapCastling(first, i, &p); ok && ds.take(i, &p, m, false, false, pb, knocked) {
				return
			}
			continue
		}
		// A move whose position the board shows now may be taken here, or
		// its piece may still be on its way (waiting, the loop).
		var ml chess.MoveList
		p.GenerateLegal(&ml)
		// The moves that fit, in the order they are tried: on occupancy
		// boards a capture whose victim nobody saw leave after those
		// whose victim was, and among those the capture a player would
		// have chosen first (capturePrior: the board cannot tell them
		// apart, and the first sequence found is taken).
		var fit [16]chess.Move
		var rank [16]int
		var falls [16]chess.Bitboard
		nf := 0
		// liftedBack: on occupancy boards, squares lifted since the move
		// before and filled again as the game has them: a move that
		// lifted there comes before one that leaves them a touch (a
		// Chess960 O-O-O, king d1 to c1 and rook a1 to d1, before Rc1
		// with the king touched).
		var liftedBack chess.Bitboard
		if r.sensor == trace.Occupancy {
			liftedBack = inHand & v.occ & p.Occupied()
		}
		for _, m := range ml.Moves() {
			if !ds.allowed(m, 0) {
				continue
			}
			k, unseenLift := 0, false
			if m.IsPromotion() && m.Promotion() != r.promoExpect(&p, m, i+1) {
				if r.sensor != trace.PieceSensor {
					continue
				}
				// A piece board reads the piece set down, but one taken
				// at once may never be read: then the input's choice (or
				// the queen) comes first (f1=N chosen and taken by Rxf1
				// within a sweep was published as f1=Q).
				k = 1
			}
			var fell chess.Bitboard
			occ := p.OccupancyAfter(m)
			// (A square an alert named out of place, m's and changed
			// since the move before, shows what the game has there after
			// m too: accepted either way, it does not keep its piece from
			// moving, dxc5 from d4 held as knocked. Unchanged, it shows
			// no move: Nf5 onto a pawn knocked there and left.)
			vo := v.occ
			if ds.ex != 0 {
				for b := ds.ex & (m.From().Bitboard() | m.To().Bitboard()); b != 0; b &= b - 1 {
					if sq := b.First(); ds.lastChange(first, i+1, sq) >= 0 {
						vo = vo&^sq.Bitboard() | occ&sq.Bitboard()
					}
				}
			}
			if occ != vo|away&occ&(p.Occupied()|ds.landedSq) && (r.sensor == trace.Occupancy && !ds.liftedEarly(first, i, &p, p.SideToMove().Other(), m, occ&^vo, vo&^occ) || r.sensor != trace.Occupancy && !oneEarly(vo&^occ, occ&^(vo|away)) && !liftedTwo(vo&^occ, occ&^(vo|away))) {
				// (On colour and piece boards one square of the position
				// after m seen empty may be the reply's piece lifted
				// early, or one seen filled its piece on its way:
				// readEarly, below.) Or, on occupancy boards, a
				// piece next to where it lands emptied within knockMs of
				// its landing (this change, a piece set down), none of its
				// squares: its hand knocked that piece off (put back
				// later), and m is made.
				if fell = occ &^ vo; r.sensor != trace.Occupancy || knocked != 0 || vo&^occ != 0 || fell.More() ||
					evs[i].Kind != trace.On || !ds.knockedNear(first, i, &p, m, fell.First()) || castlingRookMove(&p, m, fell) {
					continue
				}
				k += 3000 // after the readings without a knock
			}
			if !m.IsCastling() && m.From() == p.KingSquare(p.SideToMove()) && p.Castling()&castleRights(p.SideToMove()) != 0 {
				// A castling that shows as this king move (a Chess960
				// king onto its rook's square, the rook lifted and put
				// down next to it) is tried first: the rook's lift is
				// its, not a touch (Kd8 was published for O-O-O).
				k++
			}
			if all, _ := moveSquares(&p, m); (touched|liftedBack)&^all != 0 {
				k++
			}
			if r.sensor == trace.Occupancy {
				ends, unseen := ds.endsMove(first, i, &p, m)
				if !ends || ds.landedLongBefore(first, i, m) {
					continue
				}
				if unseen {
					k += 1000 + r.capturePrior(&p, m, prevLand)
				}
				unseenLift = unseen && evs[i].Kind == trace.Off
			} else if all, _ := moveSquares(&p, m); !all.Has(rotSquare(evs[i].Square, r.orient)) && !ds.touch[i] && !ds.slidPast(i, &p, m) && !ds.touchDownLeft(first, i, &p, m) {
				// A move is done at a change of its own squares (or at a
				// piece put back, which completes what the board shows, or
				// its slid piece leaving a square on its way), not at
				// another piece's knock that happens to show it.
				continue
			}
			if ds.noSlidOn && ds.slidOnTwo(first, &p, m) {
				continue
			}
			if prevT >= 0 && begun >= 0 && begun-prevT < knockMs && chess.KingAttacks(prevLand).Has(m.From()) && m.To() != prevLand &&
				chess.KingAttacks(m.From()).Has(m.To()) && evs[i].T-ds.liftedAt(first, i, m.From()) < minQuickCarryMs && !unseenLift {
				// Pushed to the next square faster than a hand carries a
				// piece: a knock. (Not a capture nobody saw land, taken at
				// its piece's lift: its carry was not seen, and the later
				// changes prove it. Nor a piece set down farther away: no
				// knock sends it there.) On colour and piece boards tried
				// last, as a move the later changes must bear out (4. Ba4
				// read 48 ms after b5 emptied, 227 ms after a6 landed,
				// the game going on at 0.3 s a ply).
				if r.sensor == trace.Occupancy {
					continue
				}
				k += rankPushed
			}
			q := p
			q.MakeMove(m)
			w := v
			w.occ = vo
			if fell|away != 0 {
				w.occ |= fell | away&q.Occupied()&(p.Occupied()|ds.landedSq)
			}
			if d := w.diff(&q); d != 0 && !ds.readEarly(first, i, m, &q, d, prevLand) {
				continue
			}
			if nf == len(fit) {
				continue
			}
			j := nf
			for ; j > 0 && rank[j-1] > k; j-- {
				fit[j], rank[j], falls[j] = fit[j-1], rank[j-1], falls[j-1]
			}
			fit[j], rank[j], falls[j] = m, k, fell
			nf++
		}
		for f, m := range fit[:nf] {
			// Sooner than a reply is ready, from next to where the move
			// before landed (a recapture there aside, en passant too: no
			// knock takes the pawn that just stepped and lands behind
			// it): that hand may have knocked the piece there, unless
			// the game went on.
			quick := prevT >= 0 && begun >= 0 && begun-prevT < minReadyReplyMs && chess.KingAttacks(prevLand).Has(m.From()) && m.To() != prevLand &&
				!(m.IsEnPassant() && m.To()^8 == prevLand)
			if rank[f] >= rankPushed {
				if np < len(pushes) {
					pushes[np] = pushedFit{i, m, quick, pb, knocked | falls[f]}
					np++
				}
				continue
			}
			if ds.slidStep(first, i, &p, m) || r.sensor == trace.Occupancy && evs[i].Kind == trace.Off && rotSquare(evs[i].Square, r.orient) == m.From() && p.PieceAt(m.To()) != chess.NoPiece ||
				ds.touchedDownOnWay(i, &p, m) {
				// (And a capture nobody saw land, taken at its piece's
				// lift: only if waiting explains nothing. 19. Bxe6, d5
				// lifted, the bishop taken off e6 and d5's piece set
				// there, was read as 19. Bxb7 pushed off and the e6
				// bishop lifted and put back.)
				if ns < len(steps) {
					steps[ns] = pushedFit{i, m, quick, pb, knocked | falls[f]}
					ns++
				}
				continue
			}
			if ds.take(i, &p, m, quick, false, pb, knocked|falls[f]) {
				return
			}
		}
		if nf == 0 && r.sensor != trace.Occupancy && ds.n+2 <= maxDecodePlies {
			if ds.recaptured(first, i, &p, &ml, &v, away, pb, knocked) || ds.liftReadLast(first, i, &p, &ml, &v, away, pb, knocked) ||
				ds.landedLate(first, i, &p, &ml, &v, away, pb, knocked) {
				return
			}
		}
	}
	var v view
	ds.view(&pb, &p, &v)
	if ds.stray && r.decodeLeft && r.sensor == trace.Occupancy && len(evs) > 0 {
		// A piece knocked onto the next square and left there, on a board
		// still for the alert timer: the moves are made, and the piece is
		// out of place (...Nc4's hand knocking the c5 rook onto b6, then
		// Rd3: the last three plies were never published).
		w := v
		v.occ |= ds.away[len(evs)-1] & p.Occupied()
		v.drop(ds.astray[len(evs)-1] &^ p.Occupied())
		ds.leftUsed = w.occ != v.occ
	}
	// (Back where the published game is only after plies that came back
	// to it: a repetition.)
	if knocked == 0 && v.diff(&p) == 0 && (v.diff(ds.start) != 0 || ds.n > 0) && (ds.n == 0 || !ds.quick[ds.n-1] && !ds.pushedLate() || ds.liftAfterQuick(&p)) && ds.complete() && !ds.inHandLast() && !ds.liftRefilled() {
		ds.found, ds.end = true, p
		return
	}
	if knocked == 0 && ds.n > 0 && ds.complete() && ds.capturerInHand(&p, &v) {
		ds.found, ds.end, ds.inHand = true, p, true
		return
	}
	if knocked == 0 && ds.complete() && ds.replyInHand(&p, &v) {
		ds.found, ds.end, ds.handLate = true, p, true
		return
	}
	if knocked != 0 && r.decodeLeft && ds.n > 0 && v.occ&knocked == 0 && v.diff(&p) == knocked && ds.complete() &&
		(ds.knockAt >= 0 && (!ds.knockFar || ds.knockAt < ds.n && handNear(ds.seq[ds.knockAt]).Has(ds.knockSq)) || ds.knockFirst) {
		// Knocked off as the last move landed and never put back, on a
		// board still for the alert timer: the moves are made, and the
		// piece is out of place (Nf3, its hand knocking the h2 pawn off
		// the board, the moves fast before it: nothing was published).
		ds.found, ds.end, ds.leftOff = true, p, true
		return
	}
	for _, k := range knocks[:nk] {
		// (The next move's first change comes after the knock.)
		ds.knockAt, ds.knockSq, ds.knockFar = k.at, k.sq, k.far
		ds.search(k.i+1, p, k.pb, prevT, prevLand, k.sq.Bitboard())
		if ds.found || ds.over() {
			return
		}
		ds.knockAt, ds.knockFar = -1, false
	}
	for _, f := range steps[:ns] {
		if ds.take(f.i, &p, f.m, f.quick, false, f.pb, f.knocked) {
			return
		}
	}
	for _, f := range pushes[:np] {
		if ds.take(f.i, &p, f.m, f.quick, true, f.pb, f.knocked) {
			return
		}
	}
}

// knockedFirst searches, on the left-off readings (decodeLeft) of an
// occupancy board and before any other reading, with a piece knocked by
// the hand of the published game's last ply: one emptied within knockMs
// of that ply's landing, where that hand passed or let go (not the ply's
// own squares), before the log began or by its first change. The log
// begins at the reply's first lift, which
// published the move, so the search never weighs that lift as a knock
// (4. Bxc6, the a6 pawn knocked off as the bishop left b5, then 4...
// dxc6 and the game on: nothing past 4. Bxc6 was published, End too).
func (ds *decodeState) knockedFirst(start *chess.Position, pb physBoard) {
	r := ds.r
	evs := r.log.evs
	n := len(r.plies)
	if !r.decodeLeft || r.sensor != trace.Occupancy || n == 0 || len(evs) < 2 || start.Key() != r.lines[0].pos.Key() {
		return
	}
	last := &r.plies[n-1]
	own, _ := moveSquares(&r.befores[n-1], last.move)
	knockedAt := func(raw chess.Square, t int64) (chess.Square, bool) {
		gs := rotSquare(raw, r.orient)
		return gs, t >= last.t && t-last.t < knockMs && handNear(last.move).Has(gs) && !own.Has(gs) && start.PieceAt(gs) != chess.NoPiece
	}
	try := func(i int, pb physBoard, gs chess.Square) bool {
		ds.nodes, ds.n = 0, 0
		ds.knockFirst, ds.knockSq = true, gs
		ds.search(i, *start, pb, -1, chess.NoSquare, gs.Bitboard())
		ds.knockFirst = ds.found
		return ds.found
	}
	// (Or emptied before the log began, the reply's first lift being
	// the victim's: b7 knocked off as 4. Bxc6 landed, then c6 emptied
	// for 4... dxc6.)
	var v view
	ds.view(&pb, start, &v)
	for b := start.Occupied() &^ v.occ &^ ds.ex; b != 0; b &= b - 1 {
		gs := b.First()
		raw := unrotSquare(gs, r.orient)
		if _, ok := knockedAt(raw, r.changedAt[raw]); ok && try(0, pb, gs) {
			return
		}
	}
	if evs[0].Kind != trace.Off {
		return
	}
	if gs, ok := knockedAt(evs[0].Square, evs[0].T); ok {
		pb.apply(&evs[0])
		try(1, pb, gs)
	}
}

// slidStep reports whether change i, the square of a pawn emptied after
// the square in front of it was read filled among changes first..i-1 (a
// slide), completes m, that pawn's single step from its first rank, with
// its double step legal from p: the pawn may be sliding on.
func (ds *decodeState) slidStep(first, i int, p *chess.Position, m chess.Move) bool {
	r := ds.r
	evs := r.log.evs
	pc := p.PieceAt(m.From())
	if pc.Type() != chess.Pawn || evs[i].Kind != trace.Off || rotSquare(evs[i].Square, r.orient) != m.From() {
		return false
	}
	two, ok := r.doubleStep(p, m)
	if !ok {
		return false
	}
	j := ds.lastChange(first, i, m.To())
	from, t := j+1, int64(0)
	switch {
	case j >= 0 && evs[j].Kind == trace.On:
		t = evs[j].T
	case j < 0 && first == 0 && ds.start.PieceAt(m.To()) == chess.NoPiece && r.log.start.occ.Has(unrotSquare(m.To(), r.orient)):
		// Read filled before the change that began the log (the reply's
		// lift that published the move before, d6 read 31 ms before d7
		// emptied): timed from the log's first change.
		from, t = 0, evs[0].T
	default:
		return false
	}
	// (And the double step's square read filled next, by a pawn of its
	// colour as far as the sensor tells, within a slide's step and a
	// sweep of the first: a pawn only read in the sweep's order, a2-a3,
	// is no slide.)
	raw2 := unrotSquare(two, r.orient)
	for k := from; k < len(evs) && evs[k].T-t <= slideStepMs+r.sweepMs(); k++ {
		if e := &evs[k]; e.Square == raw2 && e.Kind == trace.On {
			return !e.HasColour || e.Piece.Color() == pc.Color() && (!e.HasPieces || e.Piece == pc)
		}
	}
	return false
}

// doubleStep is the square of the double step of the piece m moves one
// square, when that double step, over m's landing, is legal from p (a
// pawn's from its first rank).
func (r *Reconstructor) doubleStep(p *chess.Position, m chess.Move) (chess.Square, bool) {
	two := m.To() + (m.To() - m.From())
	if two < 0 || two > 63 || !chess.Between(m.From(), two).Has(m.To()) || !r.legal(p).Contains(chess.NewMove(m.From(), two)) {
		return chess.NoSquare, false
	}
	return two, true
}

// slidOn reports whether the sequence found takes a pawn's single step
// its pawn went on from (slidOnTwo).
func (ds *decodeState) slidOn() bool {
	p := *ds.start
	for k, m := range ds.seq[:ds.n] {
		first := 0
		if k > 0 {
			first = int(ds.takenAt[k-1]) + 1
		}
		if ds.slidOnTwo(first, &p, m) {
			return true
		}
		p.MakeMove(m)
	}
	return false
}

// slidOnTwo reports whether m, a pawn's single step from its first rank
// with its double step legal from p, shows on a colour or piece board as
// that double step slid over the step square: among changes first.. the
// double step's square read filled by the pawn within a slide's step and
// a sweep of the step square's filling, the step square emptied as soon
// after, and never filled again by the pawn's colour. The pawn went on
// (d7-d5 slid over d6, then exd6 e.p. with the d4 queen knocked onto e3
// and put back in the capturing hand: d6 exd6 was published, the pawn
// read on d5 between).
func (ds *decodeState) slidOnTwo(first int, p *chess.Position, m chess.Move) bool {
	r := ds.r
	pc := p.PieceAt(m.From())
	if pc.Type() != chess.Pawn {
		return false
	}
	two, ok := r.doubleStep(p, m)
	if !ok {
		return false
	}
	evs := r.log.evs
	rawTo, rawTwo := unrotSquare(m.To(), r.orient), unrotSquare(two, r.orient)
	within := slideStepMs + r.sweepMs()
	filled, onTwo, left := int64(-1), int64(-1), false
	for k := first; k < len(evs); k++ {
		e := &evs[k]
		switch {
		case e.Square == rawTo && e.Kind == trace.On:
			if e.seenAs(pc) && onTwo < 0 {
				filled = e.T
			}
			if left && e.HasColour && e.Piece.Color() == pc.Color() {
				return false
			}
		case e.Square == rawTwo && e.Kind == trace.On && e.seenAs(pc) && filled >= 0 && onTwo < 0 && e.T-filled <= within:
			onTwo = e.T
		case e.Square == rawTo && e.Kind == trace.Off && onTwo >= 0 && !left && e.T-onTwo <= within:
			left = true
		}
	}
	return left
}

// inHandLast reports whether the last ply decoded is a capture taken at
// its piece's lift, the last change, on a board not yet still for the
// alert timer: as likely the piece in the hand (23... Qxb7 pushed off
// taken as e7 was lifted for it, the victim taken off 360 ms later: five
// plies were published, then amended to invented ones).
//
// The lift's contact chatter after it (its square read filled and emptied
// again within bounceMs) leaves it the last change: on a raw matrix the
// f3 bishop taken off for Qxf3 chattered once, and Bxh3 Nxe5 were
// published for Bxf3 with the victim in the hand.
func (ds *decodeState) inHandLast() bool {
	if ds.n == 0 || !ds.liftOnly[ds.n-1] || ds.r.decodeLeft {
		return false
	}
	evs := ds.r.log.evs
	k := int(ds.takenAt[ds.n-1])
	for j := k + 1; j < len(evs); j++ {
		if evs[j].Square != evs[k].Square || evs[j].T-evs[k].T > bounceMs {
			return false
		}
	}
	return evs[len(evs)-1].Kind == trace.Off
}

// landedElsewhere reports whether the first square filled after ply i's
// lift (a capture taken at its piece's lift, liftOnly; p the position
// before it), before the next ply was taken, its lift's chatter aside,
// is an empty square that piece can move to: its landing, not the
// capture (16... Qh4 read as Qxf4 at f6's lift, h4 filled 384 ms later
// as a stray).
func (ds *decodeState) landedElsewhere(i int, p *chess.Position) bool {
	r := ds.r
	evs := r.log.evs
	m := ds.seq[i]
	from := unrotSquare(m.From(), r.orient)
	end := len(evs)
	if i+1 < ds.n {
		end = int(ds.takenAt[i+1])
	}
	lastOff := evs[ds.takenAt[i]].T
	for k := int(ds.takenAt[i]) + 1; k < end; k++ {
		e := &evs[k]
		if e.Square == from && e.Kind == trace.Off {
			lastOff = e.T
		}
		if e.Kind != trace.On || ds.touch[k] || e.Square == from && e.T-lastOff <= bounceMs {
			continue
		}
		s := rotSquare(e.Square, r.orient)
		if p.PieceAt(s) != chess.NoPiece || s == m.To() {
			return false
		}
		for _, mv := range r.legal(p).Moves() {
			if mv.From() == m.From() && mv.To() == s {
				return true
			}
		}
		return false
	}
	return false
}

// castlingRookMove reports whether m moves a rook of a castling right
// the side to move in p holds, and fell is that side's king: the king
// lifted for the castling, not knocked by the rook's hand (Chess960
// O-O-O, king d1-c1 and rook b1-d1, read as Rc1 with the king knocked
// and put back: the game was lost when the rook left d1).
func castlingRookMove(p *chess.Position, m chess.Move, fell chess.Bitboard) bool {
	side := p.SideToMove()
	if fell != p.KingSquare(side).Bitboard() {
		return false
	}
	for rights := p.Castling() & castleRights(side); rights != 0; rights &= rights - 1 {
		if p.CastlingRook(rights&-rights) == m.From() {
			return true
		}
	}
	return false
}

// liftRefilled reports whether a ply decoded as a capture taken at its
// piece's lift (liftOnly) had its square filled again after that lift
// with no later ply landing there: the lift was a victim's, taken off
// for a capture there (Bxf3: the f3 knight taken off, the bishop set
// there, then taken off for Qxf3 was read as Bxh3 and Nf3xe5, both
// landings unseen, with f3 filled and emptied as a touch).
func (ds *decodeState) liftRefilled() bool {
	r := ds.r
	evs := r.log.evs
	p := *ds.start
	for i := 0; i < ds.n; i++ {
		if i > 0 {
			p.MakeMove(ds.seq[i-1])
		}
		if !ds.liftOnly[i] {
			continue
		}
		if ds.landedElsewhere(i, &p) {
			return true
		}
		from := ds.seq[i].From()
		landed := false
		for j := i + 1; j < ds.n; j++ {
			landed = landed || ds.seq[j].Landing() == from || ds.seq[j].IsCastling() && ds.seq[j].CastlingRookTo() == from
		}
		if landed {
			continue
		}
		raw := unrotSquare(from, r.orient)
		lastOff := int64(-1)
		for k := 0; k < len(evs); k++ {
			if evs[k].Square != raw {
				continue
			}
			if evs[k].Kind == trace.Off {
				lastOff = evs[k].T
				continue
			}
			// (Not the lift's contact chatter: filled again within
			// bounceMs of being emptied.)
			if k > int(ds.takenAt[i]) && !ds.touch[k] && evs[k].T-lastOff > bounceMs {
				return true
			}
		}
	}
	return false
}

// oneEarly reports whether a board that has the squares extra filled and
// missing empty, against the position after a move, may show that
// position with one square read early (readEarly): one square filled
// or one emptied, not both.
func oneEarly(extra, missing chess.Bitboard) bool {
	return extra == 0 && !missing.More() || missing == 0 && !extra.More()
}

// liftedTwo reports whether the squares extra filled and missing empty,
// against the position after a move, may be the reply's piece lifted and
// its victim taken off before the move's landing was read
// (liftedWithVictim).
func liftedTwo(extra, missing chess.Bitboard) bool {
	return extra == 0 && missing.Count() == 2
}

// readEarly reports whether d, where the board at change i (m's piece
// set down) differs from q (the position after m), is one square that a
// board reading its squares one after another (colour and piece boards)
// reported for the reply up to a sweep before m's landing; the reply's
// search goes on from the board as it is:
//   - a square of the player to move in q read empty: the reply's piece
//     lifted as the move landed (a piece board's 250 ms sweep reported d2
//     lifted 66 ms before c5 filled, and no change showed the position
//     after ...c5: nothing was published for the rest of the game);
//   - a square empty in q read filled by that player's piece: the reply's
//     piece on its way (the queen slid d1-e2-f3-g4 read on e2 before ...O-O
//     was read landing on g8, and before d1 was read empty), but not the
//     piece that landed on prevLand (the move before m), next to it: that
//     piece may be sliding on (...Qg5 slid over f6, read on g5 as 20. Bg4
//     was knocked onto h5, was read as Qf6 Bh5 Qg5 Bg4).
//
// Only at m's own landing (landedAt): a touch, or a change elsewhere, is
// no move done, and a castling that changes no square would be taken at
// any of them.
func (ds *decodeState) readEarly(first, i int, m chess.Move, q *chess.Position, d chess.Bitboard, prevLand chess.Square) bool {
	r := ds.r
	evs := r.log.evs
	if r.sensor == trace.Occupancy {
		return ds.liftedEarly(first, i, q, q.SideToMove(), m, d&q.Occupied(), d&^q.Occupied())
	}
	if landed, _ := ds.landedAt(first, i, m); ds.touch[i] || !landed {
		return false
	}
	if d.More() {
		return ds.liftedWithVictim(first, i, m, q, d)
	}
	sq := d.First()
	lifted := q.ByColor(q.SideToMove()).Has(sq)
	// Or the reply's victim, a piece of the mover's it can take, read
	// taken off up to a sweep before the landing (Kh1 read landing 70 ms
	// after f7 was read emptied for ...Rxf7 on a 250 ms sweep: the game
	// was lost from there).
	// (Not m's own landing: its piece never read there, a promotion's
	// piece read next would be lost, exf1=N read as exf1=Q.)
	victim := !lifted && q.Occupied().Has(sq) && sq != m.Landing() && r.canCapture(q, sq)
	if !lifted && !victim && q.Occupied().Has(sq) {
		return false
	}
	raw := unrotSquare(sq, r.orient)
	for j := i - 1; j >= 0; j-- {
		e := &evs[j]
		if j < first && (q.Occupied().Has(sq) || evs[i].T-e.T > r.sweepMs()) {
			// (Before the move before was taken, a square still filled
			// read within a sweep: the slide before m read on a square
			// of its path after its landing, Be6-c4 on d5.)
			break
		}
		if e.Square != raw {
			continue
		}
		if victim {
			return e.Kind == trace.Off && evs[i].T-e.T <= r.sweepMs()
		}
		if lifted {
			// (Or a quick carry more, away from where m's hand went: the
			// reply begun as m's piece was let go, each read up to a
			// sweep late. 7. b3's pawn read lifted 152 ms before 6... c6
			// was read down on a colour board: 27 plies went
			// unpublished.)
			if e.Kind != trace.Off {
				return false
			}
			if evs[i].T-e.T <= r.sweepMs() || evs[i].T-e.T <= r.sweepMs()+minQuickCarryMs && !handNear(m).Has(sq) {
				return true
			}
			// (Or lifted while m's piece was in the hand: the second
			// reading, when the first finds nothing. 1... d5's pawn
			// lifted 300 ms before 1. e4 was read down: nothing was
			// published, the final board exact.)
			// (Next to where it went only to take m's piece: a knocked
			// piece is put back, which the changes after must show.)
			if lift := ds.lastOffBefore(i, m.From()); lift >= 0 && e.T > lift && (!handNear(m).Has(sq) || r.captures(q, sq, m.Landing())) {
				ds.overlapMet = true
				return ds.overlap
			}
			return false
		}
		if evs[i].T-e.T > r.sweepMs() {
			return false
		}
		if e.Kind == trace.On && e.HasColour && e.Piece.Color() != q.SideToMove() && chess.Between(m.From(), m.To()).Has(sq) &&
			(!e.HasPieces || e.Piece == q.PieceAt(m.Landing())) {
			// m's piece read on a square it slid over, after its landing
			// (the sweep's order), and read gone from there only after
			// another change: Be6-c4 read on c4, then on d5, then e6
			// emptied, and d5 after 31. Qc2. (Read gone next, m is taken
			// there.)
			for k := i + 1; k < len(evs); k++ {
				if evs[k].Square == raw {
					return evs[k].Kind == trace.Off && k > i+1
				}
			}
			return false
		}
		if e.Kind != trace.On || !e.HasColour || e.Piece.Color() != q.SideToMove() {
			return false
		}
		// (The piece that landed there, as far as the sensor tells.)
		// (And on that piece's line on beyond it: Qxe6 read on d7 is the
		// queen's next move, no slide from g6.)
		slid := prevLand != chess.NoSquare && chess.KingAttacks(prevLand).Has(sq) &&
			(!e.HasPieces || e.Piece == q.PieceAt(prevLand)) &&
			(ds.n == 0 || chess.Between(ds.seq[ds.n-1].From(), sq).Has(prevLand))
		return !slid
	}
	return lifted && first == 0 && ds.offBefore(sq, i)
}

// lastOffBefore is when game square s was last emptied before change i,
// if that was its last change (-1: not so; 0: before the log began).
// Unlike lastLift, the lift may come before the move before was taken,
// however long: m's piece taken up while the hand before it was still on
// its way.
func (ds *decodeState) lastOffBefore(i int, s chess.Square) int64 {
	l := &ds.r.log
	raw := unrotSquare(s, ds.r.orient)
	for k := i - 1; k >= 0; k-- {
		if e := &l.evs[k]; e.Square == raw {
			if e.Kind == trace.Off {
				return e.T
			}
			return -1
		}
	}
	if !l.start.occ.Has(raw) {
		return 0
	}
	return -1
}

// liftedWithVictim is readEarly for two squares: the reply's piece
// lifted and the piece of the mover's it takes, both read emptied before
// m's landing (each up to a sweep; the lift a quick carry more away from
// m's hand): Qxe5 read landing after a4 was lifted for axb5 and b5 taken
// off first.
func (ds *decodeState) liftedWithVictim(first, i int, m chess.Move, q *chess.Position, d chess.Bitboard) bool {
	r := ds.r
	evs := r.log.evs
	own := d & q.ByColor(q.SideToMove())
	if d.Count() == 2 && own == d && ds.castlingLifted(first, i, m, q, d) {
		return true
	}
	if d.Count() != 2 || d&^q.Occupied() != 0 || own == 0 || own.More() {
		return false
	}
	from, victim := own.First(), (d &^ own).First()
	if victim == m.Landing() || !r.legal(q).Contains(chess.NewMove(from, victim)) {
		return false
	}
	for _, s := range [2]chess.Square{from, victim} {
		j := ds.lastChange(first, i, s)
		if j < 0 || evs[j].Kind != trace.Off {
			return false
		}
		if dt := evs[i].T - evs[j].T; dt > r.sweepMs() && (s == victim || dt > r.sweepMs()+minQuickCarryMs || handNear(m).Has(s)) {
			// (Or lifted while m's piece was in the hand, as readEarly:
			// the second reading.)
			if lift := ds.lastOffBefore(i, m.From()); lift < 0 || evs[j].T <= lift {
				return false
			}
			ds.overlapMet = true
			if !ds.overlap {
				return false
			}
		}
	}
	return true
}

// castlingLifted is liftedWithVictim for a castling begun as m landed:
// own, two squares of the player to move in q (the position after m),
// are the king's and the rook's of a castling legal there, both read
// emptied within a sweep before change i (4... O-O, king and rook
// lifted 101 ms after 4. Bg2 landed, read before it on a 250 ms sweep:
// 52 plies unpublished).
func (ds *decodeState) castlingLifted(first, i int, m chess.Move, q *chess.Position, own chess.Bitboard) bool {
	r := ds.r
	evs := r.log.evs
	if handNear(m).Has(q.KingSquare(q.SideToMove())) || !castlingLifted(q, own) {
		return false
	}
	for b := own; b != 0; b &= b - 1 {
		j := ds.lastChange(first, i, b.First())
		if j < 0 || evs[j].Kind != trace.Off || evs[i].T-evs[j].T > r.sweepMs() {
			return false
		}
	}
	return true
}

// offBefore reports whether game square s, empty on the board the log
// began with, was emptied at most a sweep before change i: a reply's
// piece lifted before the change at which the move before was published
// (Nd2's knight lifted from f3 52 ms before Nc5 was published at c8
// filled for ...Qc8).
func (ds *decodeState) offBefore(s chess.Square, i int) bool {
	r := ds.r
	off, ok := r.lastOff(s)
	return ok && r.log.start.occ&unrotSquare(s, r.orient).Bitboard() == 0 && off <= r.log.evs[0].T && r.log.evs[i].T-off <= r.sweepMs()
}

// landedAt reports whether change i completes move m as a board that
// reads its squares one after another shows it, and when m's landing was
// read: its piece set down, or its square (or one it slid over) emptied
// after its landing was read filled, at most a sweep before (a slide, or
// the sweep's order: Qd7-c8 read on c8 30 ms before d7 emptied, Nd2
// lifted from f3 52 ms before that: the game went dark; on an occupancy
// board Bc8-d7 slid, d7 filled 26 ms before c8 emptied and a2 lifted for
// a3 between them: a3 was taken before b3 Bd7).
func (ds *decodeState) landedAt(first, i int, m chess.Move) (bool, int64) {
	r := ds.r
	evs := r.log.evs
	gs := rotSquare(evs[i].Square, r.orient)
	if evs[i].Kind == trace.On {
		return landings(m).Has(gs), evs[i].T
	}
	if m.IsCastling() || gs != m.From() && !chess.Between(m.From(), m.To()).Has(gs) {
		return false, 0
	}
	// (On occupancy boards, which read the order as it came, a piece
	// slid onto the next square: its base on both for a moment.)
	// (On colour and piece boards a sweep, and a slide's step: the
	// piece slid c8-b7 shows on b7 before it leaves c8, and the sweep
	// reads c8 up to a sweep after that, 285 ms after b7 on a 250 ms
	// sweep.)
	within := r.sweepMs() + slideStepMs
	if r.sensor == trace.Occupancy {
		within = r.overlapMs()
	}
	raw := unrotSquare(m.To(), r.orient)
	for j := i - 1; j >= first && evs[i].T-evs[j].T <= within; j-- {
		if evs[j].Square == raw {
			return evs[j].Kind == trace.On, evs[j].T
		}
	}
	return false, 0
}

// landedLongBefore reports, on occupancy boards, whether change i empties
// the square of move m's piece, its landing filled more than overlapMs
// before: no slide keeps a piece's base on two squares that long, and the
// landing was another piece's (the knight e6-g5 read on g5 226 ms before
// e6 emptied: 17. Ng5 and 17... Nxg5 pushed off, not 17. Nxd6 pushed off
// and 17... Ng5).
func (ds *decodeState) landedLongBefore(first, i int, m chess.Move) bool {
	r := ds.r
	evs := r.log.evs
	if evs[i].Kind != trace.Off || m.IsCastling() || rotSquare(evs[i].Square, r.orient) != m.From() {
		return false
	}
	j := ds.lastChange(first, i, m.Landing())
	return j >= 0 && evs[j].Kind == trace.On && evs[i].T-evs[j].T > r.overlapMs()
}

// liftedEarly reports whether a board that, at change i, has the squares
// missing empty and extra filled against the position after move m (from
// p) may show m done with the reply's piece (replier's) already lifted:
// none extra (but the reply's slider on its way, slidingEarly), change i
// completes m (landedAt), and the missing square was emptied since the
// move began, at most overlapMs before m's landing was read, away from
// where m's hand went (no knock of that hand); or the two squares of a
// castling's king and rook so lifted. The explainer
// allows the same overlap (an occupancy board read e7 lifted 106 ms
// before f4 filled); without it the decoder found no sequence, and a
// clock-less blitz game went dark for 20 plies after Rd1 landed 42 ms
// after a8 was lifted for ...Rab8.
func (ds *decodeState) liftedEarly(first, i int, p *chess.Position, replier chess.Color, m chess.Move, missing, extra chess.Bitboard) bool {
	r := ds.r
	evs := r.log.evs
	landed, landT := ds.landedAt(first, i, m)
	if missing == 0 || !landed || extra != 0 && !ds.slidingEarly(first, i, p, missing, extra) {
		return false
	}
	if missing.More() {
		// Two: the king and a rook of a castling begun early (Chess960
		// O-O-O's king and rook lifted 27 and 8 ms before ...Nb6 was
		// down).
		k := p.KingSquare(replier).Bitboard()
		castles := false
		for _, c := range [...]chess.CastlingRights{chess.WhiteHSide, chess.WhiteASide, chess.BlackHSide, chess.BlackASide} {
			if c&castleRights(replier) != 0 && p.CastlingRook(c) != chess.NoSquare && missing == k|p.CastlingRook(c).Bitboard() {
				castles = true
			}
		}
		if !castles {
			return false
		}
	}
	if missing&^p.ByColor(replier) != 0 || missing&handNear(m) != 0 {
		return false
	}
	for b := missing; b != 0; b &= b - 1 {
		j := ds.lastChange(first, i, b.First())
		if j < 0 || evs[j].Kind != trace.Off || landT-evs[j].T > r.overlapMs() {
			return false
		}
	}
	return true
}

// slidingEarly reports whether extra, a square filled against the
// position after the move landing at change i, is the next square on
// the line of the reply's piece lifted from missing (p's, a bishop, rook
// or queen), filled after that lift: the reply begun early, sliding
// (17... Bxd5 slid b7-c6 pushing the knight off d5, b7 lifted 20 ms
// and c6 filled 10 ms before 17. Qxh6 was down: 15 plies went
// unpublished).
func (ds *decodeState) slidingEarly(first, i int, p *chess.Position, missing, extra chess.Bitboard) bool {
	if missing.More() || extra.More() {
		return false
	}
	s, x := missing.First(), extra.First()
	pc := p.PieceAt(s)
	switch pc.Type() {
	case chess.Bishop, chess.Rook, chess.Queen:
	default:
		return false
	}
	if !chess.KingAttacks(s).Has(x) || !chess.Attacks(pc.Type(), pc.Color(), s, p.Occupied()).Has(x) {
		return false
	}
	evs := ds.r.log.evs
	lift, on := ds.lastChange(first, i, s), ds.lastChange(first, i, x)
	return lift >= 0 && on > lift && evs[lift].Kind == trace.Off && evs[on].Kind == trace.On
}

// pushedOffEarly takes, before change first (the first of a ply's), a
// capture from p whose victim was pushed off its square (no change of
// its own) by a piece lifted up to overlapMs before the move before
// landed, away from that move's hand, if the board pb shows the position
// after it. (Kxa2 landed 74 ms after d7 was lifted for ...Rxd1 pushed
// off: nothing else ever changed, and d7 was alerted.) It reports whether
// the search is over.
func (ds *decodeState) pushedOffEarly(first int, p *chess.Position, pb physBoard) bool {
	r := ds.r
	evs := r.log.evs
	var v view
	ds.view(&pb, p, &v)
	gone := p.Occupied() &^ v.occ
	if gone == 0 || gone.More() || v.occ&^p.Occupied() != 0 || !p.ByColor(p.SideToMove()).Has(gone.First()) || handNear(ds.seq[ds.n-1]).Has(gone.First()) {
		return false
	}
	from := gone.First()
	j := ds.lastChange(0, first, from)
	if j < 0 || evs[j].Kind != trace.Off || evs[first-1].T-evs[j].T > r.overlapMs() {
		return false
	}
	var ml chess.MoveList
	p.GenerateLegal(&ml)
	for _, m := range ml.Moves() {
		if m.From() != from || m.IsEnPassant() || m.IsCastling() || p.PieceAt(m.To()) == chess.NoPiece || !ds.allowed(m, 0) ||
			m.IsPromotion() && m.Promotion() != r.promoExpect(p, m, first) {
			continue
		}
		if ds.take(first-1, p, m, false, false, pb, 0) {
			return true
		}
	}
	return false
}

// swapCastling is the legal castling from p whose king and rook trade
// squares (Chess960: no square changes), if change i puts a piece back on
// one of them and both were lifted since change first and are back: the
// board cannot show it otherwise (a piece board names the pieces, and its
// changes show the castling).
func (ds *decodeState) swapCastling(first, i int, p *chess.Position) (chess.Move, bool) {
	r := ds.r
	evs := r.log.evs
	if r.sensor == trace.PieceSensor || evs[i].Kind != trace.On || p.Castling()&castleRights(p.SideToMove()) == 0 {
		return 0, false
	}
	gs := rotSquare(evs[i].Square, r.orient)
	if pc := p.PieceAt(gs); pc == chess.NoPiece || pc.Color() != p.SideToMove() || pc.Type() != chess.King && pc.Type() != chess.Rook {
		return 0, false
	}
	var ml chess.MoveList
	p.GenerateLegal(&ml)
	for _, m := range ml.Moves() {
		if !tradesSquares(m) || gs != m.From() && gs != m.To() || !ds.allowed(m, 0) {
			continue
		}
		other := m.From() ^ m.To() ^ gs
		if ds.lastLift(first, i, gs) >= 0 && ds.liftedBack(first, i, other) {
			return m, true
		}
	}
	return 0, false
}

// liftedBack reports whether game square s was emptied and filled again
// among changes first..i-1, its last change a filling.
func (ds *decodeState) liftedBack(first, i int, s chess.Square) bool {
	evs := ds.r.log.evs
	raw := unrotSquare(s, ds.r.orient)
	filled := false
	for j := i - 1; j >= first; j-- {
		if evs[j].Square != raw {
			continue
		}
		if evs[j].Kind == trace.On {
			filled = true
			continue
		}
		return filled
	}
	return false
}

// take decodes m from p as completed at change i (quick: it may be a
// knock, not the last ply) and goes on from the change after it, with pb
// the board after change i. It reports whether the search is over (a
// sequence found, the budget spent).
func (ds *decodeState) take(i int, p *chess.Position, m chess.Move, quick, pushed bool, pb physBoard, knocked chess.Bitboard) bool {
	q := *p
	q.MakeMove(m)
	ev := &ds.r.log.evs[i]
	ds.liftOnly[ds.n] = ds.r.sensor == trace.Occupancy && ev.Kind == trace.Off && rotSquare(ev.Square, ds.r.orient) == m.From() && p.PieceAt(m.To()) != chess.NoPiece
	ds.seq[ds.n], ds.quick[ds.n], ds.pushed[ds.n], ds.takenAt[ds.n] = m, quick, pushed, int16(i)
	ds.n++
	if ds.partial && ds.n > ds.bestN && knocked == 0 && !quick && !ds.leftAtOnce(i, m) {
		var v view
		if ds.view(&pb, &q, &v); v.diff(&q) == 0 {
			ds.bestN, ds.bestEnd = ds.n, q
			copy(ds.best[:], ds.seq[:ds.n])
		}
	}
	if ds.prefix && ds.n == len(ds.want) {
		ds.found, ds.end = true, q
		return true
	}
	if ds.gameOver(&q, knocked) {
		return true
	}
	ds.search(i+1, q, pb, ds.r.log.evs[i].T, m.Landing(), knocked)
	if ds.found || ds.over() {
		return true
	}
	ds.n--
	return false
}

// capturerInHand reports, on colour and piece boards, at the lift
// replyBegins decides on (liftNow), whether v shows p but for the square
// the log's last change emptied, a piece of the player to move in p that
// can capture on liftNow: the next move's capturing piece taken up before
// its victim (22... Qc7, then 23. Bf2xd4 begun 105 ms after the queen was
// read down, too soon for the reply rule, the d4 pawn lifted 305 ms
// later). The plies read stand, and the lift is the next move's.
func (ds *decodeState) capturerInHand(p *chess.Position, v *view) bool {
	r := ds.r
	evs := r.log.evs
	if r.sensor == trace.Occupancy || r.liftNow == chess.NoSquare || len(evs) == 0 || evs[len(evs)-1].Kind != trace.Off {
		return false
	}
	s := rotSquare(evs[len(evs)-1].Square, r.orient)
	if v.diff(p) != s.Bitboard() || !p.ByColor(p.SideToMove()).Has(s) || !r.captures(p, s, r.liftNow) {
		return false
	}
	// (Not when the piece lifted now could take the one in the hand
	// without the last ply: a victim taken off first, as likely. 8...
	// c2, c1 knocked onto d2, then 9. Qxc2 with c2 taken off first: read
	// as 8... c2 9. Bd2 and the pawn about to take on d1.)
	q := ds.beforeLast()
	return !r.captures(&q, r.liftNow, s)
}

// replyInHand reports, when the decision asks for it (decodeHandLate),
// whether p, two plies or more decoded, the last taken at the log's last
// change, is the board but for one piece of the player to move read
// empty, and perhaps a piece it can take: the next reply's piece, lifted
// before that landing was read (landedAfterReplyRun weighs when), and
// its victim.
func (ds *decodeState) replyInHand(p *chess.Position, v *view) bool {
	r := ds.r
	evs := r.log.evs
	if !r.decodeHandLate || ds.n < 2 || int(ds.takenAt[ds.n-1]) != len(evs)-1 || evs[len(evs)-1].Kind != trace.On {
		return false
	}
	d := v.diff(p)
	if d == 0 || v.occ&d != 0 || d.Count() > 2 {
		return false
	}
	hand := d & p.ByColor(p.SideToMove())
	if hand == 0 || hand.More() {
		return false
	}
	// (Or with the piece it takes, its victim already off.)
	return d == hand || r.captures(p, hand.First(), (d&^hand).First())
}

// beforeLast is the position before the last ply decoded (ds.n > 0).
func (ds *decodeState) beforeLast() chess.Position {
	q := *ds.start
	for _, m := range ds.seq[:ds.n-1] {
		q.MakeMove(m)
	}
	return q
}

// liftAfterQuick reports, on colour and piece boards, whether the lift
// replyBegins decides on (liftNow) bears out the last ply, a quick or
// pushed one (begun so soon next to where the ply before landed, or
// pushed next door so fast, that it may be a hand's knock), reaching p:
// a piece of the player to move in p, which the player to move without
// the last ply could not take. Were that ply a knock, that player would
// be lifting the opponent's piece (21... d4, then 22. Bf2 pushed next door
// 195 ms later, then 22... Qc7 lifted: the decoder waited for the queen's
// landing, then for the next move's, and nothing was published for eight
// plies).
func (ds *decodeState) liftAfterQuick(p *chess.Position) bool {
	r := ds.r
	if r.sensor == trace.Occupancy || r.liftNow == chess.NoSquare || ds.n == 0 || !p.ByColor(p.SideToMove()).Has(r.liftNow) ||
		ds.n >= 2 && ds.pushed[ds.n-2] && !r.decodeAsSeen {
		// (The ply before pushed next door too is no more borne out:
		// Bd5 touched down, its hand knocking d6 onto c6, then Be6+.)
		return false
	}
	q := ds.beforeLast()
	return !r.canCapture(&q, r.liftNow)
}

// touchedDownOnWay reports, on colour and piece boards, whether change i
// sets m's piece on its landing only to lift it again within a touch-down
// (maxTouchMs and a sweep) and set it, the next change, on another
// square the same piece can reach from m's (or, a slide paused on its
// way, is read there first): a touch-down on its way,
// tried as the move only if waiting finds nothing (...d7-d5 touched down
// on d6, read there for 200 ms by a 250 ms sweep, then exd6 e.p. and
// cxd6 were read as ...d6 exd6 cxd6, the same position).
func (ds *decodeState) touchedDownOnWay(i int, p *chess.Position, m chess.Move) bool {
	r := ds.r
	evs := r.log.evs
	to := unrotSquare(m.To(), r.orient)
	if r.sensor == trace.Occupancy || m.IsCastling() {
		return false
	}
	// taken: the change m is taken at; i, from here on, its landing's.
	// (Taken at its square emptied, the landing read within a sweep
	// before: a slide's landing read before its lift, ...Bd7-f5 paused
	// on e6, e6 read filled 5 ms before d7 emptied, was never tried as a
	// touch-down, and Be6 ... Be6-d7 was published.)
	taken := i
	if evs[i].Kind == trace.Off && evs[i].Square == unrotSquare(m.From(), r.orient) {
		// (Looked for within the sweep only: this runs at every lift.)
		for k := i - 1; k >= 0 && evs[i].T-evs[k].T <= r.sweepMs(); k-- {
			if evs[k].Square == to {
				if evs[k].Kind == trace.On {
					i = k
				}
				break
			}
		}
	}
	if evs[i].Kind != trace.On || evs[i].Square != to {
		return false
	}
	pc := p.PieceAt(m.From())
	j := i + 1
	for j < len(evs) && evs[j].Square != to {
		j++
	}
	if j >= len(evs) || evs[j].Kind != trace.Off || j+1 >= len(evs) {
		return false
	}
	if dt := evs[j].T - evs[i].T; dt > maxTouchMs+r.sweepMs() {
		if dt > standMs+r.sweepMs() || !ds.slidOnFrom(i, j, p, m) {
			return false
		}
		if !ds.pauseOK {
			if ds.paused < len(ds.pausedAt) && !slices.Contains(ds.pausedAt[:ds.paused], int16(taken)) {
				ds.pausedAt[ds.paused] = int16(taken)
				ds.paused++
			}
			return false
		}
	}
	goesTo := func(e *logEvent) bool {
		if e.Kind != trace.On || !e.HasColour || e.Piece.Color() != pc.Color() || e.HasPieces && e.Piece != pc {
			return false
		}
		for _, mv := range r.legal(p).Moves() {
			if mv.From() == m.From() && mv.To() == rotSquare(e.Square, r.orient) && mv != m {
				return true
			}
		}
		return false
	}
	if goesTo(&evs[j+1]) {
		return true
	}
	// Or a slide paused there and gone on, read on the next square
	// before it emptied (Rd1-f1 paused on e1: e1 filled, d1 emptied, f1
	// filled, e1 emptied), nothing else changed between.
	for k := i + 1; k < j; k++ {
		sq := rotSquare(evs[k].Square, r.orient)
		if goesTo(&evs[k]) && chess.Between(m.From(), sq).Has(m.To()) {
			return true
		}
		if sq != m.From() && !chess.Between(m.From(), m.To()).Has(sq) {
			return false
		}
	}
	return false
}

// tookPause reports whether the sequence found took a move at a change
// where a slide paused before going on (pausedAt).
func (ds *decodeState) tookPause() bool {
	for _, k := range ds.takenAt[:ds.n] {
		if slices.Contains(ds.pausedAt[:ds.paused], k) {
			return true
		}
	}
	return false
}

// slidOnFrom reports whether, among changes i+1..j+1 (m's landing set
// down at change i and emptied at change j), m's piece was read set down
// on a square beyond that landing on the line from m's square: a slide
// paused there and gone on (touchedDownOnWay).
func (ds *decodeState) slidOnFrom(i, j int, p *chess.Position, m chess.Move) bool {
	r := ds.r
	evs := r.log.evs
	pc := p.PieceAt(m.From())
	if m.IsCastling() || m.IsPromotion() || pc.Type() == chess.Pawn || pc.Type() == chess.Knight || pc.Type() == chess.King {
		return false
	}
	for k := i + 1; k <= j+1 && k < len(evs); k++ {
		e := &evs[k]
		if e.Kind == trace.On && e.seenAs(pc) && chess.Between(m.From(), rotSquare(e.Square, r.orient)).Has(m.To()) {
			return true
		}
	}
	return false
}

// slidPast reports whether change i empties a square that move m's piece
// slid over on its way, read there until after it showed on its own
// square, where it then rests (no change there within maxTouchMs): e7-e5
// slid over e6, read on e6 before e7 emptied and gone from e6 after e5
// filled, was e6 (and dxe6 en passant was read as dxe6). A piece that
// goes on from there (a rook slid h1-e1 reads as Rhf1 when it leaves g1)
// is still sliding, unless the other player lifts a piece first; a
// pawn's double step is not (d4 emptied 225 ms after d3 was the victim
// of cxd4 taken off first).
func (ds *decodeState) slidPast(i int, p *chess.Position, m chess.Move) bool {
	r := ds.r
	evs := r.log.evs
	if evs[i].Kind != trace.Off || m.IsCastling() || !chess.Between(m.From(), m.To()).Has(rotSquare(evs[i].Square, r.orient)) {
		return false
	}
	if p.PieceAt(m.From()).Type() == chess.Pawn {
		return true
	}
	to := unrotSquare(m.To(), r.orient)
	side := p.SideToMove()
	mover := p.PieceAt(m.From())
	replied := false
	for j := i + 1; j < len(evs) && evs[j].T-evs[i].T <= maxTouchMs; j++ {
		gs := rotSquare(evs[j].Square, r.orient)
		if replied {
			// Read going on along its line after all: the lift was read
			// before the slide's end, a sweep's order (Qb5-e2 over d3,
			// ...Rc8 lifted, e2 read filled 85 ms after).
			if e := &evs[j]; e.Kind == trace.On && e.seenAs(mover) && chess.Between(m.From(), gs).Has(m.To()) {
				return false
			}
			continue
		}
		if evs[j].Square == to {
			return false
		}
		if pc := p.PieceAt(gs); evs[j].Kind == trace.Off && pc != chess.NoPiece && pc.Color() != side {
			// The other player lifted a piece first: the reply began,
			// and m's piece rested (Bc8-a6 paused on b7, b7 read
			// emptied after a6 filled, Ra1-d1 lifted 24 ms later and
			// ...Ba6-e2 286 ms after b7: nothing was published for 38
			// plies), unless it is read going on along its line (on
			// colour and piece boards, which tell its piece).
			if r.sensor == trace.Occupancy {
				return true
			}
			replied = true
		}
	}
	return true
}

// touchDownLeft reports, on colour and piece boards, whether change i
// empties a square off m's line where m's piece was read set down since the
// move before (a touch-down on its way), m's landing read filled since:
// the sweep read the touch-down's square emptied after the landing (the
// f8 rook touched down on c8, then took on f5, and c8 was read emptied
// 65 ms after f5).
func (ds *decodeState) touchDownLeft(first, i int, p *chess.Position, m chess.Move) bool {
	r := ds.r
	evs := r.log.evs
	if r.sensor == trace.Occupancy || evs[i].Kind != trace.Off || m.IsCastling() || i == 0 {
		return false
	}
	sq := rotSquare(evs[i].Square, r.orient)
	if chess.Between(m.From(), m.To()).Has(sq) || chess.Between(m.From(), sq).Has(m.To()) {
		// (On its line: a slide, slidPast's.)
		return false
	}
	j := ds.lastChange(max(0, first-1), i, sq)
	if j < 0 || evs[j].Kind != trace.On || !evs[j].seenAs(p.PieceAt(m.From())) || evs[i].T-evs[j].T > maxTouchMs+r.sweepMs() {
		return false
	}
	k := ds.lastChange(j, i, m.Landing())
	return k > j && evs[k].Kind == trace.On
}

// gameOver ends the search at a move that mates or stalemates, its
// position shown: the changes after it are no moves of the game (a piece
// moved 400 ms after the mate, the mate never standing still, left the
// last three plies unpublished).
func (ds *decodeState) gameOver(q *chess.Position, knocked chess.Bitboard) bool {
	if knocked != 0 || ds.quick[ds.n-1] || ds.pushedLate() || !ds.complete() {
		return false
	}
	var ml chess.MoveList
	if q.GenerateLegal(&ml); len(ml.Moves()) > 0 {
		return false
	}
	ds.found, ds.end = true, *q
	return true
}

// recaptured tries, at change i (a square filled) that no move fits, a
// move to that square whose landing no sweep saw, its piece taken there
// at once by the piece set down now: a capture answered faster than a
// sweep (colour and piece boards). Both pieces must have been lifted
// since the move before, the capturing one after the other. Change i may
// instead be the capturing piece's lift, read after its landing (read
// within a sweep before): a slow sweep reads the squares in its own
// order (d4-d5 taken at once by exd5, e6 read emptied 35 ms after d5
// read the black pawn). It reports whether the search found a sequence.
func (ds *decodeState) recaptured(first, i int, p *chess.Position, ml *chess.MoveList, v *view, away chess.Bitboard, pb physBoard, knocked chess.Bitboard) bool {
	r := ds.r
	evs := r.log.evs
	gs := rotSquare(evs[i].Square, r.orient)
	liftLate := evs[i].Kind == trace.Off
	// (A promotion's piece taken at once was read only if a sweep caught
	// it standing: that piece, else the input's choice or the queen,
	// before the others, which only a piece board tries.)
	for pass := 0; pass < 2; pass++ {
		for _, m1 := range ml.Moves() {
			to := gs
			landed := i
			if liftLate {
				to = m1.To()
				if landed = ds.lastChange(first, i, to); landed < 0 || evs[landed].Kind != trace.On || evs[i].T-evs[landed].T > r.sweepMs() {
					continue
				}
			}
			j1 := ds.lastLift(first, landed, m1.From())
			// (A castling's last square read, its king's or its rook's
			// landing, only with a reply read before it: O-O, f1 read
			// filled after 15... Re8 was read made.)
			castled := m1.IsCastling() && !liftLate && (m1.CastlingKingTo() == gs || m1.CastlingRookTo() == gs)
			if m1.To() != to && !castled || m1.IsCastling() && !castled || j1 < 0 || !ds.allowed(m1, 0) {
				continue
			}
			if other := m1.IsPromotion() && m1.Promotion() != r.promoExpect(p, m1, i+1); other != (pass == 1) || other && r.sensor != trace.PieceSensor {
				continue
			}
			if ds.restedElsewhere(j1, i, p.PieceAt(m1.From()), m1.From(), to) {
				continue
			}
			q1 := *p
			q1.MakeMove(m1)
			var ml2 chess.MoveList
			q1.GenerateLegal(&ml2)
			for _, m2 := range ml2.Moves() {
				// (The capturing piece lifted after the piece it takes: that
				// one was set down before it was taken.)
				if !ds.allowed(m2, 1) || m2.IsPromotion() && m2.Promotion() != chess.Queen && r.sensor != trace.PieceSensor {
					continue
				}
				if m2.To() != to || castled {
					// (Not a piece next to m1's hand pushed a square: its
					// knock, read as m1's piece slid on, Rc5-a5 over b5
					// knocking b4 onto a4, was Rb5 Ra4 Ra5.)
					if liftLate || !ds.readBefore(i, j1, m2) || ds.stoodThrough(j1, i, p.PieceAt(m1.From()), to, m2) {
						continue
					}
					if handNear(m1).Has(m2.From()) && chess.KingAttacks(m2.From()).Has(m2.To()) && !ds.nearOK {
						ds.nextDoor = true
						continue
					}
				} else if liftLate && m2.From() != gs {
					// (Or m2 the second capture there and change i the
					// lift of a third's piece, read last: chain3.)
					if ds.n+3 <= maxDecodePlies && ds.lastLift(first, i, m2.From()) > j1 {
						q2 := q1
						q2.MakeMove(m2)
						w := *v
						w.occ |= away & q2.Occupied() & p.Occupied()
						if ds.chain3(first, i, p, &q2, m1, m2, &w, pb, knocked, gs) {
							return true
						}
					}
					continue
				} else if !liftLate && ds.lastLift(first, i, m2.From()) <= j1 {
					continue
				}
				q2 := q1
				q2.MakeMove(m2)
				w := *v
				w.occ |= away & q2.Occupied() & p.Occupied()
				if d := w.diff(&q2); d != 0 {
					if m2.To() == to && !liftLate && ds.n+3 <= maxDecodePlies && ds.chain3(first, i, p, &q2, m1, m2, &w, pb, knocked, chess.NoSquare) {
						return true
					}
					if m2.To() != to || liftLate || !ds.nextLifted(first, i, &q2, d, &w, m2) {
						continue
					}
				}
				if ds.takePair(i, m1, m2, &q2, pb, knocked) {
					return true
				}
			}
		}
	}
	return false
}

// nextLifted reports whether d, the squares where the board at change i
// differs from q2 (after a capture and its recapture, m2, the recapture's
// landing read at i), is one piece of the player to move in q2, read
// lifted after m2's piece and still in the hand: the next move begun
// before the sweep read the recapture's landing (13... Bxf3, its landing
// never read, 14. Bxf3, and the d8 queen lifted for 14... Qc7 before f3
// was read: nothing was published for the rest of the game).
func (ds *decodeState) nextLifted(first, i int, q2 *chess.Position, d chess.Bitboard, w *view, m2 chess.Move) bool {
	if d.More() || d&q2.ByColor(q2.SideToMove()) != d || w.occ&d != 0 {
		return false
	}
	k := ds.lastChange(first, i, d.First())
	return k >= 0 && ds.r.log.evs[k].Kind == trace.Off && k > ds.lastLift(first, i, m2.From())
}

// takePair takes m1 and its reply m2 together at change i, q2 the
// position after both, and searches on from the next change (recaptured,
// liftReadLast). It reports whether the search is over: a sequence found
// or the budget spent.
func (ds *decodeState) takePair(i int, m1, m2 chess.Move, q2 *chess.Position, pb physBoard, knocked chess.Bitboard) bool {
	ds.seq[ds.n], ds.seq[ds.n+1] = m1, m2
	ds.quick[ds.n], ds.quick[ds.n+1] = false, false
	ds.n += 2
	if ds.gameOver(q2, knocked) {
		return true
	}
	ds.search(i+1, *q2, pb, ds.r.log.evs[i].T, m2.Landing(), knocked)
	if ds.found || ds.over() {
		return true
	}
	ds.n -= 2
	return false
}

// landedLate tries, at change i that no move fits (a square filled), a
// move whose landing was read within a sweep before i and the reply set
// down at i, that reply's lift read after the move's lift and before its
// landing: a slow sweep read the landing late, after the reply and the
// next move had begun (13. Qd1-b3, ...Nd5-c7 and 14. Na3-c4 lifted before
// a 300 ms sweep read b3: nothing was published for 57 plies). The board
// shows the position after both, or with the next mover's piece still in
// the hand (nextLifted).
func (ds *decodeState) landedLate(first, i int, p *chess.Position, ml *chess.MoveList, v *view, away chess.Bitboard, pb physBoard, knocked chess.Bitboard) bool {
	r := ds.r
	evs := r.log.evs
	if evs[i].Kind != trace.On {
		return false
	}
	gs := rotSquare(evs[i].Square, r.orient)
	for _, m1 := range ml.Moves() {
		landed := ds.landedRead(first, i, p, m1)
		if landed < 0 {
			continue
		}
		j1 := ds.lastLift(first, landed, m1.From())
		if j1 < 0 {
			continue
		}
		q1 := *p
		q1.MakeMove(m1)
		var ml2 chess.MoveList
		q1.GenerateLegal(&ml2)
		for _, m2 := range ml2.Moves() {
			if m2.To() != gs || !ds.allowed(m2, 1) || m2.IsPromotion() || m2.IsCastling() || m2.IsEnPassant() || !evs[i].seenAs(q1.PieceAt(m2.From())) {
				continue
			}
			if j2 := ds.lastLift(first, landed, m2.From()); j2 <= j1 {
				continue
			}
			q2 := q1
			q2.MakeMove(m2)
			w := *v
			w.occ |= away & q2.Occupied() & p.Occupied()
			d := w.diff(&q2)
			if d != 0 && !ds.nextLifted(first, i, &q2, d, &w, m2) {
				continue
			}
			// Every change since m1's lift is one of the two moves' (or
			// that next lift): no piece seen elsewhere on the way.
			all1, _ := moveSquares(p, m1)
			all2, _ := moveSquares(&q1, m2)
			if !ds.onlyOn(j1+1, i, all1|all2|chess.Between(m1.From(), m1.To())|chess.Between(m2.From(), m2.To())|d) {
				continue
			}
			if ds.takePair(i, m1, m2, &q2, pb, knocked) {
				return true
			}
		}
	}
	return false
}

// landedRead is the change at which plain move m1 from p (no castling,
// en passant or promotion; one the search may take) was read landed: its
// square's last change before change i, a filling seen as its piece
// within a sweep before i (landedLate, liftReadLast). -1 if none.
func (ds *decodeState) landedRead(first, i int, p *chess.Position, m1 chess.Move) int {
	if m1.IsCastling() || m1.IsEnPassant() || m1.IsPromotion() || !ds.allowed(m1, 0) {
		return -1
	}
	evs := ds.r.log.evs
	k := ds.lastChange(first, i, m1.To())
	if k < 0 || evs[k].Kind != trace.On || !evs[k].seenAs(p.PieceAt(m1.From())) || evs[i].T-evs[k].T > ds.r.sweepMs() {
		return -1
	}
	return k
}

// onlyOn reports whether changes lo..hi-1 are all on game squares b.
func (ds *decodeState) onlyOn(lo, hi int, b chess.Bitboard) bool {
	evs := ds.r.log.evs
	for k := lo; k < hi; k++ {
		if !b.Has(rotSquare(evs[k].Square, ds.r.orient)) {
			return false
		}
	}
	return true
}

// liftReadLast tries, at change i that no move fits (a square emptied),
// a move and its reply read interleaved by a slow sweep, which reads the
// squares in its own order. The move's landing is read within a sweep
// before change i, and change i is either
//   - the move's own lift, read last, the reply read made after the
//     landing (readBefore): Bc1-d2 slid, d2 read filled, then ...Rh8-g8
//     read made, and only then c1 emptied, on a 250 ms sweep (nothing was
//     published for the rest of the game); or
//   - a square the reply slid over, read emptied last, the reply's lift
//     and landing read around the move's landing (readAround): Qd5-a8
//     read landing between ...Qg6-f7-e8's f7 and e8 filled (33 plies
//     unpublished).
//
// The board must show the position after both (colour and piece boards).
// It reports whether the search found a sequence.
func (ds *decodeState) liftReadLast(first, i int, p *chess.Position, ml *chess.MoveList, v *view, away chess.Bitboard, pb physBoard, knocked chess.Bitboard) bool {
	r := ds.r
	evs := r.log.evs
	if evs[i].Kind != trace.Off {
		return false
	}
	gs := rotSquare(evs[i].Square, r.orient)
	for _, m1 := range ml.Moves() {
		landed := ds.landedRead(first, i, p, m1)
		if landed < 0 {
			continue
		}
		// The move's lift: change i, or read before its landing.
		j1 := i
		if m1.From() != gs {
			if j1 = ds.lastLift(first, landed, m1.From()); j1 < 0 {
				continue
			}
		}
		q1 := *p
		q1.MakeMove(m1)
		var ml2 chess.MoveList
		q1.GenerateLegal(&ml2)
		for _, m2 := range ml2.Moves() {
			// (Not a piece next to m1's hand pushed a square: its
			// knock.)
			if !ds.allowed(m2, 1) || m2.IsPromotion() || m2.IsCastling() || m2.IsEnPassant() ||
				handNear(m1).Has(m2.From()) && chess.KingAttacks(m2.From()).Has(m2.To()) {
				continue
			}
			// (The reply may be read made before the move's landing too,
			// its landing read that near before, one sweep's order:
			// 20... e6-e5, 21. Bc4-b5 read lifted and landed, then e5
			// filled 14 ms after b5 and e6 emptied, a 300 ms sweep.)
			if m1.From() == gs && !ds.readBefore(i, landed, m2) && !ds.readNear(i, first, landed, m2) || m1.From() != gs && (!chess.Between(m2.From(), m2.To()).Has(gs) || !ds.readAround(i, j1, landed, m2)) {
				continue
			}
			q2 := q1
			q2.MakeMove(m2)
			w := *v
			w.occ |= away & q2.Occupied() & p.Occupied()
			if w.diff(&q2) != 0 {
				continue
			}
			if ds.takePair(i, m1, m2, &q2, pb, knocked) {
				return true
			}
		}
	}
	return false
}

// readAround reports whether reply m2, a plain move whose piece slid
// over the square change i emptied, was read made around the landing of
// the move it answers (change landed, its lift change j1): its square
// emptied after j1 and its landing filled after that landing, each the
// square's last change before change i and within a sweep of the landing
// (liftReadLast).
func (ds *decodeState) readAround(i, j1, landed int, m2 chess.Move) bool {
	evs := ds.r.log.evs
	off, on := ds.lastChange(j1+1, i, m2.From()), ds.lastChange(landed+1, i, m2.To())
	if off < 0 || on < 0 || evs[off].Kind != trace.Off || evs[on].Kind != trace.On {
		return false
	}
	t := evs[landed].T
	return t-evs[off].T <= ds.r.sweepMs() && evs[on].T-t <= ds.r.sweepMs()
}

// restedElsewhere reports whether piece pc, lifted from from at change j1, was
// read set down on a square other than to before change i and stood
// there longer than a touch-down (maxTouchMs) before it was lifted again:
// it landed there, and no landing on to that no sweep read (Bb3 read on
// b3 for 750 ms, then knocked off, is no Bc4 taken at once by Nxc4).
//
// A pawn read on a square off its way stood there, however briefly: no
// hand touches a pawn down beyond its square (c5 read, then taken off by
// dxc6 e.p., is no c6 taken at once by dxc6).
func (ds *decodeState) restedElsewhere(j1, i int, pc chess.Piece, from, to chess.Square) bool {
	evs := ds.r.log.evs
	return ds.setDownElsewhere(j1, i, pc, to, func(k int) bool {
		if gs := rotSquare(evs[k].Square, ds.r.orient); pc.Type() == chess.Pawn && !chess.Between(from, to).Has(gs) {
			return true
		}
		for l := k + 1; l <= i; l++ {
			if evs[l].Square == evs[k].Square {
				return evs[l].Kind == trace.Off && evs[l].T-evs[k].T > maxTouchMs
			}
		}
		return false
	})
}

// setDownElsewhere reports whether f holds for some change among
// j1+1..hi-1 that read piece pc set down on a square other than game
// square to (restedElsewhere, stoodThrough).
func (ds *decodeState) setDownElsewhere(j1, hi int, pc chess.Piece, to chess.Square, f func(k int) bool) bool {
	evs := ds.r.log.evs
	raw := unrotSquare(to, ds.r.orient)
	for k := j1 + 1; k < hi; k++ {
		if e := &evs[k]; e.Kind == trace.On && e.Square != raw && e.seenAs(pc) && f(k) {
			return true
		}
	}
	return false
}

// chain3 is recaptured's third capture on the same square: m1 and m2
// landed there and were taken within a sweep, no landing read, and the
// piece set down at change i took m2's (9. Nxe5 Nxe5 10. dxe5, each
// victim taken off first: only the pawn was read on e5). Each piece was
// lifted after the one before; w is the board as compared with q2. With
// late, change i is the lift of m3's piece from late, read after its
// landing (a slow sweep's order: Nc6-d4 and Ne2xd4 never read on d4,
// ...exd4 read on d4 35 ms before e5 was read emptied).
func (ds *decodeState) chain3(first, i int, p, q2 *chess.Position, m1, m2 chess.Move, w *view, pb physBoard, knocked chess.Bitboard, late chess.Square) bool {
	evs := ds.r.log.evs
	to := m2.To()
	j2 := ds.lastLift(first, i, m2.From())
	if j2 < 0 || j2 <= ds.lastLift(first, i, m1.From()) {
		return false
	}
	var ml chess.MoveList
	q2.GenerateLegal(&ml)
	for _, m3 := range ml.Moves() {
		if m3.To() != to || !ds.allowed(m3, 2) || m3.IsPromotion() && m3.Promotion() != chess.Queen && ds.r.sensor != trace.PieceSensor ||
			late != chess.NoSquare && m3.From() != late || late == chess.NoSquare && ds.lastLift(first, i, m3.From()) <= j2 {
			continue
		}
		q3 := *q2
		q3.MakeMove(m3)
		if w.diff(&q3) != 0 {
			continue
		}
		ds.seq[ds.n], ds.seq[ds.n+1], ds.seq[ds.n+2] = m1, m2, m3
		ds.quick[ds.n], ds.quick[ds.n+1], ds.quick[ds.n+2] = false, false, false
		ds.n += 3
		if ds.gameOver(&q3, knocked) {
			return true
		}
		ds.search(i+1, q3, pb, evs[i].T, to, knocked)
		if ds.found || ds.over() {
			return true
		}
		ds.n -= 3
	}
	return false
}

// readBefore reports whether reply m2, a plain move, was read made
// before change i read the landing of the move it answers, that move's
// piece lifted at change j1: its square emptied and its landing filled
// after j1, each the square's last change, within a sweep before i. A
// slow sweep reads the squares in its own order (Bxa7 landed, e6-e5 slid
// 125 ms later, and a 250 ms sweep read e5 filled and e6 emptied before
// a7 filled).
func (ds *decodeState) readBefore(i, j1 int, m2 chess.Move) bool {
	if m2.IsCastling() || m2.IsEnPassant() {
		return false
	}
	evs := ds.r.log.evs
	for _, c := range [2]struct {
		s    chess.Square
		kind trace.Kind
	}{{m2.From(), trace.Off}, {m2.To(), trace.On}} {
		k := ds.lastChange(j1+1, i, c.s)
		if k < 0 || evs[k].Kind != c.kind || evs[i].T-evs[k].T > ds.r.sweepMs() {
			return false
		}
	}
	return true
}

// readNear reports whether reply m2, a plain move, was read made since
// change first, its landing read at most sweepNearMs before change
// landed (the landing of the move it answers): one sweep's readings of
// nearby squares, in the sweep's order, not the hands'.
func (ds *decodeState) readNear(i, first, landed int, m2 chess.Move) bool {
	if m2.IsCastling() || m2.IsEnPassant() || !ds.readBefore(i, first-1, m2) {
		return false
	}
	k := ds.lastChange(first, i, m2.To())
	evs := ds.r.log.evs
	return k >= 0 && k < landed && evs[landed].T-evs[k].T <= ds.r.sweepNearMs()
}

// stoodThrough reports whether piece pc, lifted at change j1, was read
// set down on a square other than to before reply m2's square was read
// emptied, and read gone from there only after: it stood there while the
// reply began, and that was its landing (Rd5 read, then h5-h6, then the
// rook on its way on to g5 read on e5: no Re5 with h6 read before it).
func (ds *decodeState) stoodThrough(j1, i int, pc chess.Piece, to chess.Square, m2 chess.Move) bool {
	evs := ds.r.log.evs
	off := ds.lastChange(j1+1, i, m2.From())
	if off < 0 {
		return false
	}
	return ds.setDownElsewhere(j1, off, pc, to, func(k int) bool {
		l := ds.lastChange(k, i, rotSquare(evs[k].Square, ds.r.orient))
		return l > off && evs[l].Kind == trace.Off
	})
}

// promoGuess is the promotion piece a board that cannot see it assumes:
// the one an input chose, else the queen.
func (r *Reconstructor) promoGuess() chess.PieceType {
	if r.promo != chess.NoPieceType {
		return r.promo
	}
	return chess.Queen
}

// decode publishes what the ordered decoder finds when nothing else
// explains a still board: of at least minN plies. On a board still for
// the commit timer minN is 3: a move and a piece its hand knocked where a
// legal move could have put it, which may still be put back, decode as
// two plies (on the corpus a dozen such knocks were published and
// retracted); the searches there reach six plies, so the decoder is for
// runs longer than that. On a board still for the alert timer any run
// counts. On occupancy boards only runs longer than the catch-up reaches
// (maxCatchAhead): a shorter one it found and priced, and a knocked piece
// there looks like a move, which the decoder does not weigh (two
// injected knocks of the corpus were decoded as moves). ok reports
// whether it published.
func (r *Reconstructor) decode(t int64, minN int, out []Output) (_ []Output, ok bool) {
	// Once an alert has stopped the game without a clock, a guess is
	// better than a board gone dark: every later move would be lost with
	// it.
	lost := r.state == stateIrregular && !r.clock
	if !r.decodable() {
		return out, false
	}
	if r.sensor == trace.Occupancy && !lost && !r.decodeShort {
		// (Shorter runs are the still board's searches', which weigh
		// what a hand may have knocked; but not where the alert timer
		// would alert more than one piece: Bh7 Nc4 Rd3, the knight's
		// hand knocking c5 onto b6, were alerted as eight squares.)
		minN = max(minN, maxCatchAhead+1)
	}
	m, ok := r.decodeOrdered()
	if !ok {
		// (Nothing from the published game: the last decision's plies
		// taken back, over its changes too.)
		// (On colour and piece boards also as many plies, one amended:
		// Qc7-f4 slid over d6, read there as c7 emptied, Qd6 published.)
		b, bok := r.decodeBack()
		if bok && (b.n-b.back >= minN || r.sensor != trace.Occupancy && b.n >= b.back && r.moverOnly() || r.movedOnFirst(&b) || r.backOnAlert(&b)) {
			return r.adoptBack(&b, t, out), true
		}
		if f, fok := r.decodeFewer(); fok {
			return r.adoptBack(&f, t, out), true
		}
		if !bok {
			if b, bok = r.movedOnDirect(); bok {
				return r.adoptBack(&b, t, out), true
			}
			// (Two plies beyond the published game at least: one more
			// read so is as likely a piece knocked onto the next square,
			// which the alert timer judges, Be6 knocked onto d6 read as
			// 14... Bd7 and 16... Qd6.)
			if b, bok = r.decodeBack2(); bok && b.n-b.back >= max(minN, 2) {
				return r.adoptBack(&b, t, out), true
			}
		}
	}
	if ok && m.n < minN && r.decodeLeft && r.sensor == trace.Occupancy && !lost && r.decodeHand && m.knocked == 0 && r.handMoveLast(&m) {
		// (On the alert timer's board, two squares out of place that
		// the decoder reads as the last ply, a hand's move: lifted a
		// reply's time after the move before landed, away from it, and
		// carried. 16. a4, lifted 1.4 s after 15... Be6 landed: Qb3 Be6
		// were published and a2-a4 alerted as Black's knock.)
		minN = m.n
	}
	if ok && m.inHand {
		// (The searches explain no board with a piece in the hand.)
		minN = 1
	}
	if !ok || m.n < minN {
		return out, false
	}
	return r.adoptDecoded(&m, t, out), true
}

// seenMoved reports whether moves, plies from the published game ending
// in position after, leave the raw board as it reads and move the piece
// of each square of gone (game squares an alert would name as emptied)
// as the board's log shows: the square it lands on emptied, then the
// piece lifted, then that square filled. A piece knocked off the board
// shows no such landing; a piece that captured victim first, or moved
// onto a square that a capture nobody saw had just emptied, does (17...
// Qxg3 after 17. Rxf3 unseen; 25. cxb5 unseen, then 25... c4). On the
// squares of far, where no hand the alert's reading has at work could
// have knocked the piece, its lift and then its landing are enough
// (15. Rf5, f1 lifted and f5 filled, read as 14... Qf5 and the f1 rook
// knocked off). With withPrev the last decision's changes count too
// (plies it published taken back).
func (r *Reconstructor) seenMoved(moves []chess.Move, after *chess.Position, gone, far chess.Bitboard, withPrev bool) bool {
	for _, mv := range moves {
		// (Every ply's piece seen lifted: not plies invented around
		// the one that reads the board, their pieces never read
		// leaving: 5. Ne5 d3 6. Nxc6 dxc2 7. Nd4+ for 5. Nxd4 Nxd4??,
		// the pinned knight's illegal capture.)
		if !r.logShows(withPrev, logStep{mv.From(), trace.Off}) {
			return false
		}
	}
	for g := gone; g != 0; g &= g - 1 {
		a := g.First()
		ok := false
		for _, mv := range moves {
			to := mv.Landing()
			if mv.From() == a && !mv.IsCastling() && (r.logShows(withPrev, logStep{to, trace.Off}, logStep{a, trace.Off}, logStep{to, trace.On}) ||
				far.Has(a) && landsAlone(moves, to) && r.logShows(withPrev, logStep{a, trace.Off}, logStep{to, trace.On})) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	var w view
	r.raw.makeView(r.orient, &w)
	return w.diff(after) == 0
}

// landsAlone reports whether to is the landing of one ply of moves only:
// its filling read is that ply's (not 3... Qxd6, the knocked queen's
// square and d6's filling by 3. d6 read as the queen taking there).
func landsAlone(moves []chess.Move, to chess.Square) bool {
	n := 0
	for _, m := range moves {
		if m.Landing() == to {
			n++
		}
	}
	return n == 1
}

// logStep is a change of a game square: emptied (trace.Off) or filled.
type logStep struct {
	sq   chess.Square
	kind trace.Kind
}

// logWindow is the board's log in order: with withPrev the last two
// decisions' changes before it (the one before the last only where it
// follows on), then the changes since.
func (r *Reconstructor) logWindow(withPrev bool) [3][]logEvent {
	var prev, prev2 []logEvent
	if withPrev {
		prev = r.log.prev
		if r.log.prev2OK {
			prev2 = r.log.prev2
		}
	}
	return [3][]logEvent{prev2, prev, r.log.evs}
}

// logShows reports whether the board's log (and with withPrev the last
// two decisions' changes before it) shows the changes of steps in that
// order, others between them.
func (r *Reconstructor) logShows(withPrev bool, steps ...logStep) bool {
	k := 0
	for _, evs := range r.logWindow(withPrev) {
		for _, e := range evs {
			if e.Square == unrotSquare(steps[k].sq, r.orient) && e.Kind == steps[k].kind {
				if k++; k == len(steps) {
					return true
				}
			}
		}
	}
	return false
}

// backOnAlert reports, on an occupancy board at the alert timer, whether
// b, decodeBack's sequence, makes two plies or more beyond those it takes
// back and ends exactly where the board is, none of its squares excused:
// the alternative is pieces out of place, and a reading of every change
// in order, the last decision's too, is likelier than that (10... dxc6
// 11. Qe1 Nd7, a pawn knocked onto b6 and put back among them, read from
// the still board as Nxe4 Qe1, the knight's capture unseen; 12. d3 and
// 12... O-O then alerted as White moving twice). A single piece knocked
// onto a square a move reaches looks like one ply, not two.
func (r *Reconstructor) backOnAlert(b *catchMatch) bool {
	if r.sensor != trace.Occupancy || b.n-b.back < 2 || b.knocked != 0 && !b.putBack || !r.decodeLeft && !r.readsPassed(b) {
		return false
	}
	var v view
	r.raw.makeView(r.orient, &v)
	return v.diff(&b.pos) == 0
}

// readsPassed reports whether b, decodeBack's sequence, moves a piece to,
// from or over a square the last decision's plies left filled and
// emptied again with no move of theirs (passedUnread): it reads changes
// the published plies do not, which the still board's searches, blind to
// their order, may never come back to.
func (r *Reconstructor) readsPassed(b *catchMatch) bool {
	passed := r.passedUnread()
	if passed == 0 {
		return false
	}
	return passed&playedSquares(&r.befores[len(r.plies)-b.back], b.moves[:b.n], true) != 0
}

// decodable reports whether the game is in a state where decode may
// publish: in play, set up from a known start, or, without a clock,
// stopped by an alert (a guess is better than a board gone dark).
func (r *Reconstructor) decodable() bool {
	return r.state == statePlay || r.state == stateIrregular && !r.clock || r.state == stateSetup && r.sawStart
}

// adoptDecoded publishes m, the ordered decoder's sequence from the
// published game.
func (r *Reconstructor) adoptDecoded(m *catchMatch, t int64, out []Output) []Output {
	r.knockPly, r.knocked = 0, m.knocked
	if m.knocked != 0 {
		// The piece left knocked off is named as of the move whose hand
		// knocked it.
		r.knockPly = len(r.plies) + m.knockAt + 1
	}
	var last logEvent
	if m.inHand {
		last = r.log.evs[len(r.log.evs)-1]
	}
	out = r.adoptCatch([]catchMatch{*m}, 0, t, out)
	if m.inHand {
		// (The piece in the hand is the next move's evidence.)
		r.rec.off(last.Square, last.T)
	}
	return out
}

// handMoveLast reports whether the last ply of m was a hand's move, not
// a knock of the hand before: its piece lifted minReplyMs or more after
// the ply before it landed, away from that landing, and set down a quick
// carry or more after its lift (as logged).
func (r *Reconstructor) handMoveLast(m *catchMatch) bool {
	if m.n < 2 {
		return false
	}
	last, prev := m.moves[m.n-1], m.moves[m.n-2]
	if last.IsCastling() || chess.KingAttacks(prev.Landing()).Has(last.From()) {
		return false
	}
	evs := r.log.evs
	find := func(s chess.Square, k trace.Kind) int64 {
		raw := unrotSquare(s, r.orient)
		for j := len(evs) - 1; j >= 0; j-- {
			if evs[j].Square == raw && evs[j].Kind == k {
				return evs[j].T
			}
		}
		return -1
	}
	land, lift, on := find(prev.Landing(), trace.On), find(last.From(), trace.Off), find(last.Landing(), trace.On)
	return land >= 0 && lift >= land+minReplyMs && on >= lift+minQuickCarryMs
}

// knockReach is where the hand of the move decoded last, which landed on
// prevLand, may have knocked a piece: next to the landing, and on the
// alert timer's decoding also next to where that hand passed (the knight
// from g1 to f3 knocking the h2 pawn).
func (ds *decodeState) knockReach(prevLand chess.Square) chess.Bitboard {
	b := chess.KingAttacks(prevLand)
	if ds.r.decodeLeft && ds.n > 0 {
		b |= handNear(ds.seq[ds.n-1])
	}
	return b
}

// knockWindow is how long after the move decoded last was taken a piece
// next to its landing may be its hand's knock: knockMs, and on the alert
// timer's decoding, after a capture taken at its piece's lift (its
// landing unseen, minCarryMs or more later), minCarryMs more (4. Nxd4
// pushing the pawn off, e4 knocked 550 ms after f3 emptied: nothing past
// 3... cxd4 was published, and 16 squares were alerted).
func (ds *decodeState) knockWindow() int64 {
	if ds.r.decodeLeft && ds.n > 0 && ds.liftOnly[ds.n-1] {
		return knockMs + minCarryMs
	}
	return knockMs
}

// handNear is where the hand making move m passes or lets go: its squares,
// the squares between them, and their neighbours.
func handNear(m chess.Move) chess.Bitboard {
	from, land := m.From(), m.Landing()
	b := chess.KingAttacks(from) | chess.KingAttacks(land) | from.Bitboard() | land.Bitboard() | around(chess.Between(from, land))
	if m.IsCastling() {
		b |= chess.KingAttacks(m.To()) | chess.KingAttacks(m.CastlingRookTo())
	}
	return b
}

// knockedNear reports whether game square s, next to where move m from
// p lands and none of its squares, holds a piece in p that was emptied
// among changes first..i within knockMs of change i (m's landing).
func (ds *decodeState) knockedNear(first, i int, p *chess.Position, m chess.Move, s chess.Square) bool {
	r := ds.r
	all, _ := moveSquares(p, m)
	if all.Has(s) || !chess.KingAttacks(m.Landing()).Has(s) || p.PieceAt(s) == chess.NoPiece {
		return false
	}
	evs := r.log.evs
	raw := unrotSquare(s, r.orient)
	for j := i; j >= first; j-- {
		if evs[j].Kind == trace.Off && evs[j].Square == raw {
			return evs[i].T-evs[j].T < knockMs
		}
	}
	return false
}

// endsMove reports, on occupancy boards, whether change i (of the changes
// first..i since the move before) may complete move m from p, and whether
// m is then a capture whose victim nobody saw leave. The board tells only
// which squares are filled, so a move is taken only at a change of one of
// its own squares (its piece set down, or its square left after the piece
// showed on the next: a slide), or at a square it slid over left after
// it showed on its own (slidPast: Ba6-d3 slid over b5 and c4, c4 emptied
// last), not at another piece's touch that happens
// to leave the same squares filled. A capture's victim was seen taken when
// its square was emptied since the move before.
func (ds *decodeState) endsMove(first, i int, p *chess.Position, m chess.Move) (ends, unseen bool) {
	r := ds.r
	evs := r.log.evs
	all, _ := moveSquares(p, m)
	if !all.Has(rotSquare(evs[i].Square, r.orient)) && !ds.slidPast(i, p, m) {
		return false, false
	}
	if m.IsEnPassant() || m.IsCastling() || p.PieceAt(m.To()) == chess.NoPiece {
		return true, false
	}
	raw := unrotSquare(m.To(), r.orient)
	for j := first; j <= i; j++ {
		if evs[j].Kind == trace.Off && evs[j].Square == raw {
			return true, false
		}
	}
	return true, true
}

// mayOrder reports whether inOrder may find a sequence for n moves: not
// when a clock press orders the plies, nor for a single move with few
// events. (Its callers ask first: inOrder's answer is large to copy.)
func (r *Reconstructor) mayOrder(n int) bool {
	return !r.clock && len(r.lines) > 0 && !(n < 2 && len(r.log.evs) < 4*(n+1))
}

// inOrder is the decoder's sequence for moves, found at once from the
// published position by a search that weighs which squares changed, not
// in which order: the same position after as many plies or more, with
// the moves in the order the changes came. A player's two moves either
// side of the opponent's leave the same board in either order, and plies
// that came back to a position (a repetition) leave no trace on it; only
// the order of the events tells. On colour and piece boards the decoder's
// sequence is also taken when it has as many plies or more, leaves the
// same squares of each colour filled, and no order of the moves made the
// changes (a king and a rook the board cannot tell apart). ok is false
// when the decoder finds no such sequence, or when a clock press orders
// the plies.
func (r *Reconstructor) inOrder(moves []chess.Move) (_ catchMatch, ok bool) {
	n := len(moves)
	if !r.mayOrder(n) {
		return catchMatch{}, false
	}
	end := r.lines[0].pos
	for _, mv := range moves {
		end.MakeMove(mv)
	}
	// The reply's pieces lifted since (the hand that begins it holds
	// them), and one piece of the mover's the reply can take, taken off
	// first: the moves were done before (g5 f5 gxf6 e.p., then f6 taken
	// off for Nxf6).
	evs := r.log.evs
	k := len(evs)
	// replyLifts: the reply's own pieces lifted (the lift replyBegins
	// decides on is not logged yet).
	victim, replyLifts := false, chess.Bitboard(0)
	if r.liftNow != chess.NoSquare && end.ByColor(end.SideToMove()).Has(r.liftNow) {
		replyLifts = r.liftNow.Bitboard()
	}
	for k > 0 && evs[k-1].Kind == trace.Off {
		s := rotSquare(evs[k-1].Square, r.orient)
		if !end.ByColor(end.SideToMove()).Has(s) {
			if victim || r.sensor == trace.Occupancy || !r.canCapture(&end, s) {
				break
			}
			victim = true
		} else {
			replyLifts |= s.Bitboard()
		}
		k--
	}
	if k == 0 {
		return catchMatch{}, false
	}
	r.log.evs = evs[:k]
	defer func() { r.log.evs = evs }()
	same := func(m *catchMatch) bool {
		if r.sensor == trace.Occupancy {
			// (Where the board cannot tell the pieces, a piece moved in
			// two steps reads as a move and another: the same player to
			// move, as the board cannot show.)
			return m.n >= n && (m.n-n)%2 == 0 && m.pos.Key() == end.Key()
		}
		// (Once the reply's own piece is lifted, as many plies more as
		// keep that player to move, unless the lift is the last ply's
		// piece going on: d3 d5 d4, the e4 pawn knocked onto d3 as d2-d4
		// slid over it, is no reading of d4 d5 with the knight on b1
		// lifted.)
		if (m.n-n)%2 != 0 && m.n > 0 && replyLifts&^m.moves[m.n-1].Landing().Bitboard() != 0 {
			return false
		}
		return m.n >= n && samePlacement(&m.pos, &end)
	}
	m, mok, q, qok := r.decodeBoth()
	ok = mok && same(&m)
	// Replies begun sooner than a reply is ready may show more plies
	// that came back to the same position: the changes they explain
	// are a stray hand's otherwise.
	if qok && same(&q) && (!ok || q.n > m.n) {
		m, ok = q, true
	}
	// The same squares of each colour: the board cannot tell the lines
	// apart.
	seen := func(m *catchMatch) bool {
		return m.n >= n && m.pos.ByColor(chess.White) == end.ByColor(chess.White) && m.pos.ByColor(chess.Black) == end.ByColor(chess.Black)
	}
	if !ok && (mok && seen(&m) || qok && seen(&q)) && r.sensor != trace.Occupancy && !r.replays(moves) {
		// The moves leave the board as it is, but no order of theirs
		// made its changes, and the decoder's do, a piece the board
		// cannot name placed elsewhere (the king lifted first and set on
		// g1, the rook from h1 on f1, then that rook on e1: O-O and Re1,
		// not Rg1 with the king touched).
		if !mok || !seen(&m) {
			m = q
		}
		return m, true
	}
	if ok && m.n > n && r.sensor != trace.Occupancy && r.landsOverlap(m.moves[:m.n]) {
		return catchMatch{}, false
	}
	if ok && m.n > n {
		r.pausedLast(&m)
	}
	return m, ok
}

// searchedCheaper reports whether c, the searches' reading, is to be
// kept over moves, the decoder's reading of as many plies to the same
// position in another order: on occupancy boards, when the searches
// priced moves higher than c and c's moves made the changes in the order
// they came as well. The decoder takes the first reading it finds, and
// the capture a player would choose first is tried first (7. b4, then
// ...cxd4 with the victim swapped unseen and 8. cxd4 with d4's pawn seen
// lifted: read as cxb4 cxb4, d4's changes a touch, the same position).
func (r *Reconstructor) searchedCheaper(c *cand, moves []chess.Move) bool {
	if r.sensor != trace.Occupancy || c.n != len(moves) || slices.Equal(c.moves[:c.n], moves) {
		return false
	}
	for i := range r.cands {
		o := &r.cands[i]
		if o.line == c.line && o.back == c.back && !o.stale && slices.Equal(o.moves[:o.n], moves) {
			return o.cost > c.cost && r.replays(c.moves[:c.n])
		}
	}
	return false
}

// landsOverlap reports whether moves, the decoder's reading of the log
// from the published position, have a ply whose landing was read before
// the landing of the ply before it: both hands on the board at once. A
// reading with more plies than the searches' is not taken so on colour
// and piece boards (c7-c5 sliding over c6, its hand knocking the queen
// from c4 onto c3, put back later: read c6 Qc3 c5 Qc4, the pawn landing
// on c5 188 ms before the queen on c3, and five false alerts followed).
func (r *Reconstructor) landsOverlap(moves []chess.Move) bool {
	evs := r.log.evs
	at := -1 // the change at which the ply before was read landing
	for _, m := range moves {
		to := unrotSquare(m.Landing(), r.orient)
		next := -1
		for i := at + 1; i < len(evs); i++ {
			if evs[i].Kind == trace.On && evs[i].Square == to {
				next = i
				break
			}
		}
		if next < 0 {
			// (Read landing only before the ply before it was: overlap.
			// Never read landing: a swap faster than a sweep, no order.)
			for i := at; i >= 0; i-- {
				if evs[i].Kind == trace.On && evs[i].Square == to {
					return true
				}
			}
			return false
		}
		at = next
	}
	return false
}

// pausedLast drops the last ply of m, a sequence the decoder read beyond
// the moves searched, when the piece it moved is the one being lifted
// now from where it landed and could go on along its line: a slide
// paused there, still under way (Qd2-d4 paused 637 ms on d3, lifted on
// to d4: Qd3 was published, and the queen's going on read as a knock).
func (r *Reconstructor) pausedLast(m *catchMatch) {
	if r.sensor == trace.Occupancy || r.liftNow == chess.NoSquare || m.back != 0 {
		return
	}
	p := r.lines[0].pos
	for _, mv := range m.moves[:m.n-1] {
		p.MakeMove(mv)
	}
	last := m.moves[m.n-1]
	pc := p.PieceAt(last.From())
	if last.To() != r.liftNow || last.IsCastling() || last.IsPromotion() || p.PieceAt(last.To()) != chess.NoPiece {
		return
	}
	// The square beyond, on the line from its square: free to go on to.
	beyond := chess.NoSquare
	for b := chess.KingAttacks(last.To()); b != 0; b &= b - 1 {
		if s := b.First(); slidOnLine(pc.Type(), last.From(), last.To(), s) {
			beyond = s
		}
	}
	if beyond == chess.NoSquare || p.ByColor(pc.Color()).Has(beyond) {
		return
	}
	m.n--
	m.pos = p
}

// landReadLag is how much later than the piece landed a sweep may read
// it: on colour and piece boards, whose sweeps take 100-250 ms, up to a
// sweep; occupancy boards scan too fast to matter.
func (r *Reconstructor) landReadLag() int64 {
	if r.sensor == trace.Occupancy {
		return 0
	}
	return r.sweepMs()
}
