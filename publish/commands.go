package publish

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/publish/journal"
	"github.com/boardd/boardd/rules"
)

// The command verbs (<b>/cmd/<verb>).
const (
	VerbNewGame        = "new_game"
	VerbSetPosition    = "set_position"
	VerbSetTimeControl = "set_time_control"
	VerbAckAlert       = "ack_alert"
	VerbPromote        = "promote"
	VerbSetResult      = "set_result"
	VerbCorrectMove    = "correct_move"
	VerbSetTags        = "set_tags"
)

// MaxCommandSize is the largest command payload accepted: the longest
// new_game, names, event and FEN included, is well under it.
const MaxCommandSize = 4 << 10

// CommandMeta is what every command carries.
type CommandMeta struct {
	ID      string
	Verb    string
	By      string // who sent it, as the sender says (informational)
	Expires time.Time
}

// NewGameCmd asks for a new game. The handler resets the board's game and
// starts it with Publisher.StartGame(Info).
type NewGameCmd struct {
	CommandMeta
	// Info is checked and completed: time control normalised, FEN set for
	// a Chess960 start.
	Info        GameInfo
	TimeControl rules.TimeControl
	Start       *chess.Position
}

// SetPositionCmd asks to continue the game from a position. The handler
// applies it and records it with Publisher.SetPosition.
type SetPositionCmd struct {
	CommandMeta
	Position *chess.Position
	FEN      string
}

// SetTimeControlCmd changes the time control.
type SetTimeControlCmd struct {
	CommandMeta
	TimeControl rules.TimeControl
}

// The arbiter's decisions on an alert.
const (
	DecisionUpheld    = "upheld"    // the irregularity stands (penalty applied as noted)
	DecisionDismissed = "dismissed" // not an irregularity after all
	DecisionCorrected = "corrected" // the position was put right
)

// AckAlertCmd is the arbiter's acknowledgement of an active alert. When
// the handler returns nil the Publisher takes the alert off the active list.
type AckAlertCmd struct {
	CommandMeta
	Alert    Alert
	Decision string
	Penalty  string
	Note     string
}

// PromoteCmd chooses the piece of a pending promotion.
type PromoteCmd struct {
	CommandMeta
	Ply   int // 0 if not given
	Piece chess.PieceType
}

// SetResultCmd ends the game with the arbiter's result: "1-0", "0-1",
// "1/2-1/2", or the forfeits "+/-" and "-/+"; Reason says why
// (resignation, agreement, forfeit, the arbiter's decision). Replace
// overrides a result the game already has.
type SetResultCmd struct {
	CommandMeta
	Result, Reason string
	Replace        bool
}

// Handler applies commands. Each method runs on the Publisher's command
// goroutine (one at a time); the error it returns is sent to the sender as
// the reply's error. It may call the Publisher's event methods.
type Handler interface {
	NewGame(ctx context.Context, c NewGameCmd) error
	SetPosition(ctx context.Context, c SetPositionCmd) error
	SetTimeControl(ctx context.Context, c SetTimeControlCmd) error
	AckAlert(ctx context.Context, c AckAlertCmd) error
	Promote(ctx context.Context, c PromoteCmd) error
	SetResult(ctx context.Context, c SetResultCmd) error
	CorrectMove(ctx context.Context, c CorrectMoveCmd) error
}

// commandRecord is a command as journaled with its reply.
type commandRecord struct {
	ID        string          `json:"id"`
	Verb      string          `json:"verb"`
	By        string          `json:"by,omitempty"`
	Expires   string          `json:"expires,omitempty"`
	Payload   json.RawMessage `json:"payload,omitempty"`
	OK        bool            `json:"ok"`
	Error     string          `json:"error,omitempty"`
	Duplicate bool            `json:"duplicate,omitempty"`
	Alert     string          `json:"alert,omitempty"` // ack_alert: the alert acknowledged
	Decision  string          `json:"decision,omitempty"`
}

