package publish

import "time"

// PayloadVersion is the "v" of every payload (topic tree v1, docs/mqtt.md).
const PayloadVersion = 1

// The inputs below are what the daemon hands to a Publisher: its own
// vocabulary, independent of reconstruction's types. They are plain
// structs with JSON tags because they are also what the journal stores and
// (inside an envelope) what subscribers receive.

// GameInfo starts a game: the tags broadcasts match games by, the time
// control and the start position.
type GameInfo struct {
	// ID names the game; the Publisher makes one up if it is empty.
	ID    string `json:"game,omitempty"`
	White string `json:"white,omitempty"`
	Black string `json:"black,omitempty"`
	Event string `json:"event,omitempty"`
	Site  string `json:"site,omitempty"`
	// Date is the PGN date (YYYY.MM.DD); today if empty.
	Date  string `json:"date,omitempty"`
	Round string `json:"round,omitempty"`
	// BoardNo is the board's number in the round (PGN "Board" tag), which
	// relays use to order games.
	BoardNo string `json:"board_no,omitempty"`
	// TimeControl in the form rules.ParseTimeControl reads ("90m+30s",
	// "40/90m+30s,30m+30s"); "" for none.
	TimeControl string `json:"time_control,omitempty"`
	// FEN of the start position; "" for the standard start.
	FEN string `json:"start_fen,omitempty"`
	// Chess960 marks a Chess960 game (FEN then holds its start).
	Chess960 bool `json:"chess960,omitempty"`
	// The players' details, each tagged in the PGN (WhiteElo,
	// WhiteTitle, WhiteFideId, WhiteTeam, ...) and shown only when known.
	// The federation (FIDE's three letters) is for viewers and has no
	// PGN tag.
	WhiteElo    int    `json:"white_elo,omitempty"`
	WhiteTitle  string `json:"white_title,omitempty"`
	WhiteFed    string `json:"white_fed,omitempty"`
	WhiteFideID string `json:"white_fide_id,omitempty"`
	WhiteTeam   string `json:"white_team,omitempty"`
	BlackElo    int    `json:"black_elo,omitempty"`
	BlackTitle  string `json:"black_title,omitempty"`
	BlackFed    string `json:"black_fed,omitempty"`
	BlackFideID string `json:"black_fide_id,omitempty"`
	BlackTeam   string `json:"black_team,omitempty"`
}

// Clocks are both players' remaining times.
type Clocks struct {
	WhiteMS int64 `json:"white_ms"`
	BlackMS int64 `json:"black_ms"`
}

// ClocksOf builds Clocks from durations.
func ClocksOf(white, black time.Duration) *Clocks {
	return &Clocks{WhiteMS: white.Milliseconds(), BlackMS: black.Milliseconds()}
}

// Durations are the clocks as durations, by colour (chess.White first):
// ClocksOf's inverse.
func (c Clocks) Durations() [2]time.Duration {
	return [2]time.Duration{time.Duration(c.WhiteMS) * time.Millisecond, time.Duration(c.BlackMS) * time.Millisecond}
}

// Move is one move. A provisional move is what the board shows before the
// mover has pressed the clock (it may still change); a final one is
// completed. Only final moves enter the PGN.
type Move struct {
	Game string `json:"game,omitempty"` // filled in by the Publisher
	// Ply counts half-moves from the game's start position, 1 for the
	// first move.
	Ply int `json:"ply"`
	// Side is "white" or "black"; filled in by the Publisher.
	Side string `json:"side,omitempty"`
	// UCI is required (e2e4, e7e8q; castling as king to destination in
	// standard chess, king takes rook in Chess960). SAN and FEN are
	// computed by the Publisher; if given they must agree.
	UCI string `json:"uci"`
	SAN string `json:"san,omitempty"`
	// FEN is the position after the move.
	FEN string `json:"fen,omitempty"`
	// Clocks after the move (the mover's increment included), if known.
	Clocks *Clocks `json:"clock,omitempty"`
	Final  bool    `json:"final"`
}

// MoveRef names a move in a correction.
type MoveRef struct {
	SAN string `json:"san"`
	UCI string `json:"uci"`
}

// Correction retracts or replaces the move at Ply and drops every move
// after it (the Laws reinstate the position before an irregularity and go
// on from there). With New nil the move is retracted; otherwise New (its
// Ply equal to Ply) takes its place.
type Correction struct {
	Game string `json:"game,omitempty"`
	Ply  int    `json:"ply"`
	// Old is filled in by the Publisher from the game it holds.
	Old *MoveRef `json:"old,omitempty"`
	New *Move    `json:"new,omitempty"`
	Why string   `json:"why"`
	// FEN is the position after the correction; filled in.
	FEN string `json:"fen,omitempty"`
	// Dropped counts the later moves the correction removed; filled in.
	Dropped int `json:"dropped,omitempty"`
}

