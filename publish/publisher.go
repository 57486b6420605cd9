package publish

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
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
	kindGameCopy   journal.Kind = 25 // GameInfo again, so one damaged record does not lose the game's tags
	kindResultCopy journal.Kind = 26 // resultRecord again: a game's last record has no later one to rebuild it from
	kindInfo       journal.Kind = 27 // infoRecord: the game's tags changed during it
	kindAlertCarry journal.Kind = 28 // Alert: a journal-damaged alert still active, carried into a new game's segment (no message)
)

// infoRecord is a change of the current game's tags (SetInfo).
type infoRecord struct {
	Game string   `json:"game"`
	Info GameInfo `json:"info"`
}

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
	// CommandRate and CommandBurst bound the commands a board takes from
	// everyone together (default 5 a second after a burst of 50): beyond
	// them a command is dropped as it arrives, before anything is
	// journaled. A broker that knows the senders should limit each of
	// them first (the embedded one does).
	CommandRate, CommandBurst float64
	// MaxCommandIDs caps the command ids remembered to answer re-sends
	// (default 4096): an id is kept until its command expires, and while
	// the store is full new commands are refused.
	MaxCommandIDs int
	// NoSync turns off fsync (benchmarks only: not crash-safe).
	NoSync bool
	// MaxHeldBytes bounds the events held in memory while the journal
	// cannot be written (a full disk): default 4 MiB, some ten games'
	// worth. Beyond it events are refused.
	MaxHeldBytes int
	// JournalRetry is how often Run retries writing held events
	// (default 2 s); every new event retries too.
	JournalRetry time.Duration
	// WrapJournalFile wraps the journal's segment files (tests inject
	// write errors with it).
	WrapJournalFile func(journal.File) journal.File
	Logger          *slog.Logger
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

	// appendMu orders the writers of the journal and the model; mu guards
	// the model, the queue and the snapshots (held briefly, never across
	// an fsync).
	appendMu sync.Mutex
	mu       sync.Mutex
	g        *game
	clock    *ClockState
	// clockEvent is the last journaled clock event: state carries it,
	// the 1 Hz ticks go to the clock topic only.
	clockEvent *ClockState
	alerts     []Alert
	queue      []outMsg // unacknowledged event messages, in seq order
	cursor     int      // queue[cursor:] not yet sent on this connection
	snaps      [numSnaps]snapshot
	cmds       *cmdStore

	// inMu guards the inbound commands' rate limit and count of drops.
	inMu      sync.Mutex
	inRate    tokenBucket
	inDropped uint64

	// per connection
	connected bool
	connects  uint64 // connections made since Open
	statusHdr Header

	// queued is the newest record whose events are in queue. A record
	// can be in the journal before its events are queued (the fsync runs
	// without mu): the acknowledged mark must not run ahead of it.
	queued      uint64
	saveMu      sync.Mutex // guards mark and markFailing
	mark        *markFile
	markFailing bool

	// loss is what the journal had lost when it was opened; lossAlert
	// the id of the alert that reported it (health is not ok while it
	// is active).
	loss      *journalLoss
	lossAlert string

	// While the journal cannot be written, records are held in memory in
	// order, with the seqs they will have, and published meanwhile;
	// writeErr is the failure, writeAlert the alert that reported it.
	held        []heldRecord
	heldBytes   int
	heldNext    uint64 // the seq of the next record held
	writeErr    error
	writeSince  time.Time
	writeAlert  string
	writeErrors uint64 // failed journal writes since Open
}

