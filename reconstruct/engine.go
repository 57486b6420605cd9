package reconstruct

import (
	"fmt"
	"strings"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/rules"
	"github.com/boardd/boardd/trace"
)

// Limits and costs. Costs are negative log-likelihoods in tenths: an
// explanation of the board is preferred when it needs fewer unlikely
// things to have happened.
const (
	maxLines   = 16  // hypotheses kept about the recent moves
	minReplyMs = 250 // no reply starts sooner after the move it answers
	// minReadyReplyMs: ... unless the player had it ready and begins it
	// away from the move's landing, never sooner than this.
	minReadyReplyMs = 120
	// knockMs: a piece next to a move's landing lifted sooner than this
	// after the move may be one its hand knocked (the hand withdraws
	// within 150 ms, a 250 ms sweep may report it that much later), so
	// it is not taken for the reply's first lift.
	knockMs    = 500
	maxTouchMs = 350 // a piece touched down on its way rests there at most this long
	minCarryMs = 400 // nor a piece lands sooner after it is lifted (when its landing is unseen)
	// fastPaceMs: a move begun this soon after the move before it is
	// bullet play, whose replies come as soon as a knock would.
	fastPaceMs = 1000
	// minQuickCarryMs: the quickest a hand carries a piece to a square
	// next door and sets it down (a player in a hurry).
	minQuickCarryMs = 100
	// knockFlightMs: a knocked piece that falls onto the next square lands
	// within this of leaving its own (toppling and rolling 40-300 ms); a
	// hand may carry a piece that far as fast, so the decoder takes it for
	// a knock only where no moves explain the changes.
	knockFlightMs = 300
	// standMs: a piece set down on an empty square and left there this
	// long was put there, not touched down on the way to another (120 to
	// 350 ms) nor seen there between two scans.
	standMs        = 600
	minTouchMs     = 120 // a piece touched down on the way to another square rests there at least this long
	slideSlackMs   = 300 // a slid piece can show on its destination this long before its square empties
	bounceMs       = 10  // a contact chatters back and forth within this
	maxResync      = 6   // plies searched to re-synchronise: 4 always, 5 and 6 within the budget
	maxResyncLines = 4   // hypotheses re-synchronised from, best first
	resyncBudget   = 400000

	costMissedLift      = 20 // a capture whose victim was never seen lifted
	costUnseen          = 40 // in a re-synchronised sequence, a piece's lift or landing on an empty square never seen
	costRecapture       = 3  // ... made less unlikely when it recaptures
	costExchange        = 2  // ... per pawn the exchange on its square loses (less per pawn it wins)
	costCheckingCapture = 5  // ... and less when it gives check
	costMatingCapture   = 10 // ... or mate
	costStrayNear       = 1  // a touched square on the moving piece's path
	costStrayFar        = 5  // a touched square nothing explains
	costCaptureTouch    = 15 // ... more when it looks like the capture the move could have made there
	costPromoN          = 15 // an under-promotion without a promote input
	costPromoRB         = 25
	costPromoOther      = 40 // a promotion other than the one the input chose
	costBack            = 30 // per ply taken back
	costResyncPly       = 15 // per ply beyond the first found by re-synchronising
	costFramePly        = 5  // ... when a full frame jumped over the moves (a restart)
	costOverlap         = 60 // a reply begun before the move it answers was on the board
	costQuickReply      = 15 // ... or sooner than a reply, but away from where it landed
	costStood           = 30 // ... more when a piece that could move there was set down on it and stood (two plies)
	costOrder           = 2  // a move of a sequence whose piece was lifted before the one before it
	costMisplaced       = 40 // per square that differs from the explanation
	costMisplacedN      = 30 // ... when the piece fell onto a neighbouring square
	costMisplacedOrder  = 15 // ... a piece seen landing before it was lifted
	costFromNowhere     = 15 // ... a square filled that no emptied square explains
	costIllegal         = 50 // an illegal move by the player to move
	costUnmovable       = 20 // the reply's first lift of no piece of the player to reply that can move, nor one they can capture
	uncertainGap        = 10 // alternatives this close make a published move uncertain
	pruneGap            = 50 // alternatives this much worse are dropped
	missedTargetGap     = 22 // the most another target of a capture nobody saw land is kept worse (under costMissedLift+costStrayFar)
	// maxRevive: the published plies looked back over for a capture whose
	// victim nobody saw, when the board makes no sense otherwise.
	maxRevive = 40
	// maxHiddenBack: the published plies looked back over for a castling
	// the board cannot show whose knocked piece is put back
	// (hiddenCastlingLine).
	maxHiddenBack = 3
	// misplacedAltGap: a move with other misplaced squares at most one
	// fallen piece dearer than the best is kept as a hypothesis too.
	misplacedAltGap = costMisplacedN
	// deadBudget is the dead-position analyser's node budget per side: a
	// locked pawn chain is proved dead in a few hundred nodes, and the
	// worst case stays a few milliseconds.
	deadBudget = 2000
)

type gameState uint8

const (
	stateSetup     gameState = iota // before the first move: waiting for the start set-up
	statePlay                       // a game in progress
	stateIrregular                  // after an illegal move: waiting for the position before it
	stateEnded                      // the game is over; waiting for a new set-up
)

// timers fired since the board last changed.
const (
	firedSettle uint8 = 1 << iota
	firedCommit
	firedAlert
)

// line is one hypothesis about the game: its moves from the start and the
// position they reach.
type line struct {
	moves []chess.Move
	pos   chess.Position
	cost  int
	// stale: the line returned to a history set aside (keepStale), in
	// which the move taken back, illegal there, was illegal (ply index
	// illegalAt).
	stale     bool
	illegalAt int
	illegal   chess.Move
}

// plyRec is a published move (the position before it is in befores, a
// slice without pointers that the garbage collector need not scan). The
// small fields come last, which keeps it at 96 bytes.
type plyRec struct {
	t        int64
	shown    int64 // when the move as it stands was published (t, or its amendment's)
	san, uci string
	// alts: for a move published with misplaced pieces, the other moves
	// that explained the board nearly as well with other squares out of
	// place (a capture nobody saw taken, and a piece knocked onto the
	// square a quiet move would reach).
	alts      []chess.Move
	move      chess.Move
	uncertain bool
	blind     bool // a capture whose victim was never seen lifted
	// slidFirst: on occupancy boards, a one-square move whose square
	// filled before its own emptied (read as a slide), published with the
	// capture nobody saw before it, or read landed before the move before
	// it: the pair may as well be another move landing there and its hand
	// knocking this piece (guessed).
	slidFirst bool
	// framed: published from a board a full frame jumped to (a restart),
	// whose moves nobody saw made.
	framed bool
	// blindPromo: a promotion whose piece neither the sensors nor an
	// input told (the queen assumed).
	blindPromo bool
	// landSeen: a colour or piece sensor saw a piece of the mover's
	// colour set down on the move's landing while it was made.
	landSeen bool
	// step: what knockRevert asks of the move's hand, without a clock.
	step stepRec
}

// stepRec is kept per published ply without a clock, small (the ply
// record stays at 88 bytes): seen, the squares next to the move's landing
// where a piece was set down before the landing filled, and lifted again
// (a knock from one onto the landing may have been read as the move:
// knockRevert), and stood, those where it stood, not paused on its way,
// as masks over the landing's neighbours (nbMask); lift and land, when
// the move's hand began (its piece last lifted from its square, or its
// victim taken off first) and last set its piece down on its landing, in
// ms after the ply's t, if known has liftKnown and landKnown (the zero
// stepRec knows nothing).
type stepRec struct {
	seen, stood, known uint8
	lift, land         int32
}

const (
	liftKnown uint8 = 1 << iota
	landKnown
)

// nbMask is b's squares next to s as a mask over KingAttacks(s), in
// square order.
func nbMask(s chess.Square, b chess.Bitboard) uint8 {
	var m uint8
	k := 0
	for a := chess.KingAttacks(s); a != 0; a &= a - 1 {
		if b.Has(a.First()) {
			m |= 1 << k
		}
		k++
	}
	return m
}

// nbSquares is the squares of mask m over KingAttacks(s) (nbMask).
func nbSquares(s chess.Square, m uint8) chess.Bitboard {
	var b chess.Bitboard
	k := 0
	for a := chess.KingAttacks(s); a != 0; a &= a - 1 {
		if m&(1<<k) != 0 {
			b |= a.First().Bitboard()
		}
		k++
	}
	return b
}

// liftT and landT are p.step's times in the game's ms (-1 when not seen).
func (p *plyRec) liftT() int64 { return p.stepTime(p.step.lift, liftKnown) }
func (p *plyRec) landT() int64 { return p.stepTime(p.step.land, landKnown) }

func (p *plyRec) stepTime(d int32, k uint8) int64 {
	if p.step.known&k == 0 {
		return -1
	}
	return p.t + int64(d)
}

// cand is one explanation of the board: from hypothesis line (after taking
// back the last back plies of it) the moves made, and its cost.
type cand struct {
	line   int
	back   int
	n      int
	moves  [maxResync + 1]chess.Move
	cost   int
	missed bool // a capture whose victim was never seen lifted
	// stale: line indexes r.stale, a history set aside, and back is how
	// many published plies lie beyond it.
	stale bool
	// ordered: the ordered decoder's reading, which replaced the
	// searches' (explainNow): the last ply amended to where its piece was
	// moved on before the reply (movedOnFirst), or plies where the
	// searches read the last ply changed (changedLast).
	ordered bool
}

// changes reports whether adopting c changes the published game: moves
// to add, moves to take back, or another hypothesis's history (the board
// proves it: the published moves are amended).
func (c *cand) changes() bool { return c.n > 0 || c.back > 0 || c.line != 0 }

// fastResyncBudget bounds the search for five and six plies without a
// full frame (fast play on occupancy boards).
const fastResyncBudget = 20000

// slideLiftMs: a piece slid to the next square (whose readings overlap)
// shows there usually no more than a scan or so before its own square
// empties: the bound where nothing later tells a slide from another
// piece's landing (a held victim's lift, which the next lift bears out,
// allows slideAheadMs).
const slideLiftMs = 25

// slideAheadMs: how long before its own square empties a piece slid
// onto the next square may show there when a hand drags it: a square
// reads occupied for 0.8-1.4 of the 70-160 ms the piece spends on it,
// overlapping its neighbour by up to 64 ms, and a scan more (Rd1-d8
// capturing, d2 read 39 ms before d1 emptied: the victim's lift was
// dropped, and three plies were published late together).
const slideAheadMs = 80

// heldPress is a press judged later, with the one after it (chain).
type heldPress struct {
	side chess.Color
	t    int64
	clk  int64
	raw  physBoard // the board when the next press came
}

// maxChain bounds the presses held in a chain: four plies, each taken
// before it was read, is as far as the fastest hands were seen to go.
const maxChain = 3