type inbound struct {
	topic   string
	payload []byte
	size    int // of the payload as it arrived (not kept when over MaxCommandSize)
}

// cmdBase is the part of every command payload.
type cmdBase struct {
	ID      string `json:"id"`
	Expires string `json:"expires"`
	By      string `json:"by"`
}

type newGameWire struct {
	cmdBase
	Game        string `json:"game"`
	White       string `json:"white"`
	Black       string `json:"black"`
	Event       string `json:"event"`
	Site        string `json:"site"`
	Date        string `json:"date"`
	Round       string `json:"round"`
	BoardNo     string `json:"board_no"`
	TimeControl string `json:"time_control"`
	FEN         string `json:"fen"`
	Chess960    *int   `json:"chess960"`
	WhiteElo    int    `json:"white_elo"`
	WhiteTitle  string `json:"white_title"`
	WhiteFed    string `json:"white_fed"`
	WhiteFideID string `json:"white_fide_id"`
	WhiteTeam   string `json:"white_team"`
	BlackElo    int    `json:"black_elo"`
	BlackTitle  string `json:"black_title"`
	BlackFed    string `json:"black_fed"`
	BlackFideID string `json:"black_fide_id"`
	BlackTeam   string `json:"black_team"`
}

type setPositionWire struct {
	cmdBase
	FEN      string `json:"fen"`
	Chess960 bool   `json:"chess960"`
}

type setTimeControlWire struct {
	cmdBase
	TimeControl string `json:"time_control"`
}

type ackAlertWire struct {
	cmdBase
	Alert    string `json:"alert"`
	Decision string `json:"decision"`
	Penalty  string `json:"penalty"`
	Note     string `json:"note"`
}

// CorrectMoveCmd replaces the published move of Ply by UCI (the arbiter
// corrects a move the board got wrong); moves after it stay while they
// are legal.
type CorrectMoveCmd struct {
	CommandMeta
	Ply int
	UCI string
}

type correctMoveWire struct {
	cmdBase
	Ply int    `json:"ply"`
	UCI string `json:"uci"`
}

// setTagsWire changes the tags of the board's game: a field left out
// stays as it is, an empty string clears it.
type setTagsWire struct {
	cmdBase
	White       *string `json:"white"`
	Black       *string `json:"black"`
	Event       *string `json:"event"`
	Site        *string `json:"site"`
	Round       *string `json:"round"`
	BoardNo     *string `json:"board_no"`
	WhiteElo    *int    `json:"white_elo"`
	WhiteTitle  *string `json:"white_title"`
	WhiteFed    *string `json:"white_fed"`
	WhiteFideID *string `json:"white_fide_id"`
	WhiteTeam   *string `json:"white_team"`
	BlackElo    *int    `json:"black_elo"`
	BlackTitle  *string `json:"black_title"`
	BlackFed    *string `json:"black_fed"`
	BlackFideID *string `json:"black_fide_id"`
	BlackTeam   *string `json:"black_team"`
}

// apply sets the fields given on gi.
func (w *setTagsWire) apply(gi *GameInfo) (changed bool) {
	for _, f := range []struct {
		dst *string
		v   *string
	}{{&gi.White, w.White}, {&gi.Black, w.Black}, {&gi.Event, w.Event}, {&gi.Site, w.Site}, {&gi.Round, w.Round}, {&gi.BoardNo, w.BoardNo},
		{&gi.WhiteTitle, w.WhiteTitle}, {&gi.WhiteFed, w.WhiteFed}, {&gi.WhiteFideID, w.WhiteFideID}, {&gi.WhiteTeam, w.WhiteTeam},
		{&gi.BlackTitle, w.BlackTitle}, {&gi.BlackFed, w.BlackFed}, {&gi.BlackFideID, w.BlackFideID}, {&gi.BlackTeam, w.BlackTeam}} {
		if f.v != nil {
			*f.dst, changed = strings.TrimSpace(*f.v), true
		}
	}
	for _, f := range []struct {
		dst *int
		v   *int
	}{{&gi.WhiteElo, w.WhiteElo}, {&gi.BlackElo, w.BlackElo}} {
		if f.v != nil {
			*f.dst, changed = *f.v, true
		}
	}
	return changed
}