// Alert is an irregularity (docs/rules.md, "Alert kinds") for the arbiter.
type Alert struct {
	// ID is unique per board; the Publisher makes one up if empty.
	ID   string `json:"id"`
	Game string `json:"game,omitempty"`
	// Kind is an alert kind (rules.Kinds): illegal-move, clock-without-move, ...
	Kind    string   `json:"kind"`
	Ply     int      `json:"ply"`
	Side    string   `json:"side,omitempty"`
	Squares []string `json:"squares,omitempty"`
	// Article is the FIDE Laws article ("7.5.1") of Edition.
	Article string `json:"article,omitempty"`
	Edition string `json:"edition,omitempty"`
	Penalty string `json:"penalty,omitempty"`
	Text    string `json:"text"`
}

// AlertClear takes an alert off the active list without an arbiter's
// acknowledgement (the board saw the irregularity resolved, e.g. the
// misplaced pieces put right).
type AlertClear struct {
	ID  string `json:"id"`
	Why string `json:"why"`
}

// ClockState is the clock: remaining times, which side runs, the period.
type ClockState struct {
	Clocks
	// Running is "white", "black" or "" (stopped).
	Running string `json:"running"`
	// Period is the time-control period (1-based) of the side to move.
	Period int `json:"period,omitempty"`
	// Event says what happened: start, press, pause, resume, flag,
	// adjust, or tick (the 1 Hz refresh while running, which is not
	// journaled and is sent with QoS 0).
	Event string `json:"event"`
}

// Result ends a game.
type Result struct {
	Game string `json:"game,omitempty"`
	// Result is "1-0", "0-1", "1/2-1/2" (or "*" for a game abandoned
	// without result).
	Result string `json:"result"`
	// Termination says why: checkmate, stalemate, flag-fall, resignation,
	// agreement, dead-position, arbiter, ...
	Termination string `json:"termination,omitempty"`
}

// Status is the board's condition, published retained on <b>/status.
type Status struct {
	Online bool `json:"online"`
	// State is ready, playing, error, offline (clean shutdown) or lost
	// (the broker's last will).
	State    string `json:"state"`
	Firmware string `json:"firmware,omitempty"`
	Sensors  string `json:"sensors,omitempty"`
	Clock    string `json:"clock,omitempty"`
	Detail   string `json:"detail,omitempty"`
}

// Position replaces the game's position mid-game (the arbiter set up a
// position): the game goes on from FEN, the moves so far stay in the
// journal but leave the PGN, which now starts from FEN.
type Position struct {
	Game     string `json:"game,omitempty"`
	FEN      string `json:"fen"`
	Chess960 bool   `json:"chess960,omitempty"`
	Why      string `json:"why,omitempty"`
}

// Header is the envelope every payload starts with.
type Header struct {
	V       int    `json:"v"`
	Board   string `json:"board"`
	Session uint32 `json:"session"`
	Seq     uint64 `json:"seq"`
	// TS is when the event was journaled (RFC 3339, milliseconds, UTC).
	TS string `json:"ts"`
}

// Newer reports whether h is newer than o by (session, seq).
func (h Header) Newer(o Header) bool {
	if h.Session != o.Session {
		return h.Session > o.Session
	}
	return h.Seq > o.Seq
}

// The payloads as published, one per topic.

// StatePayload is <b>/state: the full snapshot.
type StatePayload struct {
	Header
	GameInfo
	Ply         int         `json:"ply"`
	FEN         string      `json:"fen"`
	SideToMove  string      `json:"side_to_move"`
	LastMove    *MoveRef    `json:"last_move,omitempty"`
	Moves       []string    `json:"moves"`
	Provisional *Move       `json:"provisional,omitempty"`
	Clock       *ClockState `json:"clock,omitempty"`
	Result      string      `json:"result"`
	Termination string      `json:"termination,omitempty"`
	Alerts      int         `json:"alerts_active"`
	Started     string      `json:"started,omitempty"`
	Ended       string      `json:"ended,omitempty"`
}

// MovePayload is <b>/move.
type MovePayload struct {
	Header
	Move
}

// CorrectionPayload is <b>/correction.
type CorrectionPayload struct {
	Header
	Correction
}

// AlertPayload is <b>/alert.
type AlertPayload struct {
	Header
	Alert
}

// AlertsPayload is <b>/alerts/active.
type AlertsPayload struct {
	Header
	Alerts []Alert `json:"alerts"`
}

// ClockPayload is <b>/clock.
type ClockPayload struct {
	Header
	ClockState
}

// PGNPayload is <b>/pgn.
type PGNPayload struct {
	Header
	Game string `json:"game"`
	PGN  string `json:"pgn"`
}

// StatusPayload is <b>/status.
type StatusPayload struct {
	Header
	Status
}

// ReplyPayload is <b>/reply.
type ReplyPayload struct {
	Header
	Cmd       string `json:"cmd"`
	Verb      string `json:"verb,omitempty"`
	OK        bool   `json:"ok"`
	Error     string `json:"error,omitempty"`
	Duplicate bool   `json:"duplicate,omitempty"`
}