// heldMove is a move that stood still on the board until a change that
// may be the reply's first or the mover's hand going on: a piece of its
// player lifted that the opponent could capture (the reply's victim
// removed first, or a touch-down on the way), or an empty square filled
// next to an opponent's piece (a slide begun, or a piece the mover's hand
// knocked), or the opponent's piece next to the move's landing lifted
// soon after it (the reply, or a piece the mover's hand knocked). The next
// change tells: the opponent's piece that can capture on the emptied
// square lifted, the opponent's piece next to the filled one lifted, or
// the piece lifted next to the landing set where it can move (or the
// piece it can capture lifted), is the reply (the move is adopted as the
// board showed it before); anything else is not.
type heldMove struct {
	ok         bool
	on         bool         // a square filled, else lifted
	near       bool         // a lift next to the move's landing, soon after it
	again      bool         // ... followed by the lift of another piece of the same side (on: of the other side, knocked)
	knocked    chess.Square // on: the raw square of that lift
	landing    chess.Square // where the move landed (game coordinates)
	sq         chess.Square // the raw square
	t          int64        // when
	lastChange int64        // when the move's board was complete
	landT      int64        // when the move's landing was last filled
	refill     int64        // when the lifted square was filled again (0: not)
	slid       int64        // when a square a capturing piece slides across first was filled (0: not)
	slidSq     chess.Square // ... the raw square
	best       int
	cands      []cand // the explanation of that board
	plies      int    // published plies then
	after      chess.Position
	knock      chess.Bitboard // squares the move's hand knocked (knockedMove)
	knockOr    bool           // ... while another knock was as likely, the lift its knocked piece picked up
	own        bool           // a lift of the mover's piece, long after the move
	quick      bool           // near: a lift sooner than minReplyMs after the last change (quickReplyLift)
	landingUp  bool           // quick, again: the moved piece taken up from its landing next (second)
	// on: a square the sliding piece crossed before the one held (raw),
	// and when it was filled (0: none).
	crossed  chess.Square
	crossedT int64
	// near, again: the raw square of the other piece of the player to
	// reply lifted after the held one, and when (0: none).
	second  chess.Square
	secondT int64
	// capturer: the raw square and time of the lift of a piece that can
	// capture the held one, lifted after the moved piece was taken up
	// from its landing within a touch-down (0: none): where the held piece
	// goes next tells whether that lift was the reply's.
	capturer  chess.Square
	capturerT int64
	// ... and where that piece was seen fallen, next to its square, and
	// when (0: not seen).
	fell  chess.Square
	fellT int64
}

// movesCache holds the legal moves of one position.
type movesCache struct {
	key uint64
	ok  bool
	ml  chess.MoveList
}

// Reconstructor turns sensor and clock events into moves, corrections,
// alerts and notes. It is not safe for concurrent use; one per board.
type Reconstructor struct {
	cfg Config
	// spent: the states the decoder has visited for the change or timer
	// at hand (decisionBudget).
	spent  int
	timing Timing
	sensor trace.Sensor
	clock  bool
	start  chess.Position

	raw      physBoard
	orient   uint8 // quarter turns of the board (raw -> game coordinates)
	orientOK uint8 // before the first move: orientations the set-up fits (bit q)
	rec      record
	v        view // raw in game coordinates (makeView)
	// rawVer counts changes of raw; v shows raw as it was at viewRaw,
	// turned viewOrient.
	rawVer, viewRaw uint32
	viewOrient      uint8
	viewOK          bool
	begun           bool

	state      gameState
	lastChange int64
	lastSq     chess.Square // the raw square of that change (NoSquare: a frame)
	fired      uint8

	lines   []line
	stale   []line // a history set aside (keepStale)
	plies   []plyRec
	pub     []chess.Move     // the moves of plies, for a quick comparison
	befores []chess.Position // befores[i] is the position before plies[i]
	// tip is the position after the published moves when there are
	// tipPlies of them (publish).
	tip      chess.Position
	tipPlies int
	// stepped: ply stepped.ply was amended from stepped.orig to a move
	// of the same piece next door (a piece moved on, or a knock read so);
	// -1 when none (knockRevert).
	stepped struct {
		ply  int
		orig chess.Move
	}

	prov    chess.Move // provisional move shown (clock mode), NoMove if none
	provKey uint64     // the position the provisional move was made in
	provN   notation
	provPly int
	provT   int64
	pending bool // a press waits for the board to settle
	// pressAhead: until when the pending press waits for the presser's
	// hand, a moment behind it (earlyPressMs), even on a still board.
	pressAhead int64
	// pressBlank: the board showed no change from the game at the
	// pending press (the presser's hand still to come, or no move).
	pressBlank bool
	// pressBlind: the pending press waits, on an occupancy board, for
	// a piece that a capture nobody saw may instead have in the hand.
	pressBlind bool
	// blindOn: the raw board before a square filled during pressBlind's
	// wait (blindOnSq, at blindOnT), a landing of the piece in the hand
	// or a reply's piece pushed there.
	blindOn   physBoard
	blindOnSq chess.Square
	blindOnT  int64
	// blindVictim: the raw board before an opponent's piece the piece
	// in the hand can take was lifted during pressBlind's wait
	// (blindVictimSq), no landing read yet.
	blindVictim   physBoard
	blindVictimSq chess.Square
	blindVictimT  int64
	// pressHeld: the move a waiting press completes, held at the lift of
	// the piece it set down (pressHeldSq; NoSquare: none), liftAfterPress.
	pressHeld    cand
	pressHeldSq  chess.Square
	pressHeldT   int64
	pressHeldRaw physBoard // the board before that lift
	// slideOn: while a move is held, the lift of the opponent's piece
	// on raw square slideSq at slideT, on the held piece's line beyond
	// its landing: the held piece sliding on to take there if the
	// square is filled again in the same reading, else the reply's lift
	// (slideOnLift).
	slideOn bool
	slideSq chess.Square
	slideT  int64
	// pressWait: when a press on a board already still is decided if
	// no change comes first (0: none); see press. pressQuick: then even
	// before the settle, if no change came since the press.
	pressWait  int64
	pressQuick bool
	// inHandUntil: the end of a shorter wait pressInHand found (0: none).
	inHandUntil int64
	// knockPly, knocked: the ply (1-based among the published plies, 0:
	// none) whose hand knocked off the piece on knocked, as the ordered
	// decoder found, for its alert.
	knockPly int
	knocked  chess.Bitboard
	// replyTook: the squares standReply last read as the pressed move's
	// landing from the reply's piece read there (pressedTo).
	replyTook chess.Bitboard
	pressSide chess.Color
	pressT    int64
	// chain: the presses before the pending one, sides alternating,
	// each made while its move's piece was still not read down
	// (pressInHand): taken by the next move's hand before any sweep read
	// it where it landed (e5 fxe5 Bxe5, each pressed). All are judged
	// together (judgePress).
	chain     []heldPress
	pressClk  int64             // the presser's clock after the press (ms), -1 if unknown
	pressFell []rules.ClockFlag // flags that fell before the press
	promo     chess.PieceType   // promotion piece chosen by input, not yet used
	promoT    int64
	// unreplacedPly: the ply of a promotion alerted with its pawn still
	// on the last rank, under Laws that let the player choose the piece
	// then (1997); 0: none.
	unreplacedPly int
	// edition and gameType: the Laws the alerts are judged by (Config).
	edition, gameType string

	overlay chess.Bitboard // squares accepted either way after a misplaced-pieces alert
	// overlayRef: what the game had on each overlay square when it was
	// accepted (excused).
	overlayRef [64]chess.Piece
	// overlayFrom: the first published ply the open overlay may have come
	// with (the move published with its alert); overlayAfter: the plies
	// published when it was opened. Pieces still out of place after both
	// players moved on were no knock (staleOverlay).
	overlayFrom, overlayAfter int
	staleOv                   int      // staleOverlay during a catch-up
	pressedAt                 [2]int64 // each side's last clock press (board time)
	// changedAt: when each sensor square last changed, kept across
	// decisions (the record forgets at each).
	changedAt [64]int64
	sawStart  bool  // the start set-up has stood on the board
	log       evLog // the square changes since the published game changed (decode.go)
	// deepResync: the decision under way is the alert timer's, on a
	// board long still (resync searches five and six plies then).
	deepResync bool
	// judgingPress: the decision under way is a clock press's, whose
	// side says who made the last move (resync searches on past
	// sequences that end with the other side's).
	judgingPress bool
	// catchPressed: the catch-up under way follows a clock press
	// (contradicted).
	catchPressed bool
	// decodeLeft: the decision under way is the alert timer's, on a board
	// long still: the decoder may leave a piece knocked off as a move
	// landed off the board (decode.go).
	decodeLeft  bool
	decodedLeft bool // ... and the alert timer runs again for what it left
	// decodeAsSeen: the decoder reads the order of a board the searches
	// already explain: a piece pushed next door as the last plies is the
	// move they read it as too, not a knock to wait for (movesOnLast).
	decodeAsSeen bool
	// decodeHandLate: the decoder may end with one piece of the player to
	// move lifted before the last ply's landing was read (replyInHand).
	decodeHandLate bool
	// swapOn: while Feed feeds a swapped square's emptying, the filling
	// that follows it in the same moment.
	swapOn *trace.Event
	// catchKeep: the catch-up under way may not take published plies
	// back: the board shows an illegal move of the player to move, which
	// the arbiter is told of (Qe3 Qxe3 then f2-g3 into nowhere, caught up
	// as Qg3 Qe3 fxe3: the illegal move went unalerted, and when the pawn
	// was put back the rest of the game went dark).
	catchKeep bool
	// catchSeen: the catch-up under way runs at the alert timer on an
	// occupancy board against these squares read empty out of place (not
	// an illegal move): plies found that move their pieces as the board
	// saw are taken at a higher price (seenMoved).
	catchSeen chess.Bitboard
	// catchIll: ... or against this move read illegal, made as a ply of
	// the plies found (seenCatch).
	catchIll chess.Move
	// decodeShort: ... and the inexact explanation leaves more than one
	// piece out of place: a short decoded run is taken on occupancy
	// boards too (decode).
	decodeShort bool
	// decodeHand: ... and it leaves two squares out of place (handMoveLast).
	decodeHand bool
	setUp      chess.Position // the set-up that starts a new game (Config.SetUp)
	alertKey   uint64         // board the last irregularity alert was about
	endNoteKey uint64         // board last noted as changed after the end
	resyncKey  uint64         // board a re-synchronisation last failed on
	reviveKey  uint64         // board the alternatives of blind captures were last revived for
	catchKey   uint64         // board (with the published plies and the cost allowed) a catch-up last failed on or acted on
	catchBuf   []catchMatch
	relocSeen  map[uint64]struct{} // positions a relocation search visited (catchState.reloc)
	backBuf    []logEvent          // decodeBack's changes
	// backMemo: decodeBack's last reading, for decodeFewer to ask of the
	// same changes.
	backMemo struct {
		key [4]int64
		m   catchMatch
		ok  bool
	}
	earlyBuf []logEvent // movedOnDirect's, the reply's read early first

	// silent: squares of the overlay that the hand of a move knocked, the
	// move published as the reply began (knockedMove) and the squares not
	// alerted yet: the piece is usually put back while the reply is made.
	// They are alerted as of that move (silentPly, by silentSide, the
	// game then silentAfter) if the board stands still AlertMs with them
	// still out of place.
	silent      chess.Bitboard
	silentPly   int
	silentSide  chess.Color
	silentAfter chess.Position
	// knockOr: knockedMove took its move as the reply's victim lifted,
	// where another knock as likely had that lift its knocked piece
	// picked up.
	knockOr bool

	clk            gameClock
	judge          Judge
	illegal        [2]int // completed illegal moves per side, for the penalty ladder
	flagged        [2]bool
	released       chess.Move
	relPicked      bool // the released move's piece was picked up again
	result, reason string
	endDisputed    bool // the move that ended the game has a close alternative

	nbuf []byte          // notation being written
	fen  chess.FENWriter // the FENs of the outputs, a rank or two new each
	// notes holds the text of the notations written lately, each cut from
	// it rather than allocated alone (they were most of the replay's
	// allocations): a strings.Builder only appends, so the strings cut
	// from it never change.
	notes     strings.Builder
	analyzer  *rules.Analyzer // dead positions; made when first needed
	mcache    [4]movesCache
	fromList  chess.MoveList // oneMove's moves of the pieces that left their squares
	mnext     int
	prices    [4]capturePrices // of the captures a piece nobody saw taking could have made
	pnext     int
	cands     []cand
	candsKept []cand       // keepExplanation's copy of cands while a search reads an edited view
	fallBuf   []fall       // falls' result, reused
	fallMoves []chess.Move // fallsCheaper's copy of the moves it weighs, reused
	ixs       []inexact    // the best inexact explanation of each hypothesis
	ixAlts    []inexact    // moves with misplaced squares, from every hypothesis
	spare     []line
	keptLines []line // replyBegins' hypotheses before a revive
	decisions int    // boards judged (settles, presses, timers)
	held      heldMove
	// notVictim: while the reply's first lift is judged, the held lift
	// before it, of a piece the lifted one cannot take (game squares):
	// no victim taken off first, a piece the mover's hand knocked.
	notVictim chess.Bitboard

	// The last explanation and what it depended on; ver changes whenever
	// the hypotheses, the published moves, the record or the overlay do.
	ver        uint32
	explKey    explainKey
	explBest   int
	explained  bool
	explResync bool // the last explanation was allowed to re-synchronise
	explStood  bool // ... and its best left a piece seen standing unexplained (stoodCost)
	// viewEdit is 0 while v shows raw, else the number (of editSeq) of
	// the edit standReply made to it: explanations are kept per view.
	viewEdit, editSeq uint32
	// liftNow: the game square whose lift replyBegins decides on, not yet
	// logged (pausedLast); NoSquare outside that event's Feed.
	liftNow chess.Square
}

