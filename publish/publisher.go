package publish

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/publish/journal"
)

// Journal record kinds. They are stored on disk: never renumber.
const (
	kindGame       journal.Kind = 16 // GameInfo
	kindMove       journal.Kind = 17 // Move
	kindCorrection journal.Kind = 18 // Correction
	kindAlert      journal.Kind = 19 // Alert
	kindAlertClear journal.Kind = 20 // AlertClear
	kindClock      journal.Kind = 21 // ClockState
	kindResult     journal.Kind = 22 // Result
	kindPosition   journal.Kind = 23 // Position
	kindCommand    journal.Kind = 24 // commandRecord
)

// Config configures a Publisher.
type Config struct {
	// Board is the board id ([a-z0-9-]{1,32}).
	Board string
	// JournalDir holds the journal (and the outbox's acknowledgement
	// mark). It must be on storage that survives a reboot.
	JournalDir string
	// Dialer connects to the broker; nil runs without one (journal only).
	Dialer Dialer
	// Handler applies commands; nil answers every command with an error.
	Handler Handler
	// Status is what <b>/status says besides online/state.
	Status Status
	// Window is how many QoS 1 messages may await acknowledgement at once
	// (default 16).
	Window int
	// BackoffMin and BackoffMax bound the reconnect delay: attempt n
	// waits a random time in [0, min(BackoffMax, BackoffMin*2^n)] ("full
	// jitter"), so a venue's boards do not reconnect in step after a
	// broker restart. Defaults 1 s and 30 s.
	BackoffMin, BackoffMax time.Duration
	// AckTimeout is how long a publish may wait for its acknowledgement
	// before the connection is deemed dead and replaced (default 20 s).
	AckTimeout time.Duration
	// CommandHorizon is how far in the future a command's expiry may lie
	// (default 24 h); command ids are remembered that long.
	CommandHorizon time.Duration
	// KeepGames is how many games' journal segments are kept (default 500).
	KeepGames int
	// MaxReplay caps how many unsent event messages are loaded from the
	// journal at start (default 20000); older ones stay in the journal only.
	MaxReplay int
	// NoSync turns off fsync (benchmarks only: not crash-safe).
	NoSync bool
	Logger *slog.Logger
	// Now replaces time.Now (tests).
	Now func() time.Time
}

// Publisher journals a board's game events and publishes them. Its
// methods are safe for concurrent use. The event methods (StartGame, Move,
// ...) return once the event is durable in the journal; publishing follows
// asynchronously in Run.
type Publisher struct {
	cfg    Config
	log    *slog.Logger
	j      *journal.Journal
	board  string
	wake   chan struct{}
	inbox  chan inbound
	status Status

	mu     sync.Mutex
	g      *game
	clock  *ClockState
	alerts []Alert
	queue  []outMsg // unacknowledged event messages, in seq order
	cursor int      // queue[cursor:] not yet sent on this connection
	snaps  [numSnaps]snapshot
	cmds   map[string]commandRecord
	cmdAt  map[string]time.Time

	// per connection
	connected bool
	statusHdr Header

	ackedSaved uint64
}

type outMsg struct {
	seq uint64
	Message
}

const (
	snapState = iota
	snapPGN
	snapClock
	snapAlerts
	snapStatus
	numSnaps
)

var snapLeaf = [numSnaps]string{LeafState, LeafPGN, LeafClock, LeafAlertsActive, LeafStatus}

// snapshot is a retained topic: rendered from the model when sent.
type snapshot struct {
	hdr     Header // of the last change
	version uint64 // bumped on every change; 0 = nothing to publish
	qos     byte
	sent    uint64 // version acknowledged on this connection
	flying  uint64 // version published, not yet acknowledged
}

func (s *snapshot) dirty() bool { return s.version > max(s.sent, s.flying) }