type setResultWire struct {
	cmdBase
	Result  string `json:"result"`
	Reason  string `json:"reason"`
	Replace bool   `json:"replace"`
}

type promoteWire struct {
	cmdBase
	Ply   int    `json:"ply"`
	Piece string `json:"piece"`
}

// decodeStrict decodes one JSON object into v, refusing unknown fields
// and trailing data, with an error that names the field.
func decodeStrict(b []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return fmt.Errorf("field %q: want a %s, got JSON %s", te.Field, te.Type, te.Value)
		}
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return fmt.Errorf("not valid JSON at byte %d: %v", se.Offset, err)
		}
		if errors.Is(err, io.EOF) {
			return errors.New("empty payload; want a JSON object")
		}
		return err
	}
	if d.More() {
		return errors.New("more than one JSON value")
	}
	return nil
}

// command is a parsed, validated command ready for the handler.
type command struct {
	rec  commandRecord
	call func(ctx context.Context, h Handler) error
}

// parseCommand checks a command. rec always has what could be read (id,
// verb); err says what is wrong.
// CheckCommand runs a board's checks of a command, as a board whose clock
// reads now would, so that a tool finds what a board would refuse before
// it sends the command. Checks that need the board's state (ack_alert's
// active alerts, a promotion pending) are the board's alone.
func CheckCommand(verb string, payload []byte, now time.Time) error {
	p := &Publisher{board: "check", cfg: Config{CommandHorizon: 24 * time.Hour}}
	_, err := p.parseCommand(verb, payload, len(payload), now)
	return err
}