// New makes a Reconstructor for one board and game.
func New(cfg Config) (*Reconstructor, error) {
	if cfg.Sensor > trace.PieceSensor {
		return nil, fmt.Errorf("reconstruct: unknown sensor kind %d", cfg.Sensor)
	}
	r := &Reconstructor{cfg: cfg, timing: cfg.Timing.withDefaults(), sensor: cfg.Sensor, clock: cfg.Clock, liftNow: chess.NoSquare}
	if cfg.Start != nil {
		r.start = *cfg.Start
	} else {
		r.start = *chess.NewPosition()
	}
	r.setUp = r.start
	if cfg.SetUp != nil {
		r.setUp = *cfg.SetUp
	}
	var tc rules.TimeControl
	if cfg.TimeControl != "" {
		var err error
		if tc, err = ParseTimeControl(cfg.TimeControl); err != nil {
			return nil, fmt.Errorf("reconstruct: %w", err)
		}
	}
	r.clk.reset(tc, r.start.SideToMove())
	r.judge, r.edition, r.gameType = cfg.Judge, cfg.Edition, cfg.GameType
	if r.judge == nil {
		if err := checkRulesSettings(cfg.Edition, cfg.GameType); err != nil {
			return nil, fmt.Errorf("reconstruct: %w", err)
		}
		r.judge = &lazyRulesJudge{edition: cfg.Edition, gameType: cfg.GameType, tc: tc}
	}
	r.cands = make([]cand, 0, 64)
	r.befores = make([]chess.Position, 0, 128)
	r.plies = make([]plyRec, 0, 128)
	r.pub = make([]chess.Move, 0, 128)
	r.newGame()
	return r, nil
}

// newGame resets the game to the start position, keeping the board.
func (r *Reconstructor) newGame() {
	r.ver++
	r.stepped.ply = -1
	r.log.reset(&r.raw)
	r.lines = append(r.lines[:0], line{pos: r.start})
	r.stale = r.stale[:0]
	r.plies, r.pub = r.plies[:0], r.pub[:0]
	r.befores = r.befores[:0]
	r.tipPlies = 0
	r.state = stateSetup
	r.orientOK = 1
	r.prov, r.pending, r.promo, r.released = chess.NoMove, false, chess.NoPieceType, chess.NoMove
	r.pressFell = nil
	r.illegal, r.flagged, r.pressedAt = [2]int{}, [2]bool{}, [2]int64{}
	r.overlay, r.silent, r.alertKey, r.resyncKey, r.catchKey = 0, 0, 0, 0, 0
	r.knockPly = 0
	r.sawStart = false
	r.result, r.reason, r.endDisputed = "", "", false
	if !r.begun {
		r.raw.setFromPosition(&r.start, r.sensor)
		r.rawVer++
	}
}

// Position is the game position after the published moves.
func (r *Reconstructor) Position() chess.Position { return r.lines[0].pos }

// StartPosition is the position the game started from.
func (r *Reconstructor) StartPosition() chess.Position { return r.start }

// Moves returns the published moves of the current game (a copy).
func (r *Reconstructor) Moves() []chess.Move {
	out := make([]chess.Move, len(r.plies))
	for i, p := range r.plies {
		out[i] = p.move
	}
	return out
}

// Result is the game's result and why, "" while it is in progress.
func (r *Reconstructor) Result() (result, reason string) { return r.result, r.reason }

// Feed processes one trace event and appends what it leads to to out.
// Events must come in time order. Feed does not allocate unless it
// reports something.
func (r *Reconstructor) Feed(ev *trace.Event, out []Output) []Output {
	r.spent = 0
	if ev.Kind == trace.On && r.swapped(ev) {
		// A square reported filled while it shows another piece: one
		// piece swapped for another between two readings, which some
		// boards report as the new piece alone. It is the square emptied
		// and filled in the same moment, as every decision expects.
		off := trace.Event{T: ev.T, Kind: trace.Off, Square: ev.Square}
		r.swapOn = ev
		out = r.Feed(&off, out)
		r.swapOn = nil
	}
	if r.slideOn {
		out = r.slideOnLift(ev, out)
	}
	out = r.advance(ev.T, out)
	if !r.begun {
		r.begun = true
		r.lastChange, r.lastSq = ev.T, chess.NoSquare
		r.clk.start(ev.T)
		// A trace that starts without a frame starts from the declared
		// position: its set-up is not in question.
		r.sawStart = r.sawStart || ev.Kind != trace.Frame
	}
	if ev.Kind != trace.Off && ev.Kind != trace.On {
		r.held.ok = false
	}
	if ev.Kind == trace.Off && r.pending {
		out = r.liftAfterPress(ev, out)
	}
	if ev.Kind == trace.On && r.pending && !r.pressBlind && r.replyOnAfterPress(ev) {
		// Judged on the board before it: the reply's first change.
		out = r.decidePress(out)
	}
	if ev.Kind == trace.On && r.pending && r.pressBlind {
		// (With no lift read since the press, the square filled is the
		// piece in the hand's, set where it cannot go: judged with it,
		// an illegal move, 3. Nf3-f5 pressed with the knight in the
		// hand on an occupancy board: Nxe5 was published.)
		s := rotSquare(ev.Square, r.orient)
		if r.blindVictimSq != chess.NoSquare && s != r.blindVictimSq && chess.KingAttacks(r.blindVictimSq).Has(s) &&
			ev.T-r.blindVictimT < minQuickCarryMs && !r.lines[0].pos.Occupied().Has(s) {
			// The piece lifted was knocked onto the next square, faster
			// than a hand carries one (e4 knocked onto d5 72 ms after it
			// left, as Qf4 landed after the press: Qxe4 was published):
			// no victim; the landing is still to come.
			r.blindVictimSq = chess.NoSquare
		} else if r.blindVictimSq != chess.NoSquare && s != r.blindVictimSq {
			out = r.decideBeforeVictim(out)
		} else if !r.landsFromLifted(s) && r.anyLiftAfter(r.pressT) {
			// The press waits for a piece in the hand that may land
			// elsewhere (pressBlind); this square is no landing of it:
			// the reply's hand (Bxe4 pressed, the queen slid a8-a6 and
			// read on a7 first: bishop h1-a6 was alerted as illegal).
			// Judged on the board before it.
			out = r.decidePress(out)
		} else {
			// Maybe the landing; maybe a piece of the reply's pushed
			// there, its own square read empty next (liftAfterPress).
			r.blindOn, r.blindOnSq, r.blindOnT = r.raw, s, ev.T
			r.blindVictimSq = chess.NoSquare
		}
	}
	switch ev.Kind {
	case trace.Frame:
		before := r.raw
		r.frame(ev)
		// A frame says nothing of the order of what it changed: the log
		// goes on only from a frame that shows the published position,
		// or one that changed nothing (a recording's last frame, the
		// board as it stood: Rd8#, the rook and king lifted after, then
		// a frame 1 s later, and the changes' order was lost).
		if r.makeView(); r.v.diff(&r.lines[0].pos) == 0 {
			r.log.reset(&r.raw)
		} else if r.raw != before {
			r.log.ok = false
		}
		if r.state == stateSetup && len(r.plies) == 0 && r.v.diff(&r.start) == 0 {
			// A full frame showing the set-up as it should stand is the
			// set-up standing: a first lift 68 ms after it is the first
			// move, not a board still being set up (a whole game went
			// unpublished).
			r.sawStart = true
		}
	case trace.Off:
		if r.held.ok && r.held.refill != 0 && ev.T-r.held.refill > slideLiftMs {
			// A piece slid next door leaves its square at once after it
			// shows on the victim's; later, the square was filled by the
			// lifted piece put back or by the capture itself, and this
			// lift is no reply so soon after it (a knock).
			r.held.ok = false
		}
		if h := &r.held; h.ok && h.slid != 0 && (ev.T-h.slid > slideAheadMs || !r.slidFrom(rotSquare(ev.Square, r.orient))) {
			// A slide's first square shows a scan or so before the
			// capturing piece leaves its own: any other lift, or one
			// later, and the square was filled by something else.
			h.ok = false
		}
		if r.held.ok && ev.Square != r.held.sq && r.raw.occ.Has(ev.Square) {
			own, on, quick, n := r.held.own, r.held.on, r.held.quick, len(r.plies)
			out = r.resolveHeld(ev.Square, ev.T, out)
			if r.notVictim != 0 || (own || quick) && len(r.plies) == n || on && !r.held.ok && len(r.plies) == n {
				// (A lift of the mover's piece that no reply's lift
				// followed at once was a touch, and a landing no lift
				// of a piece that could have slid there followed was
				// no reply's: this change is judged as any other. 18...
				// bxc3's first lift, after 18. d4 knocked e5 onto e6,
				// was no reply, and 18. d4 waited 4 s for the pawn to
				// be put back. So is a lift after a quick reply's held
				// lift that did not bear it out: quickReplyLift.)
				out = r.replyBegins(ev, out)
				r.notVictim = 0
			}
		} else {
			out = r.replyBegins(ev, out)
		}
		r.squareOff(ev.Square, ev.T)
	case trace.On:
		if h := &r.held; h.ok && h.on && r.slideGoesOn(ev) {
			// The held landing was a square the reply's piece slid
			// across: the slide goes on, and the lift of its square
			// still tells.
			if h.crossedT == 0 {
				h.crossed, h.crossedT = h.sq, h.t
			}
			h.sq, h.t = ev.Square, ev.T
			r.squareOn(ev.Square, ev.Piece, ev.HasColour, ev.HasPieces, ev.T)
			break
		}
		if h := &r.held; h.ok && h.knock.Has(rotSquare(ev.Square, r.orient)) && ev.HasColour && r.heldStands() &&
			r.seenAs(ev, h.after.PieceAt(rotSquare(ev.Square, r.orient))) && r.fallenPickedUp(rotSquare(ev.Square, r.orient)) {
			// A piece the move's hand knocked, put back (knockedMove):
			// no act of the reply, which the held change still tells.
			// (Not next to the held lift while the knocked piece still
			// lies where it fell: the piece set down is the one lifted,
			// no victim.)
			r.squareOn(ev.Square, ev.Piece, ev.HasColour, ev.HasPieces, ev.T)
			break
		}
		if h := &r.held; h.ok && h.near && h.again && !h.landingUp && h.fellT == 0 && r.fellFromSecond(ev) {
			// The other piece lifted fell next to its square: the
			// replying hand knocked it on the way, and where the held
			// piece goes still decides.
			h.fell, h.fellT = ev.Square, ev.T
			r.squareOn(ev.Square, ev.Piece, ev.HasColour, ev.HasPieces, ev.T)
			break
		}
		bounce := r.held.ok && !r.held.on && ev.Square == r.held.sq && r.bounced(ev)
		if bounce {
			// The held lift's contact bounce: the lift stands.
		} else if r.held.ok && r.held.near && !r.raw.occ.Has(ev.Square) {
			out = r.resolveHeld(ev.Square, ev.T, out)
		} else if h := &r.held; h.ok && !h.on && !h.near && ev.HasColour && ev.Piece.Color() == h.after.SideToMove() &&
			(ev.Square == h.sq || r.slidesToCapture(&h.after, rotSquare(ev.Square, r.orient), rotSquare(h.sq, r.orient), ev.Piece, ev.HasPieces) ||
				r.landsOn(&h.after, rotSquare(ev.Square, r.orient), ev.Piece, ev.HasPieces) && !r.heldTouchDown()) {
			// The victim's square, or a square on the way to it, filled
			// by the other side's piece: a capturing piece slid there,
			// shown before its square empties. Or a square that piece
			// can move to: the reply slid there, and the lift was its
			// hand knocking the piece.
			out = r.resolveHeld(ev.Square, ev.T, out)
		} else if h.ok && !h.on && !h.near && ev.Square == h.sq && !ev.HasColour && h.refill == 0 && !r.raw.occ.Has(ev.Square) {
			// The victim's square filled again on a sensor that does not
			// tell whose piece: a capturing piece slid there (shown before
			// its square empties) or the lifted piece put back. The next
			// lift tells: a piece that can capture there is the reply.
			h.refill = ev.T
			r.squareOn(ev.Square, ev.Piece, ev.HasColour, ev.HasPieces, ev.T)
			break
		} else if h.ok && !h.on && !h.near && r.sensor == trace.Occupancy && h.refill == 0 && h.slid == 0 && ev.Square != h.sq &&
			!r.raw.occ.Has(ev.Square) && r.slideBegun(&h.after, rotSquare(ev.Square, r.orient), rotSquare(h.sq, r.orient)) {
			// A square next to a piece that can capture on the victim's,
			// on its way there, filled on a sensor that does not tell
			// whose piece: the capturing piece slid onto it, shown before
			// its own square empties. That lift tells.
			h.slid, h.slidSq = ev.T, ev.Square
			r.squareOn(ev.Square, ev.Piece, ev.HasColour, ev.HasPieces, ev.T)
			break
		}
		if !bounce {
			r.held.ok = false
		}
		if !r.raw.occ.Has(ev.Square) {
			out = r.replyBegins(ev, out)
		}
		r.squareOn(ev.Square, ev.Piece, ev.HasColour, ev.HasPieces, ev.T)
	case trace.Press:
		out = r.press(ev.Side, ev.T, out)
	case trace.Promote:
		out = r.promote(ev.Promo, ev.T, out)
	}
	r.liftNow = chess.NoSquare
	if ev.Kind == trace.Off || ev.Kind == trace.On {
		r.log.add(ev)
	}
	if r.silent != 0 {
		r.putBack()
		if r.silent != 0 {
			out = r.knockSwapped(ev.T, out)
		}
	}
	if r.unreplacedPly != 0 && ev.Kind == trace.On {
		out = r.unreplacedChosen(ev, out)
	}
	return out
}