// Open opens the board's journal, rebuilds the current game from it and
// queues whatever was journaled but not yet acknowledged by the broker.
func Open(cfg Config) (*Publisher, error) {
	if err := ValidBoardID(cfg.Board); err != nil {
		return nil, fmt.Errorf("publish: %w", err)
	}
	if cfg.JournalDir == "" {
		return nil, errors.New("publish: no journal directory configured")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Window <= 0 {
		cfg.Window = 16
	}
	if cfg.BackoffMin <= 0 {
		cfg.BackoffMin = time.Second
	}
	if cfg.BackoffMax < cfg.BackoffMin {
		cfg.BackoffMax = max(30*time.Second, cfg.BackoffMin)
	}
	if cfg.AckTimeout <= 0 {
		cfg.AckTimeout = 20 * time.Second
	}
	if cfg.CommandHorizon <= 0 {
		cfg.CommandHorizon = 24 * time.Hour
	}
	if cfg.KeepGames <= 0 {
		cfg.KeepGames = 500
	}
	if cfg.MaxReplay <= 0 {
		cfg.MaxReplay = 20000
	}
	j, rec, err := journal.Open(cfg.JournalDir, journal.Options{NoSync: cfg.NoSync, Now: cfg.Now})
	if err != nil {
		return nil, fmt.Errorf("publish: %w", err)
	}
	p := &Publisher{
		cfg:    cfg,
		log:    cfg.Logger.With("board", cfg.Board),
		j:      j,
		board:  cfg.Board,
		wake:   make(chan struct{}, 1),
		inbox:  make(chan inbound, 256),
		status: cfg.Status,
		cmds:   map[string]commandRecord{},
		cmdAt:  map[string]time.Time{},
	}
	if rec.TornBytes > 0 || len(rec.Removed) > 0 {
		p.log.Warn("journal repaired after an unclean shutdown", "torn_bytes", rec.TornBytes, "segment", rec.Segment, "removed", rec.Removed)
	}
	if err := p.rebuild(); err != nil {
		j.Close()
		return nil, err
	}
	return p, nil
}

// Close closes the journal. Run must have returned.
func (p *Publisher) Close() error {
	p.saveAcked()
	return p.j.Close()
}

// Board is the board id.
func (p *Publisher) Board() string { return p.board }

// Session is the current boot counter.
func (p *Publisher) Session() uint32 { return p.j.Session() }

func (p *Publisher) ackFile() string { return filepath.Join(p.cfg.JournalDir, "outbox.acked") }

// rebuild replays the current game segment into the model, remembers
// recent command ids, and queues unacknowledged events.
func (p *Publisher) rebuild() error {
	acked := uint64(0)
	if b, err := os.ReadFile(p.ackFile()); err == nil {
		// A mark lost or garbled by a crash only means re-sending more,
		// which subscribers drop as duplicates.
		if v, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64); err == nil && v <= p.j.LastSeq() {
			acked = v
		}
	}
	p.ackedSaved = acked
	n := p.j.Segments()
	// Command ids of the last CommandHorizon come from the newest
	// segments; the current game starts in the newest segment that has a
	// game record (normally the last: a new game starts a segment, but a
	// crash right after starting one leaves it without).
	horizon := p.cfg.Now().Add(-p.cfg.CommandHorizon)
	var segs [][]journal.Record
	gameSeg := -1
	for i := n - 1; i >= 0; i-- {
		recs, _, err := p.j.ReadSegment(i)
		if err != nil {
			return fmt.Errorf("publish: reading journal: %w", err)
		}
		segs = append(segs, recs)
		old := false
		for _, r := range recs {
			if r.Kind == kindCommand {
				var c commandRecord
				if json.Unmarshal(r.Data, &c) == nil && c.ID != "" && !c.Duplicate {
					p.cmds[c.ID] = c
					p.cmdAt[c.ID] = r.Time
				}
			}
			if r.Kind == kindGame && gameSeg < 0 {
				gameSeg = len(segs) - 1
			}
			if r.Time.Before(horizon) {
				old = true
			}
		}
		if old && gameSeg >= 0 {
			break
		}
	}
	if gameSeg < 0 {
		gameSeg = 0 // no game yet: alerts and clock of the newest segment
	}
	for k := gameSeg; k >= 0; k-- {
		for _, r := range segs[k] {
			p.applyRecord(r)
			h := p.recordHeader(r)
			for _, s := range snapsOf(r.Kind) {
				p.snaps[s].hdr = h
			}
		}
	}
	// Events journaled but not acknowledged by the broker.
	var q []outMsg
	err := p.j.Scan(acked+1, func(r journal.Record) error {
		q = append(q, p.eventsOf(r)...)
		return nil
	})
	if err != nil {
		return fmt.Errorf("publish: reading journal: %w", err)
	}
	if len(q) > p.cfg.MaxReplay {
		p.log.Warn("too many unsent events in the journal; sending only the newest", "unsent", len(q), "sending", p.cfg.MaxReplay)
		q = q[len(q)-p.cfg.MaxReplay:]
	}
	p.queue = q
	// Every retained topic is (re)published on the first connection.
	hdr := p.header(p.j.LastSeq(), p.cfg.Now())
	for i := range p.snaps {
		if p.snaps[i].hdr.Seq == 0 {
			p.snaps[i].hdr = hdr
		}
		p.snaps[i].version = 1
		p.snaps[i].qos = 1
	}
	if p.g == nil {
		p.snaps[snapPGN].version = 0
	}
	if p.clock == nil {
		p.snaps[snapClock].version = 0
	}
	return nil
}