// heldRecord is a record the journal could not write yet. rotate says a
// new segment (a new game) starts before it.
type heldRecord struct {
	journal.Record
	rotate bool
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
	if cfg.CommandRate <= 0 {
		cfg.CommandRate = 5
	}
	if cfg.CommandBurst <= 0 {
		cfg.CommandBurst = 50
	}
	if cfg.MaxCommandIDs <= 0 {
		cfg.MaxCommandIDs = 4096
	}
	if cfg.MaxHeldBytes <= 0 {
		cfg.MaxHeldBytes = 4 << 20
	}
	if cfg.JournalRetry <= 0 {
		cfg.JournalRetry = 2 * time.Second
	}
	if err := os.MkdirAll(cfg.JournalDir, 0o755); err != nil {
		return nil, fmt.Errorf("publish: journal directory: %w", err)
	}
	mark, err := openMark(filepath.Join(cfg.JournalDir, "outbox.mark"), filepath.Join(cfg.JournalDir, "outbox.acked"))
	if err != nil {
		return nil, fmt.Errorf("publish: %w", err)
	}
	j, rec, err := journal.Open(cfg.JournalDir, journal.Options{NoSync: cfg.NoSync, Now: cfg.Now, SeqFloor: mark.published, WrapFile: cfg.WrapJournalFile})
	if err != nil {
		mark.close()
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
		cmds:   newCmdStore(cfg.MaxCommandIDs),
		inRate: tokenBucket{rate: cfg.CommandRate, burst: cfg.CommandBurst},
		mark:   mark,
	}
	if rec.TornBytes > 0 || len(rec.Removed) > 0 {
		p.log.Warn("journal repaired after an unclean shutdown", "torn_bytes", rec.TornBytes, "segment", rec.Segment, "removed", rec.Removed)
	}
	loss, err := p.rebuild(mark.acked)
	if err != nil {
		j.Close()
		mark.close()
		return nil, err
	}
	loss.tailLost = rec.Skipped
	if rec.Skipped > 0 {
		loss.tailFrom = mark.published - rec.Skipped + 1
	}
	p.reportLoss(loss)
	return p, nil
}

// Close closes the journal. Run must have returned.
func (p *Publisher) Close() error {
	p.appendMu.Lock()
	if p.flushHeld() != nil {
		p.mu.Lock()
		n := len(p.held)
		p.mu.Unlock()
		p.log.Error("events held in memory are lost: the journal still cannot be written", "events", n, "err", p.writeErr)
	}
	p.appendMu.Unlock()
	p.saveMark(0)
	p.saveMu.Lock()
	merr := p.mark.close()
	p.mark = nil
	p.saveMu.Unlock()
	return errors.Join(p.j.Close(), merr)
}

// Board is the board id.
func (p *Publisher) Board() string { return p.board }

// Session is the current boot counter.
func (p *Publisher) Session() uint32 { return p.j.Session() }