// unreplacedChosen amends a promotion alerted with its pawn left on the
// last rank (unreplacedPly) when a piece board reads the piece that
// replaces it, before the reply (1997 3.4e, 7.4, 4.3: the pawn left on
// e8 and replaced by a knight after the press was published as e8=Q).
func (r *Reconstructor) unreplacedChosen(ev *trace.Event, out []Output) []Output {
	n := len(r.plies)
	if r.sensor != trace.PieceSensor || !ev.HasPieces || n == 0 || r.befores[n-1].Ply()+1 != r.unreplacedPly {
		r.unreplacedPly = 0
		return out
	}
	m := r.plies[n-1].move
	pc := ev.Piece
	if !m.IsPromotion() || rotSquare(ev.Square, r.orient) != m.To() || pc.Color() != r.befores[n-1].SideToMove() {
		return out
	}
	switch pc.Type() {
	case chess.Knight, chess.Bishop, chess.Rook, chess.Queen:
	default:
		return out
	}
	r.unreplacedPly = 0
	if pc.Type() == m.Promotion() {
		return out
	}
	r.makeView()
	return r.promote(pc.Type(), ev.T, out)
}

// slideGoesOn reports whether ev, on a colour or piece board, fills an
// empty square next to the held landing, or one further on its line,
// with the piece seen there, soon after it: a slide crossing one square
// after another.
func (r *Reconstructor) slideGoesOn(ev *trace.Event) bool {
	h := &r.held
	s, b := ev.Square, &r.raw
	// (One further: the sweep read the square between after it, Rf6-b6
	// read on e6, c6, then d6 3 ms later.)
	next := chess.KingAttacks(h.sq).Has(s) || chess.Between(h.sq, s).Count() == 1
	if r.sensor == trace.Occupancy || !ev.HasColour || b.occ.Has(s) || !b.occ.Has(h.sq) ||
		!next || ev.T-h.t > slideSlackMs || !b.colourKnown.Has(h.sq) ||
		b.white.Has(h.sq) != (ev.Piece.Color() == chess.White) {
		return false
	}
	return !ev.HasPieces || b.pieceKnown.Has(h.sq) && b.pieces[h.sq] == ev.Piece
}

// heldStands reports whether the held change still shows: a square
// filled is still filled, one emptied still empty.
func (r *Reconstructor) heldStands() bool {
	return r.raw.occ.Has(r.held.sq) == r.held.on
}

// seenAs reports whether ev sets down piece pc as far as the sensor tells
// (its colour; on piece boards the piece).
func (r *Reconstructor) seenAs(ev *trace.Event, pc chess.Piece) bool {
	if pc == chess.NoPiece || !ev.HasColour || ev.Piece.Color() != pc.Color() {
		return false
	}
	return !ev.HasPieces || ev.Piece == pc
}

// fallenPickedUp reports whether a piece set on game square gs, which
// the held move's hand knocked, may be that piece put back: not when gs
// is next to the held lift and the knocked piece still lies where it fell
// next to gs (a put-back's landing may be read a sweep before the lift of
// the square it fell on, but then the piece set down may as well be the
// one lifted).
func (r *Reconstructor) fallenPickedUp(gs chess.Square) bool {
	h := &r.held
	return !chess.KingAttacks(rotSquare(h.sq, r.orient)).Has(gs) ||
		h.knock&^h.after.Occupied()&chess.KingAttacks(gs)&rotBB(r.raw.occ, r.orient) == 0
}

// fellFromSecond reports whether ev, on a colour or piece board, fills an
// empty square next to the second piece lifted while a lift next to the
// move's landing is held, with that piece as far as the sensor tells, and
// not where the held piece can move (unless the sensor tells it from the
// held piece), within knockMs of its lift.
func (r *Reconstructor) fellFromSecond(ev *trace.Event) bool {
	h := &r.held
	if r.sensor == trace.Occupancy || !ev.HasColour || h.secondT == 0 || r.raw.occ.Has(ev.Square) ||
		!chess.KingAttacks(h.second).Has(ev.Square) || ev.T-h.secondT > knockMs {
		return false
	}
	pc, gh := h.after.PieceAt(rotSquare(h.second, r.orient)), rotSquare(h.sq, r.orient)
	return r.seenAs(ev, pc) && (ev.HasPieces && pc != h.after.PieceAt(gh) || !r.moves(&h.after, gh, rotSquare(ev.Square, r.orient)))
}

// Advance tells the reconstruction that board time t has come without a
// new event, so that a still board is acted on. A live daemon calls it
// every 50-100 ms; Feed calls it itself.
func (r *Reconstructor) Advance(t int64, out []Output) []Output {
	r.spent = 0
	return r.advance(t, out)
}

// advance is Advance within a change or timer already counted (Feed's,
// End's): the decision budget spans them.
func (r *Reconstructor) advance(t int64, out []Output) []Output {
	r.liftNow = chess.NoSquare // (Feed may return before it clears it)
	if r.slideOn && t > r.slideT {
		out = r.slideOnLift(nil, out)
	}
	if !r.begun || r.fired == firedSettle|firedCommit|firedAlert {
		return r.pressDue(t, out)
	}
	if r.fired&firedSettle == 0 && t >= r.lastChange+r.timing.SettleMs {
		r.fired |= firedSettle
		out = r.onSettle(r.lastChange+r.timing.SettleMs, out)
	}
	// (After the settle, which may have set the wait: a replay advances
	// only to its next event, and that event must not be judged with the
	// press before it.)
	out = r.pressDue(t, out)
	if r.fired&firedCommit == 0 && t >= r.lastChange+r.timing.CommitMs {
		r.fired |= firedCommit
		out = r.onCommit(r.lastChange+r.timing.CommitMs, out)
	}
	if r.fired&firedAlert == 0 && t >= r.lastChange+r.timing.AlertMs {
		r.fired |= firedAlert
		out = r.onAlertTimer(r.lastChange+r.timing.AlertMs, out)
	}
	return out
}