// applyRecord applies a journaled record to the model (at start, replaying
// the current segment). Records were checked before they were written;
// one that no longer applies is logged and skipped.
func (p *Publisher) applyRecord(r journal.Record) {
	var err error
	switch r.Kind {
	case kindGame:
		var gi GameInfo
		if err = json.Unmarshal(r.Data, &gi); err == nil {
			var start *chess.Position
			if gi.FEN != "" {
				start, err = chess.ParseFEN(gi.FEN)
			} else {
				start = chess.NewPosition()
			}
			if err == nil {
				start.SetChess960(gi.Chess960)
				p.g = newGame(gi, start, r.Time)
				p.alerts = nil
				p.clock = nil
			}
		}
	case kindMove:
		var m Move
		if err = json.Unmarshal(r.Data, &m); err == nil {
			var mv chess.Move
			if mv, err = p.g.checkMove(&m); err == nil {
				p.g.applyMove(m, mv)
			}
		}
	case kindCorrection:
		var c Correction
		if err = json.Unmarshal(r.Data, &c); err == nil {
			var mv chess.Move
			if mv, err = p.g.checkCorrection(&c); err == nil {
				p.g.applyCorrection(c, mv)
			}
		}
	case kindAlert:
		var a Alert
		if err = json.Unmarshal(r.Data, &a); err == nil {
			p.alerts = append(p.alerts, a)
		}
	case kindAlertClear:
		var c AlertClear
		if err = json.Unmarshal(r.Data, &c); err == nil {
			p.removeAlert(c.ID)
		}
	case kindClock:
		var c ClockState
		if err = json.Unmarshal(r.Data, &c); err == nil {
			p.clock = &c
		}
	case kindResult:
		var res Result
		if err = json.Unmarshal(r.Data, &res); err == nil {
			if err = checkResult(p.g, &res); err == nil {
				p.g.applyResult(res, r.Time)
			}
		}
	case kindPosition:
		var pos Position
		if err = json.Unmarshal(r.Data, &pos); err == nil {
			var cp *chess.Position
			if cp, err = checkPosition(p.g, &pos); err == nil {
				p.g.applyPosition(cp)
			}
		}
	case kindCommand:
		var c commandRecord
		if err = json.Unmarshal(r.Data, &c); err == nil && c.OK && c.Verb == VerbAckAlert {
			p.removeAlert(c.Alert)
		}
	}
	if err != nil {
		p.log.Warn("journal record does not apply; skipped", "seq", r.Seq, "kind", r.Kind, "err", err)
	}
}

func (p *Publisher) removeAlert(id string) bool {
	for i, a := range p.alerts {
		if a.ID == id {
			p.alerts = append(p.alerts[:i:i], p.alerts[i+1:]...)
			return true
		}
	}
	return false
}

func formatTS(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }

func (p *Publisher) header(seq uint64, t time.Time) Header {
	return Header{V: PayloadVersion, Board: p.board, Session: p.j.Session(), Seq: seq, TS: formatTS(t)}
}

func (p *Publisher) recordHeader(r journal.Record) Header {
	return Header{V: PayloadVersion, Board: p.board, Session: r.Session, Seq: r.Seq, TS: formatTS(r.Time)}
}

// eventsOf projects a record onto the event topics (not retained).
func (p *Publisher) eventsOf(r journal.Record) []outMsg {
	var leaf string
	var v any
	h := p.recordHeader(r)
	switch r.Kind {
	case kindMove:
		var m Move
		if json.Unmarshal(r.Data, &m) != nil {
			return nil
		}
		leaf, v = LeafMove, MovePayload{h, m}
	case kindCorrection:
		var c Correction
		if json.Unmarshal(r.Data, &c) != nil {
			return nil
		}
		leaf, v = LeafCorrection, CorrectionPayload{h, c}
	case kindAlert:
		var a Alert
		if json.Unmarshal(r.Data, &a) != nil {
			return nil
		}
		leaf, v = LeafAlert, AlertPayload{h, a}
	case kindCommand:
		var c commandRecord
		if json.Unmarshal(r.Data, &c) != nil {
			return nil
		}
		leaf, v = LeafReply, ReplyPayload{Header: h, Cmd: c.ID, Verb: c.Verb, OK: c.OK, Error: c.Error, Duplicate: c.Duplicate}
	default:
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return []outMsg{{seq: r.Seq, Message: Message{Topic: Topic(p.board, leaf), Payload: b, QoS: 1}}}
}

// snapsOf lists the retained topics a record kind changes.
func snapsOf(k journal.Kind) []int {
	switch k {
	case kindGame:
		return []int{snapState, snapPGN, snapAlerts, snapClock}
	case kindMove, kindCorrection, kindResult, kindPosition:
		return []int{snapState, snapPGN}
	case kindAlert, kindAlertClear, kindCommand:
		return []int{snapAlerts, snapState}
	case kindClock:
		return []int{snapClock, snapState}
	}
	return nil
}

// appendLocked journals v, projects it and marks the snapshots it changes.
func (p *Publisher) appendLocked(kind journal.Kind, v any, snaps ...int) (journal.Record, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return journal.Record{}, fmt.Errorf("publish: encoding %T: %w", v, err)
	}
	r, err := p.j.Append(kind, data)
	if err != nil {
		return journal.Record{}, fmt.Errorf("publish: %w", err)
	}
	p.queue = append(p.queue, p.eventsOf(r)...)
	h := p.recordHeader(r)
	for _, s := range snaps {
		p.snaps[s].hdr = h
		p.snaps[s].version++
		p.snaps[s].qos = 1
	}
	p.kick()
	return r, nil
}

func (p *Publisher) kick() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// StartGame journals a new game (in a new journal segment) and makes it
// current. The active alerts and the clock are cleared.
func (p *Publisher) StartGame(gi GameInfo) (GameInfo, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	gi, start, err := normalizeGameInfo(gi, p.board, p.cfg.Now())
	if err != nil {
		return gi, err
	}
	if err := p.j.Rotate(); err != nil {
		return gi, fmt.Errorf("publish: %w", err)
	}
	if err := p.j.Prune(p.cfg.KeepGames); err != nil {
		p.log.Warn("pruning old journal segments", "err", err)
	}
	r, err := p.appendLocked(kindGame, gi, snapState, snapPGN, snapAlerts, snapClock)
	if err != nil {
		return gi, err
	}
	p.g = newGame(gi, start, r.Time)
	p.alerts = nil
	p.clock = nil
	return gi, nil
}

// Move journals a move: the next ply, provisional or final. It is checked
// against the game (legal, the right ply, SAN/FEN consistent if given); a
// move that fails is refused and nothing is journaled. The completed move
// is returned.
func (p *Publisher) Move(m Move) (Move, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	mv, err := p.g.checkMove(&m)
	if err != nil {
		return m, err
	}
	snaps := []int{snapState}
	if m.Final {
		snaps = append(snaps, snapPGN)
	}
	if _, err := p.appendLocked(kindMove, m, snaps...); err != nil {
		return m, err
	}
	p.g.applyMove(m, mv)
	return m, nil
}