func (p *Publisher) parseCommand(verb string, payload []byte, size int, now time.Time) (command, error) {
	c := command{rec: commandRecord{Verb: verb}}
	if size > MaxCommandSize {
		return c, fmt.Errorf("payload of %d bytes exceeds %d", size, MaxCommandSize)
	}
	// id and expires first, leniently, so even a bad command gets a reply
	// naming it.
	var base cmdBase
	if err := json.Unmarshal(payload, &base); err != nil {
		if err := decodeStrict(payload, &map[string]any{}); err != nil {
			return c, err
		}
		return c, fmt.Errorf("id/expires/by: %v", err)
	}
	c.rec.ID, c.rec.By, c.rec.Expires = base.ID, base.By, base.Expires
	if base.ID == "" {
		return c, errors.New("id: missing (every command needs a unique id)")
	}
	if len(base.ID) > 128 {
		return c, errors.New("id: longer than 128 bytes")
	}
	if base.Expires == "" {
		return c, errors.New("expires: missing (an RFC 3339 time after which the command must not be applied)")
	}
	exp, err := time.Parse(time.RFC3339Nano, base.Expires)
	if err != nil {
		return c, fmt.Errorf("expires %q: not an RFC 3339 time like 2025-06-01T14:03:00Z", base.Expires)
	}
	if !now.Before(exp) {
		return c, fmt.Errorf("expired at %s (board time %s); not applied", formatTS(exp), formatTS(now))
	}
	if exp.Sub(now) > p.cfg.CommandHorizon {
		return c, fmt.Errorf("expires %s is more than %v ahead of the board's time %s", formatTS(exp), p.cfg.CommandHorizon, formatTS(now))
	}
	meta := CommandMeta{ID: base.ID, Verb: verb, By: base.By, Expires: exp}
	switch verb {
	case VerbNewGame:
		var w newGameWire
		if err := decodeStrict(payload, &w); err != nil {
			return c, err
		}
		gi := GameInfo{ID: w.Game, White: w.White, Black: w.Black, Event: w.Event, Site: w.Site, Date: w.Date, Round: w.Round, BoardNo: w.BoardNo, TimeControl: w.TimeControl, FEN: w.FEN,
			WhiteElo: w.WhiteElo, WhiteTitle: w.WhiteTitle, WhiteFed: w.WhiteFed, WhiteFideID: w.WhiteFideID, WhiteTeam: w.WhiteTeam,
			BlackElo: w.BlackElo, BlackTitle: w.BlackTitle, BlackFed: w.BlackFed, BlackFideID: w.BlackFideID, BlackTeam: w.BlackTeam}
		if w.Chess960 != nil {
			if w.FEN != "" {
				return c, errors.New("fen and chess960 both given; a Chess960 start is named by its number alone")
			}
			pos, err := chess.Chess960Start(*w.Chess960)
			if err != nil {
				return c, fmt.Errorf("chess960: %v", err)
			}
			gi.FEN, gi.Chess960 = pos.FEN(), true
		}
		gi, start, err := normalizeGameInfo(gi, p.board, now)
		if err != nil {
			return c, errors.New(strings.TrimPrefix(err.Error(), "new game: "))
		}
		var tc rules.TimeControl
		if gi.TimeControl != "" {
			tc, _ = rules.ParseTimeControl(gi.TimeControl)
		}
		cmd := NewGameCmd{CommandMeta: meta, Info: gi, TimeControl: tc, Start: start}
		c.call = func(ctx context.Context, h Handler) error { return h.NewGame(ctx, cmd) }
	case VerbSetPosition:
		var w setPositionWire
		if err := decodeStrict(payload, &w); err != nil {
			return c, err
		}
		if w.FEN == "" {
			return c, errors.New("fen: missing")
		}
		pos, err := chess.ParseFEN(w.FEN)
		if err != nil {
			return c, fmt.Errorf("fen: %v", err)
		}
		if w.Chess960 {
			pos.SetChess960(true)
		}
		cmd := SetPositionCmd{CommandMeta: meta, Position: pos, FEN: pos.FEN()}
		c.call = func(ctx context.Context, h Handler) error { return h.SetPosition(ctx, cmd) }
	case VerbSetTimeControl:
		var w setTimeControlWire
		if err := decodeStrict(payload, &w); err != nil {
			return c, err
		}
		if w.TimeControl == "" {
			return c, errors.New("time_control: missing (e.g. \"90m+30s\")")
		}
		tc, err := rules.ParseTimeControl(w.TimeControl)
		if err != nil {
			return c, err
		}
		cmd := SetTimeControlCmd{CommandMeta: meta, TimeControl: tc}
		c.call = func(ctx context.Context, h Handler) error { return h.SetTimeControl(ctx, cmd) }
	case VerbAckAlert:
		var w ackAlertWire
		if err := decodeStrict(payload, &w); err != nil {
			return c, err
		}
		if w.Alert == "" {
			return c, errors.New("alert: missing (the id of the alert acknowledged)")
		}
		switch w.Decision {
		case DecisionUpheld, DecisionDismissed, DecisionCorrected:
		case "":
			return c, errors.New("decision: missing (upheld, dismissed or corrected)")
		default:
			return c, fmt.Errorf("decision %q: want upheld, dismissed or corrected", w.Decision)
		}
		p.mu.Lock()
		var found *Alert
		var active []string
		for i := range p.alerts {
			active = append(active, p.alerts[i].ID)
			if p.alerts[i].ID == w.Alert {
				a := p.alerts[i]
				found = &a
			}
		}
		p.mu.Unlock()
		if found == nil {
			sort.Strings(active)
			if len(active) == 0 {
				return c, fmt.Errorf("alert %q is not active (no alert is)", w.Alert)
			}
			return c, fmt.Errorf("alert %q is not active (active: %s)", w.Alert, strings.Join(active, ", "))
		}
		c.rec.Alert, c.rec.Decision = w.Alert, w.Decision
		cmd := AckAlertCmd{CommandMeta: meta, Alert: *found, Decision: w.Decision, Penalty: w.Penalty, Note: w.Note}
		c.call = func(ctx context.Context, h Handler) error { return h.AckAlert(ctx, cmd) }
	case VerbPromote:
		var w promoteWire
		if err := decodeStrict(payload, &w); err != nil {
			return c, err
		}
		if w.Ply < 0 {
			return c, fmt.Errorf("ply %d: want a positive ply or none", w.Ply)
		}
		var pt chess.PieceType
		switch strings.ToLower(w.Piece) {
		case "q", "queen":
			pt = chess.Queen
		case "r", "rook":
			pt = chess.Rook
		case "b", "bishop":
			pt = chess.Bishop
		case "n", "knight":
			pt = chess.Knight
		case "":
			return c, errors.New("piece: missing (q, r, b or n)")
		default:
			return c, fmt.Errorf("piece %q: want q, r, b or n", w.Piece)
		}
		cmd := PromoteCmd{CommandMeta: meta, Ply: w.Ply, Piece: pt}
		c.call = func(ctx context.Context, h Handler) error { return h.Promote(ctx, cmd) }
	case VerbSetResult:
		var w setResultWire
		if err := decodeStrict(payload, &w); err != nil {
			return c, err
		}
		if w.Result == "" {
			return c, fmt.Errorf("result: missing (%s)", rules.ArbiterResults)
		}
		if _, _, ok := rules.ArbiterResult(w.Result); !ok {
			return c, fmt.Errorf("result %q: want %s", w.Result, rules.ArbiterResults)
		}
		if strings.TrimSpace(w.Reason) == "" {
			return c, errors.New("reason: missing (resignation, agreement, forfeit, arbiter's decision)")
		}
		if len(w.Reason) > 200 {
			return c, fmt.Errorf("reason: %d bytes, at most 200", len(w.Reason))
		}
		cmd := SetResultCmd{CommandMeta: meta, Result: w.Result, Reason: strings.TrimSpace(w.Reason), Replace: w.Replace}
		c.call = func(ctx context.Context, h Handler) error { return h.SetResult(ctx, cmd) }
	case VerbCorrectMove:
		var w correctMoveWire
		if err := decodeStrict(payload, &w); err != nil {
			return c, err
		}
		if w.Ply < 1 {
			return c, fmt.Errorf("ply %d: want the ply of the move to correct, from 1", w.Ply)
		}
		if l := len(strings.TrimSpace(w.UCI)); l < 4 || l > 5 {
			return c, fmt.Errorf("uci %q: want a move like e2e4 or e7e8q", w.UCI)
		}
		cmd := CorrectMoveCmd{CommandMeta: meta, Ply: w.Ply, UCI: strings.TrimSpace(w.UCI)}
		c.call = func(ctx context.Context, h Handler) error { return h.CorrectMove(ctx, cmd) }
	case VerbSetTags:
		var w setTagsWire
		if err := decodeStrict(payload, &w); err != nil {
			return c, err
		}
		var probe GameInfo
		if !w.apply(&probe) {
			return c, errors.New("no tag given (white, black, event, site, round, board_no, or a player's elo, title, fed, fide_id, team)")
		}
		if _, _, err := normalizeGameInfo(probe, p.board, now); err != nil {
			return c, errors.New(strings.TrimPrefix(err.Error(), "new game: "))
		}
		// The tags are the Publisher's own: no handler is needed.
		c.call = func(context.Context, Handler) error {
			cur := p.Current()
			if cur.Info.ID == "" {
				return errors.New("no game has started")
			}
			info := cur.Info
			w.apply(&info)
			return p.SetInfo(info)
		}
	default:
		return c, fmt.Errorf("unknown command %q; want new_game, set_position, set_time_control, ack_alert, promote, set_result, correct_move or set_tags", verb)
	}
	return c, nil
}