// replyOnAfterPress reports, on an occupancy board, whether ev fills a
// square while the pending press waits with the board showing its move
// exactly, set down after the press and a reply's time ago, the square no
// landing of that move's piece going on: the reply begun, not the
// presser's hand (g2-g3 pressed 38 ms before g3 was read filled, then
// Black's king slid e8-d8-c8 for O-O-O from 153 ms after: g3 was
// published with c8 alerted misplaced).
func (r *Reconstructor) replyOnAfterPress(ev *trace.Event) bool {
	if r.sensor != trace.Occupancy || r.holding() || len(r.chain) > 0 || r.lines[0].pos.SideToMove() != r.pressSide {
		return false
	}
	b := r.explainFirst(true)
	if b < 0 {
		return false
	}
	c := &r.cands[b]
	if c.n != 1 || c.back != 0 || c.stale || c.missed || c.line != 0 || !r.fitsPress(c, r.pressSide) {
		return false
	}
	m := c.moves[0]
	land, ok := r.lastOn(m.Landing())
	gs := rotSquare(ev.Square, r.orient)
	near := chess.KingAttacks(m.Landing())
	if m.IsCastling() {
		// (Both pieces down: a square filled next to neither.)
		near |= chess.KingAttacks(m.CastlingRookTo())
		if rl, ok := r.lastOn(m.CastlingRookTo()); ok {
			land = max(land, rl)
		}
	}
	// (A reply's time after the landing, or after the press the reply
	// answers: 10... O-O pressed with both pieces in the hand, the king
	// down 189 ms after the press, White's king slid onto f1 58 ms
	// later.)
	if !ok || land < r.pressT || ev.T-land < minReadyReplyMs && ev.T-r.pressT < minReadyReplyMs || r.slidesOn(c, gs) || m.IsPromotion() {
		return false
	}
	return !near.Has(gs)
}

// liftAfterPress decides a press still waiting for the board (a change
// read less than a sweep before it) at ev, the next lift, when the board
// before it shows a move that the press completes: that lift is the
// reply's (Nf3 read 212 ms before White pressed and Black's knight lifted
// 178 ms after was judged with b8 empty, a misplaced-pieces alert). A
// lift of the piece that move set down is held: the piece may be sliding
// on (Re1-e3 read on e2 before the press and gone from there after: Re2
// was published), and the move is the presser's only if the other
// player's piece is lifted next, the held piece still off (Bf1 taken by
// the reply, Rxf1). A piece that slides on shows on its next square, and
// the settle decides.
func (r *Reconstructor) liftAfterPress(ev *trace.Event, out []Output) []Output {
	gs := rotSquare(ev.Square, r.orient)
	if r.pressBlind {
		// The press waited for a landing of the piece in the hand; a
		// lift comes before any: judged on the board before it (a victim
		// lifted 31 ms after Black's press, then d4 by the reply: Nxd4
		// was published as certain). If the square filled just before
		// was the reply's piece pushed there from next door (Qxe1
		// pressed with the queen in the hand, f3 read filled and f4
		// empty 15 ms later, the knight knocked: Qf3 was published),
		// on the board before that.
		pc := r.lines[0].pos.PieceAt(gs)
		if r.blindOnSq != chess.NoSquare && ev.T-r.blindOnT <= slideLiftMs &&
			chess.KingAttacks(r.blindOnSq).Has(gs) && pc != chess.NoPiece && pc.Color() != r.pressSide {
			return r.decidePressOn(r.blindOn, out)
		}
		if pc != chess.NoPiece && (pc.Color() == r.pressSide || r.sideOnOther(gs, r.pressSide)) && r.pressBlank && ev.T < r.aheadUntil() {
			// Nothing of the move but a victim taken off showed at the
			// press, and the presser's own piece is lifted a moment
			// after it: the hand behind the press, its mover (exd6
			// pressed after d6 was emptied, e5 lifted 33 ms later:
			// Bxd6 before it was amended to Bxa3 and Rxd7 published).
			return out
		}
		if pc != chess.NoPiece && pc.Color() == r.pressSide && !r.pressBlank && r.blindOnSq == chess.NoSquare && ev.T < r.aheadUntil() &&
			!r.sideOnOther(gs, r.pressSide.Other()) {
			// Another piece of the presser's, lifted a moment after the
			// press with the pressed piece still in the hand: that hand
			// knocking it on the way to the landing (Bb3 pressed with
			// the bishop in the hand, c2 knocked off 106 ms later and b3
			// filled 49 ms after that: Bxb5, a capture nobody saw, was
			// published). The landing decides. (Not where another
			// history of a capture nobody saw has the opponent's piece:
			// the victim, 15. Qxd8+ published as Qxc3, then Kxd8.)
			return out
		}
		if r.blindOnSq == chess.NoSquare && r.blindVictimSq == chess.NoSquare && r.takesFromLifted(gs) {
			// An opponent's piece the piece in the hand can take: its
			// victim taken off while it is held (Rxf2 pressed with the
			// rook in the hand, f2 lifted 40 ms later and the rook set
			// there 80 ms after: Rdxd5, a capture nobody saw, was
			// published). Its landing there decides; any other change
			// is judged on the board before this lift.
			r.blindVictim, r.blindVictimSq, r.blindVictimT = r.raw, gs, ev.T
			return out
		}
		if r.sensor == trace.Occupancy && pc != chess.NoPiece && pc.Color() != r.pressSide && r.blindOnSq == chess.NoSquare &&
			r.blindVictimSq == chess.NoSquare && ev.T-r.pressT < minReplyMs && r.nextToLanding(gs) {
			// An opponent's piece lifted sooner after the press than a
			// reply begins, next to an empty square the piece in the
			// hand can land on: the landing hand knocking it (Nf6-d5
			// pressed 98 ms before it landed, the d6 bishop knocked
			// onto e6 as it did: Nxg4, a capture nobody saw, was
			// published). The landing decides.
			return out
		}
		if r.blindOnSq == chess.NoSquare {
			return r.decideBeforeVictim(out)
		}
		// (A landing of the piece came first: the lift is judged as
		// any after a press, 3. exd6 e.p. landed and c7 lifted before
		// the d5 pawn was taken off.)
	}
	r.makeView()
	if pc := r.lines[0].pos.PieceAt(gs); pc != chess.NoPiece && pc.Color() != r.pressSide && r.holding() && ev.T < r.heldUntil() &&
		r.pressHeldSq != r.pressHeld.moves[0].Landing() && r.slidesOn(&r.pressHeld, r.pressHeldSq) {
		// The opponent's piece the held slide may have gone on to take
		// lifted, and now another: the reply under way, its victim
		// first, the taking piece swapped onto that square faster than
		// a sweep (39. Rxd8 slid via d5-d7, d7 read filled, pressed, d8
		// and e8 read lifted in one reading, d7 a moment later: Rd7 was
		// published). The board decides.
		r.pressWait = r.heldUntil()
		return out
	}
	// (Not three plies or more, which need a press missed: such a board
	// is read mid-way, 37. Qxc6 slid via d5, d5 not read emptied yet, c6
	// lifted for the reply, c8 lifted: three plies were judged, and Qd5
	// published with pieces out of place.)
	if b := r.explainFirst(true); b >= 0 && r.fitsPress(&r.cands[b], r.pressSide) && r.wentOn(&r.cands[b]) && r.cands[b].n <= 2 {
		c := &r.cands[b]
		// The square beyond the landing, on the piece's line, is held
		// alike: the piece may be sliding on to take there, the victim's
		// square read as emptied and filled again (7... Bxd4 slid via e5
		// and pressed 15 ms after it landed: Be5 was published).
		if gs == c.moves[c.n-1].Landing() || r.slidesOn(c, gs) {
			r.pressHeld, r.pressHeldSq, r.pressHeldT, r.pressHeldRaw = *c, gs, ev.T, r.raw
			return out
		}
		if r.castlingGoesOn(c, gs) || gs == r.castlingKing(c) {
			// The king's move the board shows is a castling's, whose
			// rook is lifted now: set down before the press, read after
			// it (Chess960 O-O, the king read on g1 before White's
			// press, h1 read lifted 30 ms after it: Kg1 was published,
			// the rook alerted out of place). So does the king of a
			// castling whose rook's move the board shows, lifted now.
			return out
		}
		if pc := r.lines[0].pos.PieceAt(gs); !r.holding() && pc != chess.NoPiece && pc.Color() != r.pressSide && r.slideTrails(c, ev.T) {
			// The reply's first lift while the slide is still read
			// going on: the board decides, at the next press or the
			// settle (3. Bb5 slid via e2, d3 and c4, each read filled,
			// pressed, e2 and d3 read emptied after the press, g8
			// lifted before c4 was: Bc4 was published).
			return out
		}
		return r.decidePress(out)
	}
	if r.lines[0].pos.SideToMove() == r.pressSide && r.standReply(r.pressSide) {
		// The reply's piece read on its way before this, its lift (Qxd6
		// pressed, the d8 queen slid via d7 and d7 read filled 8 ms
		// before d8 was read empty): the board without it, as the press
		// is judged, shows the pressed move.
		b := r.explainFirst(true)
		fits := b >= 0 && r.fitsPress(&r.cands[b], r.pressSide) && gs != r.cands[b].moves[r.cands[b].n-1].Landing()
		if fits && r.replyTook.Has(r.cands[b].moves[r.cands[b].n-1].Landing()) && r.reachedBy(gs) {
			// (Not a landing only guessed from the reply's piece read
			// there, on the line of the reply's piece lifted now: it
			// may be sliding on. 1. Ra6 pressed on its way, taken on
			// a6, Black's rook read on a7 before a8 was read lifted:
			// Ra7 was published.)
			fits = false
		}
		r.replyBack()
		if fits {
			return r.decidePress(out)
		}
	}
	if !r.holding() {
		return out
	}
	if pc := r.lines[0].pos.PieceAt(gs); pc == chess.NoPiece || pc.Color() == r.pressSide {
		return out
	}
	if ev.T < r.heldUntil() && r.canSlideOn(&r.pressHeld) {
		// The held piece, a bishop, rook or queen with its line open
		// beyond the landing, may be sliding on and read there up to a
		// sweep after its lift, the reply begun at once (11... Bb4 slid
		// via d6 and c5, pressed, c5 read emptied, f2 lifted 16 ms
		// later and b4 read filled 153 ms after c5: Bc5 was published).
		// Decided at the sweep's end (pressDue), or by the board.
		r.pressWait = r.heldUntil()
		return out
	}
	if r.slidesOn(&r.pressHeld, gs) {
		// Decided at the next reading (slideOnLift): 34... Qxe3 slid
		// b6-d4-e3 and pressed as it landed, d4 read emptied after the
		// press and e3 emptied and filled in one reading 13 ms later,
		// was Qd4; Bxg3 pressed and hxg3, g3 and then h2 lifted, is the
		// reply.
		r.slideOn, r.slideSq, r.slideT = true, ev.Square, ev.T
		return out
	}
	return r.adoptHeld(out)
}

// reachedBy reports whether a square of r.replyTook lies on the line of
// a bishop, rook or queen on game square s, with nothing between.
func (r *Reconstructor) reachedBy(s chess.Square) bool {
	P := &r.lines[0].pos
	pc := P.PieceAt(s)
	switch pc.Type() {
	case chess.Bishop, chess.Rook, chess.Queen:
	default:
		return false
	}
	return chess.Attacks(pc.Type(), pc.Color(), s, P.Occupied())&r.replyTook != 0
}