// Correct journals a correction (see Correction) and returns it completed.
func (p *Publisher) Correct(c Correction) (Correction, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	mv, err := p.g.checkCorrection(&c)
	if err != nil {
		return c, err
	}
	if _, err := p.appendLocked(kindCorrection, c, snapState, snapPGN); err != nil {
		return c, err
	}
	p.g.applyCorrection(c, mv)
	return c, nil
}

// Alert journals an alert, adds it to the active list and returns it with
// its id.
func (p *Publisher) Alert(a Alert) (Alert, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if strings.TrimSpace(a.Kind) == "" || strings.TrimSpace(a.Text) == "" {
		return a, fmt.Errorf("alert: kind and text are required (got kind %q, text %q)", a.Kind, a.Text)
	}
	if a.Ply < 0 {
		return a, fmt.Errorf("alert %s: negative ply %d", a.Kind, a.Ply)
	}
	for _, s := range a.Squares {
		if _, ok := chess.ParseSquare(s); !ok {
			return a, fmt.Errorf("alert %s: %q is not a square", a.Kind, s)
		}
	}
	if a.ID == "" {
		a.ID = fmt.Sprintf("a%d-%d", p.j.Session(), p.j.LastSeq()+1)
	}
	for _, o := range p.alerts {
		if o.ID == a.ID {
			return a, fmt.Errorf("alert %s: id already active", a.ID)
		}
	}
	if p.g != nil {
		a.Game = p.g.info.ID
	}
	if _, err := p.appendLocked(kindAlert, a, snapAlerts, snapState); err != nil {
		return a, err
	}
	p.alerts = append(p.alerts, a)
	return a, nil
}

// ClearAlert takes an alert off the active list (the board saw it
// resolved); acknowledgements come as commands.
func (p *Publisher) ClearAlert(c AlertClear) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.hasAlert(c.ID) {
		return fmt.Errorf("clear alert %q: no such active alert", c.ID)
	}
	if _, err := p.appendLocked(kindAlertClear, c, snapAlerts, snapState); err != nil {
		return err
	}
	p.removeAlert(c.ID)
	return nil
}

func (p *Publisher) hasAlert(id string) bool {
	for _, a := range p.alerts {
		if a.ID == id {
			return true
		}
	}
	return false
}

var clockEvents = map[string]bool{"start": true, "press": true, "pause": true, "resume": true, "flag": true, "adjust": true, "tick": true, "stop": true}

// Clock updates the clock. Ticks (Event "tick") only refresh the retained
// <b>/clock topic with QoS 0 and are not journaled; every other event is.
func (p *Publisher) Clock(c ClockState) error {
	if !clockEvents[c.Event] {
		return fmt.Errorf("clock: event %q: want start, press, pause, resume, stop, flag, adjust or tick", c.Event)
	}
	if c.Running != "" && c.Running != "white" && c.Running != "black" {
		return fmt.Errorf("clock: running %q: want white, black or empty", c.Running)
	}
	if c.WhiteMS < 0 || c.BlackMS < 0 {
		return fmt.Errorf("clock: negative time (white %d ms, black %d ms)", c.WhiteMS, c.BlackMS)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if c.Event == "tick" {
		s := &p.snaps[snapClock]
		s.hdr = p.header(p.j.LastSeq(), p.cfg.Now())
		s.version++
		s.qos = 0
		p.clock = &c
		p.kick()
		return nil
	}
	if _, err := p.appendLocked(kindClock, c, snapClock, snapState); err != nil {
		return err
	}
	p.clock = &c
	return nil
}

// End journals the game's result (it may be called again to change it).
func (p *Publisher) End(r Result) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := checkResult(p.g, &r); err != nil {
		return err
	}
	rec, err := p.appendLocked(kindResult, r, snapState, snapPGN)
	if err != nil {
		return err
	}
	p.g.applyResult(r, rec.Time)
	return nil
}