// handleCommand runs one inbound command and journals it with its reply.
func (p *Publisher) handleCommand(ctx context.Context, in inbound) {
	_, leaf, ok := SplitTopic(in.topic)
	verb, found := strings.CutPrefix(leaf, LeafCmd+"/")
	if !ok || !found {
		return
	}
	now := p.cfg.Now()
	// A command id seen before gets the first reply again, marked as a
	// duplicate, and is not applied twice.
	var probe cmdBase
	full := false
	if json.Unmarshal(in.payload, &probe) == nil && probe.ID != "" {
		p.mu.Lock()
		p.cmds.prune(now)
		prev, seen := p.cmds.get(probe.ID)
		full = p.cmds.full()
		p.mu.Unlock()
		if seen {
			dup := commandRecord{ID: prev.id, Verb: prev.verb, OK: prev.ok, Error: prev.err, Duplicate: true}
			p.journalCommand(dup)
			p.log.Info("duplicate command", "id", prev.id, "verb", prev.verb)
			return
		}
	}
	c, err := p.parseCommand(verb, in.payload, in.size, now)
	if err == nil && full {
		// Applying it could not be made safe against a re-send.
		err = fmt.Errorf("the board remembers %d unexpired command ids, its most; retry when older commands have expired", p.cfg.MaxCommandIDs)
	}
	if err == nil && p.cfg.Handler == nil {
		err = errors.New("this board does not take commands")
	}
	if err == nil {
		hctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		err = c.call(hctx, p.cfg.Handler)
		cancel()
	}
	if err == nil {
		// Only an applied command's payload is kept: the journal is the
		// record of what changed the game, and a refused payload would
		// let a sender fill the disk.
		c.rec.Payload = append(json.RawMessage(nil), in.payload...)
	}
	c.rec.OK = err == nil
	if err != nil {
		c.rec.Error = verb + ": " + err.Error()
		c.rec.Alert = ""
		p.log.Info("command refused", "id", c.rec.ID, "verb", verb, "err", err)
	} else {
		p.log.Info("command applied", "id", c.rec.ID, "verb", verb)
	}
	p.journalCommand(c.rec)
}