// wentOn reports whether explanation c may be the move a press
// completes while a move is held (holding): not a capture whose victim
// nobody saw lifted unless a piece was set down where it lands after the
// held lift. 21. Qf3 pressed, the queen taken off f3 for the reply before
// the press was judged, was read Qxe7 (a capture nobody saw, on an
// occupancy board) when the reply's piece was lifted.
func (r *Reconstructor) wentOn(c *cand) bool {
	if !r.holding() || !c.missed {
		return true
	}
	// (Set down up to a sweep before the held lift was read: 23... Qxe4
	// slid e7-e5-e4, e4 read 31 ms before e5 was read empty.)
	on, ok := r.lastOn(c.moves[c.n-1].Landing())
	return ok && on+r.sweepMs() > r.pressHeldT
}

// slideOnLift settles a lift held by liftAfterPress (slideOn) before
// event ev (nil: time went on without one): the square filled again in
// the same reading is the held piece sliding on, which the settle
// decides; anything else makes the lift the reply's, and the held move
// the presser's.
func (r *Reconstructor) slideOnLift(ev *trace.Event, out []Output) []Output {
	if ev != nil && ev.T == r.slideT {
		if ev.Kind == trace.On && ev.Square == r.slideSq {
			r.slideOn = false
		}
		return out
	}
	r.slideOn = false
	if !r.holding() {
		return out
	}
	out = r.adoptHeld(out)
	r.rec.off(r.slideSq, r.slideT)
	return out
}

// canSlideOn reports whether c's move, a bishop's, rook's or queen's,
// not a capture, has a square beyond its landing on its line that it may
// slide on to (a capture's victim stood in the way: Bxg7 pressed and
// the bishop taken at once, the king's lift is the reply's).
func (r *Reconstructor) canSlideOn(c *cand) bool {
	return c.n == 1 && r.lines[c.line].pos.PieceAt(c.moves[0].To()) == chess.NoPiece && r.slideOnSquares(c) != 0
}

// slideTrails reports whether c, one move of a bishop, rook or queen that
// can slide on beyond its landing, may still be sliding at t: its landing
// read filled less than a sweep before, or a square of its path read
// emptied after the press. The sensor's readings trail the hand, and the
// landing, read filled, may be read emptied next (3. Bb5 via d3, d3
// read filled 130 ms before the press, a7 lifted 210 ms after d3 was
// read and before d3 was read emptied: Bd3 was published).
func (r *Reconstructor) slideTrails(c *cand, t int64) bool {
	if !r.canSlideOn(c) {
		return false
	}
	if r.sensor == trace.Occupancy {
		// (There the reply's landing cannot be told from the slide's
		// next square: its first lift decides, on the board before it.)
		return false
	}
	m := c.moves[0]
	if on, ok := r.lastOn(m.To()); ok && t-on < max(r.sweepMs(), slideStepMs) {
		return true
	}
	for e := chess.Between(m.From(), m.To()); e != 0; e &= e - 1 {
		if off, ok := r.lastOff(e.First()); ok && off > r.pressT {
			return true
		}
	}
	return false
}

// castlingGoesOn reports whether c, one king move, ends where a legal
// castling of that king puts it, whose rook stands on s.
func (r *Reconstructor) castlingGoesOn(c *cand, s chess.Square) bool {
	if c.n != 1 || c.back != 0 || c.stale {
		return false
	}
	m, P := c.moves[0], &r.lines[c.line].pos
	if m.IsCastling() || P.PieceAt(m.From()).Type() != chess.King {
		return false
	}
	for _, cm := range r.legal(P).Moves() {
		if cm.IsCastling() && cm.From() == m.From() && cm.CastlingKingTo() == m.To() && cm.To() == s {
			return true
		}
	}
	return false
}

// heldUntil is when a held lift is decided if neither the reply nor the
// held piece going on came: a sweep after it, a reading exactly one
// sweep later included (a rook slid h3-h6, lifted off h4 after the press
// and read on h6 one sweep later to the ms: Rh4 was published). (Not
// sooner, whatever wait the press had set before the lift; a window of a
// sweep and a neighbour's reading judged Bg2 Bxg2 as Be2 Be4 Bf3 Bxf3.)
func (r *Reconstructor) heldUntil() int64 {
	return r.pressHeldT + r.sweepMs() + 1
}

// heldLiftBeforePress reports whether the held lift, of the held move's
// landing, was read within a sweep of the press: the reading before it
// was before the press, and the piece may have left before the press.
func (r *Reconstructor) heldLiftBeforePress() bool {
	c := &r.pressHeld
	return c.n > 0 && r.pressHeldSq == c.moves[c.n-1].Landing() && r.pressHeldT < r.pressT+r.sweepMs()
}

// heldLeft reports whether the held move's piece was lifted from its
// landing after the held lift (of a square beyond it) and is not back.
func (r *Reconstructor) heldLeft() bool {
	c := &r.pressHeld
	if c.n == 0 {
		return false
	}
	land := c.moves[c.n-1].Landing()
	if land == r.pressHeldSq || r.v.occ.Has(land) {
		return false
	}
	off, ok := r.lastOff(land)
	return ok && off > r.pressHeldT
}

// slidOnHeld reports whether the held move's piece shows on a square
// beyond its landing on its line, or on another empty square its move
// could have gone to (a touch-down before the press: Bc4 touched down on
// b5, pressed, and set on c4 223 ms after it left b5), set down since
// the held lift.
func (r *Reconstructor) slidOnHeld() bool {
	sq := r.slideOnSquares(&r.pressHeld)
	if c := &r.pressHeld; c.n == 1 && c.back == 0 && !c.stale {
		P, m := &r.lines[c.line].pos, c.moves[0]
		for _, o := range r.legal(P).Moves() {
			if o.From() == m.From() && o != m && !o.IsCastling() && P.PieceAt(o.To()) == chess.NoPiece {
				sq |= o.To().Bitboard()
			}
		}
	}
	for e := sq & r.v.occ; e != 0; e &= e - 1 {
		if on, ok := r.lastOn(e.First()); ok && on >= r.pressHeldT {
			return true
		}
	}
	return false
}

// slideOnSquares is the squares s for which slidesOn(c, s).
func (r *Reconstructor) slideOnSquares(c *cand) chess.Bitboard {
	if c.n != 1 || c.back != 0 || c.stale {
		return 0
	}
	var b chess.Bitboard
	for s := chess.Square(0); s < 64; s++ {
		if r.slidesOn(c, s) {
			b |= s.Bitboard()
		}
	}
	return b
}

// slidesOn reports whether square s lies beyond the landing of c's move,
// a bishop's, rook's or queen's, on its line with nothing between, and
// holds no piece of the mover's.
func (r *Reconstructor) slidesOn(c *cand, s chess.Square) bool {
	if c.n != 1 || c.back != 0 || c.stale {
		return false
	}
	m, P := c.moves[0], &r.lines[c.line].pos
	switch P.PieceAt(m.From()).Type() {
	case chess.Bishop, chess.Rook, chess.Queen:
	case chess.Pawn:
		// A pawn's single step from its first rank may be its double
		// step read on the way (65. g4 pressed, g3 read 5 ms later and
		// g4 282 ms after that: g3 was published, and every later move
		// was lost).
		return chess.Between(m.From(), s).Has(m.To()) && r.legal(P).Contains(chess.NewMove(m.From(), s))
	default:
		return false
	}
	return chess.Between(m.From(), s).Has(m.To()) && chess.Between(m.To(), s)&P.Occupied() == 0 && !P.ByColor(P.SideToMove()).Has(s)
}

// strayFromHeld reports whether c, which the board shows with the held
// piece lifted again, moves that piece from where it stood before the
// held move to a square it could not go on to from the held landing: not
// on its line beyond it, nor next to it. A piece set down there before
// the press went no such way (Qg4-g5 pressed, g5 emptied 148 ms later by
// the reply's hand taking it: Qxd1+, a capture the occupancy board cannot
// see, was published).
func (r *Reconstructor) strayFromHeld(c *cand) bool {
	h := &r.pressHeld
	if c.n != 1 || c.back != 0 || c.stale || c.line != h.line || h.n != 1 || h.back != 0 || h.stale {
		return false
	}
	m, hm := c.moves[0], h.moves[0]
	land, from := m.Landing(), m.From()
	if from != hm.From() || hm.IsCastling() || m.IsCastling() || r.pressHeldSq != hm.Landing() {
		return false
	}
	return !chess.KingAttacks(r.pressHeldSq).Has(land) && !chess.Between(from, land).Has(r.pressHeldSq) &&
		!r.slidesOn(h, land)
}

// heldCapturable reports whether the player to reply to the held move can
// take its piece where it landed.
func (r *Reconstructor) heldCapturable() bool {
	h := &r.pressHeld
	if h.n == 0 || h.back != 0 || h.stale {
		return false
	}
	q := r.lines[h.line].pos
	for _, m := range h.moves[:h.n] {
		q.MakeMove(m)
	}
	var ml chess.MoveList
	q.GenerateLegal(&ml)
	for _, m := range ml.Moves() {
		if m.To() == r.pressHeldSq && !m.IsCastling() {
			return true
		}
	}
	return false
}

// holding reports whether a waiting press holds the move it completes,
// the piece that move set down still lifted (liftAfterPress).
func (r *Reconstructor) holding() bool {
	return r.pending && r.pressHeldSq != chess.NoSquare && !r.raw.occ.Has(unrotSquare(r.pressHeldSq, r.orient))
}

// adoptHeld completes the held move on the pending press, judged on the
// board as it stood before the held lift, which is then the reply's
// victim taken off, after the move (or a touch).
func (r *Reconstructor) adoptHeld(out []Output) []Output {
	held := r.pressHeldSq
	r.pressDone()
	r.cands = append(r.cands[:0], r.pressHeld)
	r.explained = false
	cur := r.raw
	r.setRaw(r.pressHeldRaw)
	r.makeView()
	out = r.adoptPressed(0, out)
	r.setRaw(cur)
	r.makeView()
	r.rec.off(unrotSquare(held, r.orient), r.pressHeldT)
	return r.pressFlags(out)
}