// rebuild replays the current game segment into the model, remembers
// recent command ids, and queues the events after acked, the broker's
// acknowledged position. It returns what damage cost the current game.
func (p *Publisher) rebuild(acked uint64) (*journalLoss, error) {
	if acked > p.j.LastSeq() {
		// A mark ahead of the journal: only re-sending more is safe.
		acked = 0
	}
	loss := &journalLoss{alertIDs: map[string]bool{}}
	p.loss = loss // chainTo notes a lost game record in it
	n := p.j.Segments()
	// Command ids of the last CommandHorizon come from the newest
	// segments; the current game starts in the newest segment that has a
	// game record (normally the last: a new game starts a segment, but a
	// crash right after starting one leaves it without).
	horizon := p.cfg.Now().Add(-p.cfg.CommandHorizon)
	var segs [][]journal.Record
	var dmgs []journal.Damage
	gameSeg := -1
	for i := n - 1; i >= 0; i-- {
		recs, dmg, err := p.j.ReadSegment(i)
		if err != nil {
			return nil, fmt.Errorf("publish: reading journal: %w", err)
		}
		segs = append(segs, recs)
		dmgs = append(dmgs, dmg)
		old := false
		for _, r := range recs {
			if r.Kind == kindAlert {
				var a Alert
				if json.Unmarshal(r.Data, &a) == nil {
					loss.alertIDs[a.ID] = true
				}
			}
			if r.Kind == kindCommand {
				var c commandRecord
				if json.Unmarshal(r.Data, &c) == nil && c.ID != "" && !c.Duplicate {
					p.cmds.add(c, p.cfg.Now())
				}
			}
			if (r.Kind == kindGame || r.Kind == kindGameCopy) && gameSeg < 0 {
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
		loss.addDamage(p.j.SegmentName(n-1-k), dmgs[k])
		for _, r := range segs[k] {
			chained, err := p.applyRecord(r)
			if chained {
				loss.rebuilt++
			}
			if err != nil {
				loss.failed++
				if loss.firstErr == nil {
					loss.firstErr = fmt.Errorf("seq %d: %w", r.Seq, err)
				}
				p.log.Debug("journal record does not apply; skipped", "seq", r.Seq, "kind", r.Kind, "err", err)
			}
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
		return nil, fmt.Errorf("publish: reading journal: %w", err)
	}
	if len(q) > p.cfg.MaxReplay {
		p.log.Warn("too many unsent events in the journal; sending only the newest", "unsent", len(q), "sending", p.cfg.MaxReplay)
		q = q[len(q)-p.cfg.MaxReplay:]
	}
	p.queue = q
	p.queued = p.j.LastSeq()
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
	return loss, nil
}

// applyRecord applies a journaled record to the model (at start, replaying
// the current segment). Records were checked before they were written; one
// that no longer applies (damage cost the journal a record it depends on)
// is skipped with an error. chained says the record applied only after the
// game was rebuilt from the moves it carries (see chain).
func (p *Publisher) applyRecord(r journal.Record) (chained bool, err error) {
	switch r.Kind {
	case kindGame, kindGameCopy:
		var gi GameInfo
		if err = json.Unmarshal(r.Data, &gi); err == nil {
			if r.Kind == kindGameCopy && p.g != nil && p.g.info.ID == gi.ID {
				break // the copy of the record just applied
			}
			var start *chess.Position
			if gi.FEN != "" {
				start, err = chess.ParseFEN(gi.FEN)
			} else {
				start = chess.NewPosition()
			}
			if err == nil {
				start.SetChess960(gi.Chess960)
				p.g = newGame(gi, start, r.Time)
				p.alerts = journalAlerts(p.alerts)
				p.clock, p.clockEvent = nil, nil
			}
		}
	case kindMove:
		var m moveRecord
		if err = json.Unmarshal(r.Data, &m); err == nil {
			if chained, err = p.chainTo(m.chain, m.Game, r.Time); err == nil {
				var mv chess.Move
				if mv, err = p.g.checkMove(&m.Move); err == nil {
					p.g.applyMove(m.Move, mv)
				}
			}
		}
	case kindCorrection:
		var c correctionRecord
		if err = json.Unmarshal(r.Data, &c); err == nil {
			if chained, err = p.chainTo(c.chain, c.Game, r.Time); err == nil {
				var mv chess.Move
				if mv, err = p.g.checkCorrection(&c.Correction); err == nil {
					p.g.applyCorrection(c.Correction, mv)
				}
			}
		}
	case kindAlert:
		var a Alert
		if err = json.Unmarshal(r.Data, &a); err == nil {
			p.alerts = append(p.alerts, a)
		}
	case kindAlertCarry:
		var a Alert
		if err = json.Unmarshal(r.Data, &a); err == nil && !p.hasAlert(a.ID) {
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
			p.clock, p.clockEvent = &c, &c
		}
	case kindResult, kindResultCopy:
		var res resultRecord
		if err = json.Unmarshal(r.Data, &res); err == nil {
			if r.Kind == kindResultCopy && p.g != nil && p.g.info.ID == res.Game && p.g.result == res.Result {
				break // the copy of the record just applied
			}
			if chained, err = p.chainTo(res.chain, res.Game, r.Time); err == nil {
				if err = checkResult(p.g, &res.Result); err == nil {
					p.g.applyResult(res.Result, r.Time)
				}
				if p.g.placeholder && res.Info != nil && res.Info.ID == p.g.info.ID {
					// Both game records were lost; the result has the tags.
					p.g.info, p.g.placeholder = *res.Info, false
					p.loss.gameLost = false
				}
			}
		}
	case kindInfo:
		var in infoRecord
		if err = json.Unmarshal(r.Data, &in); err == nil && p.g != nil && p.g.info.ID == in.Game {
			p.g.info, p.g.placeholder = in.Info, false
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
	return chained, err
}

// chainTo brings the model in line with what a record says came before
// it: the game (a placeholder with the record's game id if the game
// record was lost) and its final moves. It reports whether the model had
// to change, which means earlier records were lost.
func (p *Publisher) chainTo(c chain, gameID string, at time.Time) (bool, error) {
	if c.Prior == nil {
		return false, nil // written before records carried their chain
	}
	changed := false
	if p.g == nil || (gameID != "" && gameID != p.g.info.ID) {
		start := chess.NewPosition()
		if c.Start != "" {
			var err error
			if start, err = chess.ParseFEN(c.Start); err != nil {
				return false, fmt.Errorf("rebuilding game %s: start %q: %w", gameID, c.Start, err)
			}
		}
		p.g = newGame(GameInfo{ID: gameID, FEN: c.Start, Chess960: start.Chess960()}, start, at)
		p.g.placeholder = true
		p.alerts, p.clock, p.clockEvent = nil, nil, nil
		p.loss.gameLost = true
		changed = true
	}
	if p.g.chainKey() == c.key() {
		p.g.fillLastClocks(c)
		return changed, nil
	}
	if err := p.g.rebuildFrom(c); err != nil {
		return true, err
	}
	return true, nil
}

// reportLoss tells about what the journal lost: a log line, the status
// topic's detail, /healthz (Health) and an alert to the arbiter. The
// alert's id names the damage, so a restart does not raise it again.
func (p *Publisher) reportLoss(l *journalLoss) {
	if !l.any() {
		p.loss = nil
		return
	}
	what := l.String()
	p.log.Error("journal damaged", "what", what, "segment", l.segment, "bytes", l.bytes, "lost", l.missing, "duplicates", l.dups,
		"lost_at_end", l.tailLost, "rebuilt", l.rebuilt, "not_applied", l.failed, "first_error", l.firstErr)
	id := l.alertID()
	p.mu.Lock()
	p.loss = l
	p.lossAlert = id
	p.mu.Unlock()
	if l.alertIDs[id] {
		return // raised before this restart
	}
	if _, err := p.Alert(Alert{ID: id, Kind: AlertJournalDamaged, Text: "The board's record of the game was damaged: " + what + ". Check the game against the scoresheets."}); err != nil {
		p.log.Error("journal damage alert not raised", "err", err)
	}
}

// journalAlerts are the alerts of alerts about the board's journal
// (damage found, writes failing), which outlive the game: a new game
// clears the others, these only an acknowledgement or a repair.
func journalAlerts(alerts []Alert) []Alert {
	var keep []Alert
	for _, a := range alerts {
		if a.Kind == AlertJournalDamaged || a.Kind == AlertJournalWrite {
			keep = append(keep, a)
		}
	}
	return keep
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
	case kindGame, kindGameCopy:
		return []int{snapState, snapPGN, snapAlerts, snapClock}
	case kindMove, kindCorrection, kindResult, kindResultCopy, kindPosition, kindInfo:
		return []int{snapState, snapPGN}
	case kindAlert, kindAlertClear, kindCommand, kindAlertCarry:
		return []int{snapAlerts, snapState}
	case kindClock:
		return []int{snapClock, snapState}
	}
	return nil
}

// event journals one input. prepare checks it against the model (under
// mu) and says what to journal and which retained topics it changes; the
// record is then written and fsynced without holding mu, so the outbox
// goes on acknowledging and sending meanwhile (appendMu keeps appenders,
// the only writers of the model, in order); apply updates the model.
func (p *Publisher) event(kind journal.Kind, prepare func() (v any, snaps []int, err error), apply func(r journal.Record)) (journal.Record, error) {
	p.appendMu.Lock()
	defer p.appendMu.Unlock()
	p.mu.Lock()
	v, snaps, err := prepare()
	p.mu.Unlock()
	if err != nil {
		return journal.Record{}, err
	}
	return p.write(kind, v, snaps, apply)
}

// write journals v and, under mu, queues its events, marks snaps and
// applies it. The caller holds appendMu.
func (p *Publisher) write(kind journal.Kind, v any, snaps []int, apply func(r journal.Record)) (journal.Record, error) {
	return p.writeRecord(kind, v, false, snaps, apply)
}

// writeRecord is write, starting a new journal segment first if rotate.
func (p *Publisher) writeRecord(kind journal.Kind, v any, rotate bool, snaps []int, apply func(r journal.Record)) (journal.Record, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return journal.Record{}, fmt.Errorf("publish: encoding %T: %w", v, err)
	}
	r, failed, err := p.append(kind, data, rotate)
	if err != nil {
		return journal.Record{}, err
	}
	p.mu.Lock()
	p.queue = append(p.queue, p.eventsOf(r)...)
	p.queued = r.Seq
	h := p.recordHeader(r)
	for _, s := range snaps {
		p.snaps[s].hdr = h
		p.snaps[s].version++
		p.snaps[s].qos = 1
		if s == snapAlerts && p.lossAlert != "" {
			p.snaps[snapStatus].version++ // its detail names the damage while the alert is active
		}
	}
	if apply != nil {
		apply(r)
	}
	p.mu.Unlock()
	p.kick()
	if failed {
		p.raiseWriteAlert()
	}
	return r, nil
}

// append journals a record or, while the journal cannot be written, holds
// it in memory (bounded by MaxHeldBytes) under the seq it will have.
// failed says this append began a failure. The caller holds appendMu.
func (p *Publisher) append(kind journal.Kind, data []byte, rotate bool) (r journal.Record, failed bool, err error) {
	if len(p.held) > 0 {
		p.flushHeld() // a failure leaves the record to join the held ones
	}
	if len(p.held) == 0 {
		if rotate {
			if err = p.j.Rotate(); err == nil {
				rotate = false
				if perr := p.j.Prune(p.cfg.KeepGames); perr != nil {
					p.log.Warn("pruning old journal segments", "err", perr)
				}
			}
		}
		if err == nil {
			if r, err = p.j.Append(kind, data); err == nil {
				return r, false, nil
			}
		}
		if errors.Is(err, journal.ErrClosed) || errors.Is(err, journal.ErrTooBig) {
			return journal.Record{}, false, fmt.Errorf("publish: %w", err)
		}
		failed = p.writeFailed(err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.heldBytes+len(data) > p.cfg.MaxHeldBytes {
		return journal.Record{}, failed, fmt.Errorf("publish: event refused: the journal cannot be written (%v) and the %d events held in memory fill the %d bytes kept", p.writeErr, len(p.held), p.cfg.MaxHeldBytes)
	}
	if len(p.held) == 0 {
		p.heldNext = p.j.LastSeq() + 1
	}
	if rotate {
		p.heldNext++ // the new segment's first record
	}
	r = journal.Record{Seq: p.heldNext, Session: p.j.Session(), Time: p.cfg.Now(), Kind: kind, Data: data}
	p.held = append(p.held, heldRecord{Record: r, rotate: rotate})
	p.heldBytes += len(data)
	p.heldNext++
	return r, failed, nil
}

// writeFailed records a failed journal write and reports whether it
// begins a failure (the first since the journal last worked): that one
// is logged and alerted, the retries only counted.
func (p *Publisher) writeFailed(err error) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.writeErrors++
	if p.writeErr != nil {
		p.writeErr = err
		return false
	}
	p.writeErr = err
	p.writeSince = p.cfg.Now()
	p.snaps[snapStatus].version++
	p.log.Error("the journal cannot be written; holding events in memory and retrying", "err", err, "max_bytes", p.cfg.MaxHeldBytes)
	return true
}

// raiseWriteAlert tells the arbiter the journal cannot be written: once
// per failure (the alert is held and published like any event, and
// cleared when the journal works again). The caller holds appendMu.
func (p *Publisher) raiseWriteAlert() {
	p.mu.Lock()
	a := Alert{ID: fmt.Sprintf("journal-write-%d-%d", p.j.Session(), p.nextSeqLocked()), Kind: AlertJournalWrite,
		Text: fmt.Sprintf("The board cannot write its record of the game (%v). Moves are kept in memory and published, but a power cut now would lose them; free space on the board's storage or replace it.", p.writeErr)}
	if p.g != nil {
		a.Game = p.g.info.ID
	}
	p.mu.Unlock()
	if _, err := p.write(kindAlert, a, []int{snapAlerts, snapState}, func(journal.Record) {
		p.alerts = append(p.alerts, a)
		p.writeAlert = a.ID
	}); err != nil {
		p.log.Error("journal write alert not raised", "err", err)
	}
}

// flushHeld writes the held records. Once all are written the failure is
// over: logged, the status updated and the alert cleared. The caller
// holds appendMu.
func (p *Publisher) flushHeld() error {
	p.mu.Lock()
	n := len(p.held)
	p.mu.Unlock()
	if n == 0 {
		return nil
	}
	for {
		p.mu.Lock()
		if len(p.held) == 0 {
			p.mu.Unlock()
			break
		}
		h := p.held[0]
		p.mu.Unlock()
		if h.rotate {
			if err := p.j.Rotate(); err != nil {
				p.writeFailed(err)
				return err
			}
			p.mu.Lock()
			p.held[0].rotate = false
			p.mu.Unlock()
			if err := p.j.Prune(p.cfg.KeepGames); err != nil {
				p.log.Warn("pruning old journal segments", "err", err)
			}
		}
		r, err := p.j.AppendAt(h.Kind, h.Data, h.Time)
		if err != nil {
			p.writeFailed(err)
			return err
		}
		if r.Seq != h.Seq {
			// Cannot happen while the held records are written in order
			// and nothing else is; if it did, subscribers would see the
			// record again under its journal seq after a restart.
			p.log.Error("a held record was journaled under another seq", "held", h.Seq, "journaled", r.Seq)
		}
		p.mu.Lock()
		p.held = p.held[1:]
		p.heldBytes -= len(h.Data)
		if len(p.held) == 0 {
			p.held = nil
		}
		p.mu.Unlock()
	}
	p.mu.Lock()
	cause, since, alert := p.writeErr, p.writeSince, p.writeAlert
	p.writeErr, p.writeAlert = nil, ""
	p.snaps[snapStatus].version++
	active := alert != "" && p.hasAlert(alert) // an acknowledgement may have cleared it
	p.mu.Unlock()
	p.kick()
	p.log.Info("the journal can be written again; the events held in memory are journaled", "events", n, "after", p.cfg.Now().Sub(since).Round(time.Millisecond), "cause", cause)
	if active {
		if _, err := p.write(kindAlertClear, AlertClear{ID: alert, Why: "the journal can be written again"}, []int{snapAlerts, snapState}, func(journal.Record) { p.removeAlert(alert) }); err != nil {
			p.log.Warn("clearing the journal write alert", "err", err)
		}
	}
	return nil
}

// retryHeld writes held events every JournalRetry until ctx is done.
func (p *Publisher) retryHeld(ctx context.Context) {
	t := time.NewTicker(p.cfg.JournalRetry)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			p.mu.Lock()
			n := len(p.held)
			p.mu.Unlock()
			if n > 0 {
				p.appendMu.Lock()
				p.flushHeld()
				p.appendMu.Unlock()
			}
		}
	}
}

// nextSeqLocked is the seq the next record will have; lastSeqLocked the
// newest seq given to a record, held ones included. The caller holds mu.
func (p *Publisher) nextSeqLocked() uint64 {
	if len(p.held) > 0 {
		return p.heldNext
	}
	return p.j.LastSeq() + 1
}

func (p *Publisher) lastSeqLocked() uint64 { return p.nextSeqLocked() - 1 }

func (p *Publisher) kick() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// StartGame journals a new game (in a new journal segment) and makes it
// current. The active alerts and the clock are cleared.
func (p *Publisher) StartGame(gi GameInfo) (GameInfo, error) {
	p.appendMu.Lock()
	defer p.appendMu.Unlock()
	gi, start, err := normalizeGameInfo(gi, p.board, p.cfg.Now())
	if err != nil {
		return gi, err
	}
	_, err = p.writeRecord(kindGame, gi, true, []int{snapState, snapPGN, snapAlerts, snapClock}, func(r journal.Record) {
		p.g = newGame(gi, start, r.Time)
		p.alerts = journalAlerts(p.alerts)
		p.clock, p.clockEvent = nil, nil
	})
	if err != nil {
		return gi, err
	}
	if _, err := p.write(kindGameCopy, gi, nil, nil); err != nil {
		p.log.Warn("the copy of the game record was not journaled; the game goes on", "err", err)
	}
	// Damage found in the journal stays reported across the new game, and
	// so across a restart that reads only the new game's segments. (A
	// failing write is not carried: it clears itself when writes succeed.)
	p.mu.Lock()
	var carried []Alert
	for _, a := range p.alerts {
		if a.Kind == AlertJournalDamaged {
			carried = append(carried, a)
		}
	}
	p.mu.Unlock()
	for _, a := range carried {
		if _, err := p.write(kindAlertCarry, a, nil, nil); err != nil {
			p.log.Warn("an active journal alert was not carried into the new game", "alert", a.ID, "err", err)
		}
	}
	return gi, nil
}

// Move journals a move: the next ply, provisional or final. It is checked
// against the game (legal, the right ply, SAN/FEN consistent if given); a
// move that fails is refused and nothing is journaled. The completed move
// is returned.
func (p *Publisher) Move(m Move) (Move, error) {
	var mv chess.Move
	_, err := p.event(kindMove, func() (any, []int, error) {
		var err error
		if mv, err = p.g.checkMove(&m); err != nil {
			return nil, nil, err
		}
		rec := moveRecord{Move: m, chain: p.g.chain()}
		if m.Final {
			return rec, []int{snapState, snapPGN}, nil
		}
		return rec, []int{snapState}, nil
	}, func(journal.Record) { p.g.applyMove(m, mv) })
	return m, err
}

// Correct journals a correction (see Correction) and returns it completed.
func (p *Publisher) Correct(c Correction) (Correction, error) {
	var mv chess.Move
	_, err := p.event(kindCorrection, func() (any, []int, error) {
		var err error
		if mv, err = p.g.checkCorrection(&c); err != nil {
			return nil, nil, err
		}
		return correctionRecord{Correction: c, chain: p.g.chain()}, []int{snapState, snapPGN}, nil
	}, func(journal.Record) { p.g.applyCorrection(c, mv) })
	return c, err
}

// Alert journals an alert, adds it to the active list and returns it with
// its id.
func (p *Publisher) Alert(a Alert) (Alert, error) {
	_, err := p.event(kindAlert, func() (any, []int, error) {
		if strings.TrimSpace(a.Kind) == "" || strings.TrimSpace(a.Text) == "" {
			return nil, nil, fmt.Errorf("alert: kind and text are required (got kind %q, text %q)", a.Kind, a.Text)
		}
		if a.Ply < 0 {
			return nil, nil, fmt.Errorf("alert %s: negative ply %d", a.Kind, a.Ply)
		}
		for _, s := range a.Squares {
			if _, ok := chess.ParseSquare(s); !ok {
				return nil, nil, fmt.Errorf("alert %s: %q is not a square", a.Kind, s)
			}
		}
		if a.ID == "" {
			// appendMu is held: the next record is this one.
			a.ID = fmt.Sprintf("a%d-%d", p.j.Session(), p.nextSeqLocked())
		}
		if p.hasAlert(a.ID) {
			return nil, nil, fmt.Errorf("alert %s: id already active", a.ID)
		}
		if p.g != nil {
			a.Game = p.g.info.ID
		}
		return a, []int{snapAlerts, snapState}, nil
	}, func(journal.Record) { p.alerts = append(p.alerts, a) })
	return a, err
}

// ClearAlert takes an alert off the active list (the board saw it
// resolved); acknowledgements come as commands.
func (p *Publisher) ClearAlert(c AlertClear) error {
	_, err := p.event(kindAlertClear, func() (any, []int, error) {
		if !p.hasAlert(c.ID) {
			return nil, nil, fmt.Errorf("clear alert %q: no such active alert", c.ID)
		}
		return c, []int{snapAlerts, snapState}, nil
	}, func(journal.Record) { p.removeAlert(c.ID) })
	return err
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
	if c.Event == "tick" {
		p.mu.Lock()
		s := &p.snaps[snapClock]
		s.hdr = p.header(p.lastSeqLocked(), p.cfg.Now())
		s.version++
		s.qos = 0
		p.clock = &c
		p.mu.Unlock()
		p.kick()
		return nil
	}
	_, err := p.event(kindClock, func() (any, []int, error) {
		return c, []int{snapClock, snapState}, nil
	}, func(journal.Record) { p.clock, p.clockEvent = &c, &c })
	return err
}

// End journals the game's result (it may be called again to change it).
// The record is written twice, with the game's tags: it is the game's
// last, which no later record can rebuild if it is damaged.
func (p *Publisher) End(r Result) error {
	p.appendMu.Lock()
	defer p.appendMu.Unlock()
	p.mu.Lock()
	err := checkResult(p.g, &r)
	var rec resultRecord
	if err == nil {
		info := p.g.info
		rec = resultRecord{Result: r, chain: p.g.chain(), Info: &info}
	}
	p.mu.Unlock()
	if err != nil {
		return err
	}
	if _, err := p.write(kindResult, rec, []int{snapState, snapPGN}, func(jr journal.Record) { p.g.applyResult(r, jr.Time) }); err != nil {
		return err
	}
	if _, err := p.write(kindResultCopy, rec, nil, nil); err != nil {
		p.log.Warn("the copy of the result record was not journaled", "err", err)
	}
	return nil
}

// SetPosition journals a new position for the current game (see Position).
func (p *Publisher) SetPosition(pos Position) error {
	var cp *chess.Position
	_, err := p.event(kindPosition, func() (any, []int, error) {
		var err error
		if cp, err = checkPosition(p.g, &pos); err != nil {
			return nil, nil, err
		}
		return pos, []int{snapState, snapPGN}, nil
	}, func(journal.Record) { p.g.applyPosition(cp) })
	return err
}

// SetInfo changes the current game's tags during the game (players,
// event, round, board number, time control: an arbiter's command, a
// reloaded configuration); its id, date, start position and moves stay.
// Bad tags are refused as StartGame refuses them, and nothing changes.
func (p *Publisher) SetInfo(gi GameInfo) error {
	var rec infoRecord
	_, err := p.event(kindInfo, func() (any, []int, error) {
		if p.g == nil {
			return nil, nil, errors.New("game tags: no game has started")
		}
		gi.ID, gi.Date, gi.FEN, gi.Chess960 = p.g.info.ID, p.g.info.Date, p.g.info.FEN, p.g.info.Chess960
		n, _, err := normalizeGameInfo(gi, p.board, p.cfg.Now())
		if err != nil {
			return nil, nil, err
		}
		rec = infoRecord{Game: n.ID, Info: n}
		return rec, []int{snapState, snapPGN}, nil
	}, func(journal.Record) { p.g.info, p.g.placeholder = rec.Info, false })
	return err
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
		if h := p.healthLocked(); !h.OK {
			st.Detail = strings.TrimPrefix(st.Detail+"; "+h.Problem, "; ")
		}
		if p.writeErr != nil {
			st.State = "error"
		}
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
	if p.clockEvent != nil {
		c := *p.clockEvent
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

// Health is the journal's condition, for /healthz and the metrics.
type Health struct {
	// OK is false while the journal cannot be written, and while the
	// alert about damage found in it is active (not acknowledged).
	OK bool `json:"ok"`
	// Problem says why not.
	Problem string `json:"problem,omitempty"`
	// WriteFailing: the journal cannot be written now. Damaged: the
	// journal had lost records when it was opened (until the alert is
	// acknowledged).
	WriteFailing bool `json:"write_failing"`
	Damaged      bool `json:"damaged"`
	// Held and HeldBytes are the events held in memory because the
	// journal cannot be written; WriteErrors counts failed journal
	// writes since start (retries included).
	Held        int    `json:"held"`
	HeldBytes   int    `json:"held_bytes"`
	WriteErrors uint64 `json:"write_errors"`
}

// Health returns the journal's condition.
func (p *Publisher) Health() Health {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.healthLocked()
}

func (p *Publisher) healthLocked() Health {
	h := Health{OK: true, Held: len(p.held), HeldBytes: p.heldBytes, WriteErrors: p.writeErrors}
	var problems []string
	if p.writeErr != nil {
		h.WriteFailing = true
		problems = append(problems, fmt.Sprintf("journal cannot be written since %s: %v; %d events held in memory", formatTS(p.writeSince), p.writeErr, len(p.held)))
	}
	switch {
	case p.loss != nil && p.hasAlert(p.lossAlert):
		h.Damaged = true
		problems = append(problems, "journal damaged: "+p.loss.String())
	default:
		// Damage found before a new game and a restart: its alert was
		// carried, the damaged segment is no longer read.
		for _, a := range p.alerts {
			if a.Kind == AlertJournalDamaged {
				h.Damaged = true
				problems = append(problems, a.Text)
				break
			}
		}
	}
	if len(problems) > 0 {
		h.OK = false
		h.Problem = strings.Join(problems, "; ")
	}
	return h
}