// SetPosition journals a new position for the current game (see Position).
func (p *Publisher) SetPosition(pos Position) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	cp, err := checkPosition(p.g, &pos)
	if err != nil {
		return err
	}
	if _, err := p.appendLocked(kindPosition, pos, snapState, snapPGN); err != nil {
		return err
	}
	p.g.applyPosition(cp)
	return nil
}

// SetStatus changes what <b>/status says (online and the will are the
// Publisher's own).
func (p *Publisher) SetStatus(s Status) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.status = s
	if p.connected {
		p.snaps[snapStatus].version++
		p.kick()
	}
}

// Resumed is the current game as the journal tells it, for the daemon to
// resume after a restart.
type Resumed struct {
	// Info is the zero value when no game was started.
	Info GameInfo
	// Start is the FEN the moves start from.
	Start string
	// Moves are the final moves, in order.
	Moves []Move
	// Provisional is the move shown but not completed, if any.
	Provisional *Move
	// FEN is the position after Moves.
	FEN    string
	Clock  *ClockState
	Alerts []Alert
	Result Result
	Ended  bool
}

// Current returns the current game.
func (p *Publisher) Current() Resumed {
	p.mu.Lock()
	defer p.mu.Unlock()
	var r Resumed
	r.Alerts = append([]Alert(nil), p.alerts...)
	if p.clock != nil {
		c := *p.clock
		r.Clock = &c
	}
	if p.g == nil {
		return r
	}
	r.Info = p.g.info
	r.Start = p.g.start.FEN()
	r.Moves = append([]Move(nil), p.g.moves...)
	if p.g.prov != nil {
		m := *p.g.prov
		r.Provisional = &m
	}
	r.FEN = p.g.pos.FEN()
	r.Result = p.g.result
	r.Ended = p.g.ended
	return r
}

// PGN returns the current game's PGN ("" without a game).
func (p *Publisher) PGN() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.g == nil {
		return ""
	}
	return p.g.pgn()
}

// renderLocked renders snapshot i's payload.
func (p *Publisher) renderLocked(i int) ([]byte, error) {
	s := &p.snaps[i]
	var v any
	switch i {
	case snapState:
		v = p.statePayload(s.hdr)
	case snapPGN:
		if p.g == nil {
			return nil, errors.New("no game")
		}
		v = PGNPayload{Header: s.hdr, Game: p.g.info.ID, PGN: p.g.pgn()}
	case snapClock:
		if p.clock == nil {
			return nil, errors.New("no clock")
		}
		v = ClockPayload{Header: s.hdr, ClockState: *p.clock}
	case snapAlerts:
		al := p.alerts
		if al == nil {
			al = []Alert{}
		}
		v = AlertsPayload{Header: s.hdr, Alerts: al}
	case snapStatus:
		st := p.status
		st.Online = true
		if st.State == "" || st.State == "lost" || st.State == "offline" {
			st.State = "ready"
		}
		v = StatusPayload{Header: p.statusHdr, Status: st}
	}
	return json.Marshal(v)
}

func (p *Publisher) statePayload(h Header) StatePayload {
	sp := StatePayload{Header: h, Moves: []string{}, Result: "*", Alerts: len(p.alerts)}
	if p.clock != nil {
		c := *p.clock
		sp.Clock = &c
	}
	if p.g == nil {
		sp.FEN = chess.StartFEN
		sp.SideToMove = "white"
		return sp
	}
	g := p.g
	sp.GameInfo = g.info
	sp.Ply = len(g.moves)
	sp.FEN = g.pos.FEN()
	sp.SideToMove = sideName(g.pos.SideToMove())
	sp.LastMove = g.lastMove
	sp.Moves = g.uciMoves()
	sp.Provisional = g.prov
	sp.Result = g.result.Result
	sp.Termination = g.result.Termination
	sp.Started = formatTS(g.started)
	if g.ended {
		sp.Ended = formatTS(g.endedAt)
	}
	return sp
}