// pressDue decides a press whose wait for the board (pressWait) is over
// at t: no change came in the sweep after it, the board stands.
func (r *Reconstructor) pressDue(t int64, out []Output) []Output {
	switch {
	case !r.pending || r.pressWait <= 0 || t < r.pressWait || r.fired&firedSettle == 0 && !(r.pressQuick && r.lastChange < r.pressT):
	case r.holding() && t < r.heldUntil():
		r.pressWait = r.heldUntil()
	case r.holding() && r.heldLeft():
		// The held move's piece lifted from its landing since: it went
		// on, a piece in the hand, as at the settle (Bxe6 slid via d5,
		// e6 read emptied after the press and d5 after it, the bishop
		// taken off e6 for fxe6 before any sweep read it there: Bd5
		// was published).
		r.pressHeldSq = chess.NoSquare
		if r.pressInHand(t) {
			r.pressWait = r.inHandWait()
		} else {
			out = r.decidePress(out)
		}
	case r.holding() && !r.slidOnHeld() && r.canSlideOn(&r.pressHeld) && r.sensor != trace.Occupancy && r.pressInHand(t):
		// A bishop, rook or queen lifted from its landing with its line
		// open beyond, read nowhere for a sweep: it slid on and is in
		// the hand, or was taken where it stopped before any sweep read
		// it there (1. Ra6 pressed as it passed a2, read there only,
		// taken on a6 by Black's rook: Ra2 was published). As any
		// piece in the hand.
		r.pressHeldSq = chess.NoSquare
		r.pressWait = r.inHandWait()
	case r.holding() && !r.slidOnHeld() && r.heldLiftBeforePress() && t < r.heldUntil()+r.sweepNearMs()+1:
		// The held lift read at the landing's first reading after the
		// press may have come before it: the piece touched down there
		// in the hand, and the square it goes to may be read a
		// neighbour's reading after the sweep (27... Qh5 touched down
		// on h4, pressed 244 ms after h4 was read filled, h4 read
		// emptied 6 ms after the press and h5 filled 281 ms after
		// that: Qh4 was published and the queen alerted misplaced).
		r.pressWait = r.heldUntil() + r.sweepNearMs() + 1
	case r.holding() && !r.slidOnHeld():
		// Neither the reply nor the held piece going on came within a
		// sweep of its lift: the move held was the move.
		out = r.adoptHeld(out)
	case r.holding():
		// The held piece shows further on its line: the board decides.
		r.pressHeldSq = chess.NoSquare
		out = r.decidePress(out)
	case r.pressedAhead(t):
		// The board unchanged: the hand may be a moment behind the
		// press (d7-d6 slid, pressed 129 ms before d6 was read filled,
		// was alerted as a clock-without-move).
		r.pressWait = r.aheadUntil()
		r.pressAhead = r.pressWait
	case r.pressInHand(t):
		// The pressed piece not read down yet, a sweep on (Ng6 landed
		// 28 ms before the press and read 131 ms after it, by a scan
		// whose order changes every sweep): as at the settle.
		r.pressWait = r.inHandWait()
	case r.illegalAhead(t):
		r.pressWait = r.aheadUntil()
	default:
		out = r.decidePress(out)
	}
	return out
}

// illegalAhead reports whether the pending press, at t, is still within
// a sweep and earlyPressMs of its press with the board showing an
// illegal move of the presser's: the piece may have touched down on the
// way, the hand a moment behind the press (Qd8-c7 touched down on c6,
// pressed, c6 read emptied 38 ms after the press and c7 filled 140 ms
// after it: an illegal Qd8-c6 was alerted). A wait, not an alert.
func (r *Reconstructor) illegalAhead(t int64) bool {
	P := &r.lines[0].pos
	if r.sensor != trace.Occupancy || t >= r.aheadUntil() || P.SideToMove() != r.pressSide {
		// (On colour and piece boards the piece in the hand waits
		// already, pressInHand; there a wait here left a game a ply
		// behind for a moment.)
		return false
	}
	r.makeView()
	ex := r.excused(P)
	d := r.v.diff(P) &^ ex
	// (describeIllegal names any one piece's move: not one the board
	// shows made legally and standing longer than a touch-down before
	// the press, which waited here too, the reply's slide then read as
	// the pressed move: Re1, landed 494 ms before the press, was
	// published as Rf6 with e1 misplaced. One set down just before may
	// be a touch-down on the way, and waits.)
	if r.pressT-r.lastChange >= maxTouchMs {
		for _, m := range r.legal(P).Moves() {
			if q := *P; (P.OccupancyAfter(m)^r.v.occ)&^ex == 0 {
				if q.MakeMove(m); r.v.diff(&q)&^r.excused(&q) == 0 {
					return false
				}
			}
		}
	}
	rv := r.recView()
	ill, ok := r.describeIllegal(P, d, &rv)
	return ok && ill.side == r.pressSide
}

// anyLiftAfter reports whether a square was read emptied after t since
// the last decision.
func (r *Reconstructor) anyLiftAfter(t int64) bool {
	for e := r.rec.lifted; e != 0; e &= e - 1 {
		if r.rec.lastOff[e.First()] > t {
			return true
		}
	}
	return false
}

// earlyPressMs is how far ahead of its move's first change a sensor
// reads a press may come: the hand sets the piece down (or slides it) a
// moment after pressing, and the sweep reads it later still.
const earlyPressMs = 200

// aheadUntil is until when the pending press waits for the presser's
// hand a moment behind it: a sweep and earlyPressMs after the press.
func (r *Reconstructor) aheadUntil() int64 { return r.pressT + r.sweepMs() + earlyPressMs }

// pressedAhead reports whether the pending press, at t, is still within
// earlyPressMs and a sweep of its press with the board showing nothing
// of the presser's move (noneOfTheMove): it waits for the presser's hand.
func (r *Reconstructor) pressedAhead(t int64) bool {
	if t >= r.aheadUntil() || r.lines[0].pos.SideToMove() != r.pressSide {
		return false
	}
	r.makeView()
	return r.noneOfTheMove(r.pressSide)
}

// takesFromLifted reports whether a piece of the pending press's side
// lifted off the board can take the opponent's piece on s.
func (r *Reconstructor) takesFromLifted(s chess.Square) bool {
	P := &r.lines[0].pos
	if pc := P.PieceAt(s); P.SideToMove() != r.pressSide || pc == chess.NoPiece || pc.Color() == r.pressSide {
		return false
	}
	return r.landsFromLifted(s)
}

// nextToLanding reports whether game square s is next to an empty square
// a piece of the pending press's side lifted off the board can move to.
func (r *Reconstructor) nextToLanding(s chess.Square) bool {
	P := &r.lines[0].pos
	for n := chess.KingAttacks(s) &^ P.Occupied(); n != 0; n &= n - 1 {
		if r.landsFromLifted(n.First()) {
			return true
		}
	}
	return false
}

// decideBeforeVictim decides the pending press, on the board before a
// victim lifted during pressBlind's wait if one was.
func (r *Reconstructor) decideBeforeVictim(out []Output) []Output {
	if r.blindVictimSq == chess.NoSquare {
		return r.decidePress(out)
	}
	return r.decidePressOn(r.blindVictim, out)
}

// decidePressOn decides the pending press on raw board b, an earlier
// reading, and goes on from the board as it is.
func (r *Reconstructor) decidePressOn(b physBoard, out []Output) []Output {
	cur := r.raw
	r.setRaw(b)
	out = r.decidePress(out)
	r.setRaw(cur)
	r.makeView()
	return out
}

// landsFromLifted reports whether a piece of the pending press's side
// lifted off the board can move to s, an empty square or one whose
// victim was taken off.
func (r *Reconstructor) landsFromLifted(s chess.Square) bool {
	P := &r.lines[0].pos
	if pc := P.PieceAt(s); P.SideToMove() != r.pressSide || pc != chess.NoPiece && pc.Color() == r.pressSide {
		return false
	}
	r.makeView()
	for _, m := range r.legal(P).Moves() {
		if m.To() == s && !r.v.occ.Has(m.From()) {
			return true
		}
	}
	return false
}

// noneOfTheMove reports whether the view shows nothing of a move of
// side's from the game position: no change, or only one of the
// opponent's pieces gone (a capture's victim taken off first, the
// capturing piece not lifted yet: 2. exd5 pressed before e4 was).
func (r *Reconstructor) noneOfTheMove(side chess.Color) bool {
	P := &r.lines[0].pos
	d := r.v.diff(P)
	gone := d & P.ByColor(side.Other()) &^ r.v.occ
	return d == gone && !gone.More()
}

// End says the input is over at time t: a move standing on the board is
// completed (a game's last move is often not followed by a press).
func (r *Reconstructor) End(t int64, out []Output) []Output {
	r.liftNow = chess.NoSquare
	out = r.Advance(t, out)
	if !r.begun {
		return out
	}
	if r.pending {
		out = r.decidePress(out)
	}
	// A first move from a known start counts too (a trace that ends
	// right after it).
	if r.state == statePlay || r.state == stateIrregular || r.state == stateSetup && r.sawStart {
		r.makeView()
		best := r.explain(true, true)
		if best >= 0 && r.cands[best].n > 1 && r.cands[best].back == 0 && !r.clock {
			// Plies the searches found from the board alone, their order
			// lost: the ordered decoder, if it reads more plies from the
			// changes in the order they came, is followed (8. Bc4 Bg4
			// 9. h3 Bxf3 read as the search's 8. h3 Bxh3 9. Bc4, the same
			// squares filled, g4 and f3 left as touches).
			// (Also a run shorter than the catch-up reaches on
			// occupancy boards: at the end no later change will weigh a
			// knock, and 34... Bd7 35. Bf3 Nc8 read as Nd7 Bf3 leaves c8
			// emptied and filled 1.4 s later, moves between, a touch.)
			// (Nor plies that go on past a mate the changes in their
			// order read, after which pieces were only lifted: 4.
			// Qxf7#, the king lifted 400 ms after, the input over
			// within 4 s, read as 4. Qf3 Ke7 5. Qxf6+ Kxf6.)
			if m, ok := r.decodeEnded(); ok && m.n < r.cands[best].n && r.decodable() {
				return r.adoptDecoded(&m, r.lastChange, out)
			}
			if m, ok := r.decodeOrdered(); ok && m.n > r.cands[best].n && r.decodable() {
				return r.adoptDecoded(&m, r.lastChange, out)
			} else if !ok && r.decodable() {
				// (Nor a piece let go and moved on before the reply,
				// which they read as a move after it: Qd2 moved on to
				// d3, Rxc2 read as Rxc2 Qd3.)
				if b, bok := r.decodeBack(); bok && r.movedOnFirst(&b) {
					return r.adoptBack(&b, r.lastChange, out)
				}
			}
		}
		if best >= 0 && r.cands[best].back > 0 && !r.clock {
			// A board back where an earlier ply was (a repetition: Kd8
			// Qg5+ Kc7 after Qc5+, the king and queen back where they
			// stood two plies before) reads as a takeback from the board
			// alone; the changes in their order read as the moves.
			var done bool
			if out, done = r.decode(r.lastChange, 1, out); done {
				return out
			}
			if r.cands[best].ordered {
				// (The changes read in their order: a knocked piece put
				// back, knockRevert.)
				return r.adopt(best, r.lastChange, out)
			}
		}
		if best >= 0 && r.cands[best].n > 0 && r.cands[best].back == 0 {
			out = r.note(out, NoteNoPress, r.lastChange, r.cands[best].moves[0].From().Bitboard(),
				"the last move was not completed by a clock press; it stands on the board at the end")
			out = r.adopt(best, r.lastChange, out)
		} else if best >= 0 && !r.cands[best].changes() {
			out = r.repeated(r.lastChange, out)
		} else if best < 0 && !r.clock {
			// Nothing the searches reach: fast plies the board went on
			// with, none still long enough for a timer before the input
			// ended, are replayed in order (a trace that ends at its last
			// change). On piece boards, where the order cannot be read to
			// the end, the plies read up to where it can (decodePartial),
			// and again from there.
			var ok bool
			out, ok = r.decode(r.lastChange, 1, out)
			if !ok && r.sensor == trace.Occupancy {
				// (Nor a piece knocked off as a move landed and left off,
				// which the alert timer would name: the moves after it
				// stand, the piece is not alerted. Nf3, f2 knocked off,
				// five plies in 8.7 s, the input over 0 s after: nothing
				// past e5 was published.)
				r.decodeLeft = true
				out, ok = r.decode(r.lastChange, 1, out)
				r.decodeLeft = false
			}
			rec := r.rec
			for k := 0; !ok && k < maxDecodePlies; k++ {
				m, found := r.decodePartial()
				if !found {
					break
				}
				out = r.adoptCatch([]catchMatch{m}, 0, r.lastChange, out)
				out, ok = r.decode(r.lastChange, 1, out)
			}
			if !ok && r.decodable() {
				// Then the relocations (relocSearch), against every
				// square that differs out of place, weighed by the
				// changes since the published game last changed before
				// the partial readings.
				r.rec = rec
				r.makeView()
				out, _ = r.catchUp(r.lastChange, true, costMisplaced*r.v.diff(&r.lines[0].pos).Count(), 0, false, 0, out)
			}
		}
	}
	return out
}