func (p *Publisher) journalCommand(rec commandRecord) {
	ack := rec.OK && rec.Verb == VerbAckAlert && rec.Alert != "" && !rec.Duplicate
	_, err := p.event(kindCommand, func() (any, []int, error) {
		if ack {
			return rec, []int{snapAlerts, snapState}, nil
		}
		return rec, nil, nil
	}, func(r journal.Record) {
		if ack {
			p.removeAlert(rec.Alert)
		}
		if rec.ID == "" || rec.Duplicate {
			return
		}
		p.cmds.prune(r.Time)
		p.cmds.add(rec, r.Time)
	})
	if err != nil {
		p.log.Error("journaling a command reply", "id", rec.ID, "err", err)
	}
}

// onMessage is the transport's inbound callback: it only checks the rate
// and size and queues. A command over the rate is dropped here, before it
// is copied or journaled; one over MaxCommandSize is queued without its
// payload, to be refused.
func (p *Publisher) onMessage(topic string, payload []byte) {
	now := p.cfg.Now()
	p.inMu.Lock()
	ok := p.inRate.allow(now)
	if !ok {
		p.inDropped++
	}
	dropped := p.inDropped
	p.inMu.Unlock()
	if !ok {
		// One line per hundred drops: a flood must not become a log flood.
		if dropped%100 == 1 {
			p.log.Warn("commands arrive faster than the board takes them; dropped", "topic", topic, "dropped", dropped)
		}
		return
	}
	in := inbound{topic: topic, size: len(payload)}
	if len(payload) <= MaxCommandSize {
		in.payload = bytes.Clone(payload)
	}
	select {
	case p.inbox <- in:
	case <-time.After(10 * time.Second):
		p.log.Error("command queue full; command dropped", "topic", topic)
	}
}

// CommandsDropped is how many commands arrived over the rate limit and
// were dropped unread.
func (p *Publisher) CommandsDropped() uint64 {
	p.inMu.Lock()
	defer p.inMu.Unlock()
	return p.inDropped
}