// decodeEnded is the ordered decoder's reading of the changes up to the
// last square filled, when only squares emptied came after it and the
// reading ends the game there (mate or stalemate) with that square its
// last landing: the king tipped, the mating piece or others cleared away
// after the game (Rd8#, the rook lifted 700 ms after and the king 300 ms
// later, read as 1. Rd7 Kg8 2. Rxf7 Kxf7).
func (r *Reconstructor) decodeEnded() (catchMatch, bool) {
	l := &r.log
	evs := l.evs
	k := len(evs) - 1
	for k >= 0 && evs[k].Kind == trace.Off {
		k--
	}
	if !l.ok || k < 0 || k == len(evs)-1 || evs[k].Kind != trace.On || len(r.lines) == 0 {
		return catchMatch{}, false
	}
	l.evs = evs[:k+1]
	m, ok := r.decodeOrdered()
	l.evs = evs
	if !ok || m.n == 0 || r.legal(&m.pos).Len() != 0 {
		return catchMatch{}, false
	}
	last := m.moves[m.n-1]
	return m, !last.IsCastling() && rotSquare(evs[k].Square, r.orient) == last.To()
}

// SetPosition replaces the game by position p (an arbiter's command): the
// moves so far are forgotten and the board is expected to show p.
func (r *Reconstructor) SetPosition(t int64, p *chess.Position, out []Output) []Output {
	r.start = *p
	r.newGame()
	r.state = statePlay
	r.rec.resetExcept(0)
	return append(out, Output{Kind: NewGame, T: t, FEN: p.FEN(), Side: p.SideToMove(), Ply: p.Ply()})
}

// ---- sensor input ----

func (r *Reconstructor) changed(t int64) {
	r.ver++
	r.rawVer++
	if r.released == chess.NoMove && r.prov != chess.NoMove && r.lastChange == r.provT && t-r.provT >= r.timing.ReleaseMs {
		// The provisional move stood still long enough to have been let go.
		// The first such move is the one that counts: a later move that
		// stands still (a pawn on the last rank before the swap for its
		// new piece) does not undo its release.
		r.released, r.relPicked = r.prov, false
	}
	r.lastChange = t
	r.fired = 0
}

func (r *Reconstructor) squareOff(s chess.Square, t int64) {
	b := s.Bitboard()
	if r.raw.occ&b == 0 {
		return
	}
	r.raw.clear(s)
	r.viewSquare(s)
	r.rec.off(s, t)
	r.changedAt[s] = t
	r.changed(t)
	r.lastSq = s
	if r.released != chess.NoMove && unrotSquare(r.released.Landing(), r.orient) == s {
		r.relPicked = true
	}
}

// swapped reports whether on event ev fills a square the board shows
// occupied by a piece of another colour, or on piece boards another piece,
// as far as both the board and the report tell.
func (r *Reconstructor) swapped(ev *trace.Event) bool {
	s, pc := ev.Square, ev.Piece
	b := s.Bitboard()
	return r.raw.occ&b != 0 && (ev.HasColour && r.raw.colourKnown&b != 0 && (r.raw.white&b != 0) != (pc.Color() == chess.White) ||
		ev.HasPieces && r.raw.pieceKnown&b != 0 && r.raw.pieces[s] != pc)
}

func (r *Reconstructor) squareOn(s chess.Square, pc chess.Piece, hasColour, hasPiece bool, t int64) {
	b := s.Bitboard()
	if r.raw.occ&b != 0 && (!hasColour || r.raw.colourKnown&b != 0) && (!hasPiece || r.raw.pieceKnown&b != 0) {
		// Already occupied by the same piece as far as the sensor tells
		// (Feed splits a swap into the square emptied and filled): no
		// change.
		return
	}
	r.raw.set(s, pc, hasColour, hasPiece)
	r.viewSquare(s)
	r.rec.on(s, t, pc, hasColour, hasPiece)
	r.changedAt[s] = t
	r.changed(t)
	r.lastSq = s
}

// frame takes a full snapshot; the squares it changes are recorded as
// lifted and placed.
func (r *Reconstructor) frame(ev *trace.Event) {
	var nb physBoard
	nb.occ = ev.Occ
	if ev.HasColour {
		nb.white, nb.colourKnown = ev.White, ev.Occ
	}
	if ev.HasPieces {
		nb.pieceKnown = ev.Occ
		nb.pieces = ev.Placement
	}
	var chg chess.Bitboard
	chg = nb.occ ^ r.raw.occ
	chg |= (nb.white ^ r.raw.white) & nb.occ & r.raw.occ
	if ev.HasPieces {
		for b := nb.occ & r.raw.occ; b != 0; b &= b - 1 {
			s := b.First()
			if nb.pieces[s] != r.raw.pieces[s] {
				chg |= s.Bitboard()
			}
		}
	}
	if chg == 0 && nb.colourKnown == r.raw.colourKnown && nb.pieceKnown == r.raw.pieceKnown {
		return
	}
	// Even the first frame (the set-up, or the board found at a restart)
	// records what differs from the expected position, so that a restart
	// mid-game can be followed.
	for b := chg; b != 0; b &= b - 1 {
		s := b.First()
		if r.raw.occ.Has(s) {
			r.rec.off(s, ev.T)
		}
		if nb.occ.Has(s) {
			r.rec.on(s, ev.T, chess.NoPiece, false, false)
		}
	}
	r.setRaw(nb)
	if chg != 0 {
		r.rec.framed = true
		r.changed(ev.T)
		r.lastSq = chess.NoSquare
	}
}

// bounced reports whether on event ev, on the held lift's square, is that
// lift's contact bounce (the piece back within bounceMs, of its colour
// where the sensor tells): the lift stands.
func (r *Reconstructor) bounced(ev *trace.Event) bool {
	h := &r.held
	return ev.T-h.t <= bounceMs && (!ev.HasColour || h.after.PieceAt(rotSquare(h.sq, r.orient)).Color() == ev.Piece.Color())
}

// setOverlay accepts the squares in b either way, as long as the game has
// on them what ref has. from is the first published ply that came with
// them.
func (r *Reconstructor) setOverlay(b chess.Bitboard, ref *chess.Position, from int) {
	if r.overlay == 0 {
		r.overlayFrom, r.overlayAfter = from, len(r.plies)
	}
	r.overlay |= b
	for ; b != 0; b &= b - 1 {
		s := b.First()
		r.overlayRef[s] = ref.PieceAt(s)
	}
}

// excused is the overlay's squares accepted either way in position p:
// those where p has what the game had when they were accepted. A move
// onto or off such a square must show there as it should: a pawn knocked
// onto b1 is no rook moved there.
func (r *Reconstructor) excused(p *chess.Position) chess.Bitboard {
	ex := r.overlay
	if r.sensor == trace.Occupancy {
		// (There a square's piece is not seen, and a square knocked empty
		// and then moved onto unseen fitted more games: 17 more false
		// alerts on the grid's irregular traces without this.)
		return ex
	}
	for b := ex; b != 0; b &= b - 1 {
		if s := b.First(); p.PieceAt(s) != r.overlayRef[s] {
			ex &^= s.Bitboard()
		}
	}
	return ex
}

// putBack takes the knocked squares accepted silently (r.silent) that the
// board shows as the game expects them off the overlay at once: a piece
// put back leaves events on its squares, and while they were accepted
// either way the board with the piece on its neighbour, or off, fitted
// a move there (a pawn knocked one square forward and put back read as
// that pawn's move).
func (r *Reconstructor) putBack() {
	r.makeView()
	if right := r.silent &^ r.v.diff(&r.lines[0].pos); right != 0 {
		r.ver++
		r.silent &^= right
		r.overlay &^= right
		r.rec.back |= rotBB(right, (4-r.orient)&3)
	}
}

// setRaw replaces the raw board; the view follows at the next makeView.
func (r *Reconstructor) setRaw(b physBoard) {
	r.raw = b
	r.rawVer++
}

// makeView renders the raw board in game coordinates into r.v, unless
// it already shows the same raw board the same way round.
func (r *Reconstructor) makeView() {
	if r.viewOK && r.viewRaw == r.rawVer && r.viewOrient == r.orient {
		return
	}
	r.raw.makeView(r.orient, &r.v)
	r.viewOK, r.viewRaw, r.viewOrient, r.viewEdit = true, r.rawVer, r.orient, 0
}

// viewSquare follows a change of raw square s, made since the view
// last showed the raw board unturned: the view is brought up to date in
// place, and shows the raw board once changed counts the change.
func (r *Reconstructor) viewSquare(s chess.Square) {
	if !r.viewOK || r.viewRaw != r.rawVer || r.viewOrient != 0 {
		return
	}
	v, b := &r.v, s.Bitboard()
	v.occ, v.white, v.colourKnown, v.pieceKnown = r.raw.occ, r.raw.white, r.raw.colourKnown, r.raw.pieceKnown
	for i := range v.byPiece {
		v.byPiece[i] &^= b
	}
	if r.raw.pieceKnown&b != 0 {
		v.byPiece[r.raw.pieces[s]] |= b
	}
	r.viewRaw++
}

// viewKey hashes the board as seen, to recognise a board already judged.
// Each bitboard is mixed in with a full avalanche: a multiply alone
// carries a change only upwards, so boards differing on the eighth rank
// collided one time in 32 (a queen knocked off d8 and put back was the
// board a re-synchronisation had failed on, and was not searched).
func (r *Reconstructor) viewKey() uint64 {
	h := mix64(uint64(r.v.occ))
	h = mix64(h ^ uint64(r.v.white&r.v.colourKnown))
	for pc := chess.WhitePawn; pc <= chess.BlackKing; pc++ {
		if b := r.v.byPiece[pc]; b != 0 {
			h = mix64(h ^ uint64(b) ^ uint64(pc))
		}
	}
	return h | 1
}

// mix64 is the splitmix64 finaliser: every input bit changes about half
// of the output bits.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// heldTouchDown reports whether the held lift is the moved piece itself
// taken up from its landing within a touch-down's time: the moving hand
// may be going on with it (a bishop touched down on d5 on its way to e6,
// knocking the queen on d6 onto c6 as it went), so a piece of the player
// to reply seen on a square it can move to is no slide of the reply's
// whose hand knocked the moved piece: the next change tells.
func (r *Reconstructor) heldTouchDown() bool {
	h := &r.held
	return rotSquare(h.sq, r.orient) == h.landing && h.t-h.landT < maxTouchMs
}
