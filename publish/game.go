package publish

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/rules"
)

// game is the current game as the journal tells it: what the state and
// pgn snapshots are rendered from and what the daemon resumes from. Every
// check a Publisher makes before journaling an input is here, so an input
// that passes is one the model can apply, and replaying the journal
// rebuilds the same model.
type game struct {
	info     GameInfo
	start    *chess.Position
	pos      *chess.Position // after the final moves
	moves    []Move          // final moves, Ply = index+1
	cmoves   []chess.Move
	prov     *Move
	result   Result
	ended    bool
	started  time.Time
	endedAt  time.Time
	lastMove *MoveRef
	// placeholder: the game record was lost and the game was made up
	// from a later record's game id; the tags are unknown.
	placeholder bool
}

const maxTagLen = 200

func sideName(c chess.Color) string {
	if c == chess.White {
		return "white"
	}
	return "black"
}

// ValidTag checks a game's tag (a player's name, the event, the round...)
// as a new game takes it: at most 200 bytes, no line break or NUL.
func ValidTag(name, v string) error {
	if len(v) > maxTagLen {
		return fmt.Errorf("%s is %d bytes long, at most %d", name, len(v), maxTagLen)
	}
	if strings.ContainsAny(v, "\r\n\x00") {
		return fmt.Errorf("%s contains a line break or NUL", name)
	}
	return nil
}

// checkPlayer checks a player's rating, title (upper-cased), federation
// (upper-cased) and FIDE id.
func checkPlayer(side string, elo int, title, fed, fide *string) error {
	if elo < 0 || elo > 4000 {
		return fmt.Errorf("%s_elo %d: want 0 to 4000", side, elo)
	}
	*title = strings.ToUpper(strings.TrimSpace(*title))
	if !asciiLetters(*title, 1, 4) && *title != "" {
		return fmt.Errorf("%s_title %q: want a FIDE title like GM, WIM or CM", side, *title)
	}
	*fed = strings.ToUpper(strings.TrimSpace(*fed))
	if !asciiLetters(*fed, 3, 3) && *fed != "" {
		return fmt.Errorf("%s_fed %q: want FIDE's three-letter federation code like NOR", side, *fed)
	}
	*fide = strings.TrimSpace(*fide)
	if len(*fide) > 12 || strings.Trim(*fide, "0123456789") != "" {
		return fmt.Errorf("%s_fide_id %q: want the FIDE id's digits", side, *fide)
	}
	return nil
}

func asciiLetters(s string, minLen, maxLen int) bool {
	if len(s) < minLen || len(s) > maxLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}

// normalizeGameInfo checks and completes a new game's info.
func normalizeGameInfo(gi GameInfo, board string, now time.Time) (GameInfo, *chess.Position, error) {
	for name, v := range map[string]string{"white": gi.White, "black": gi.Black, "event": gi.Event, "site": gi.Site, "round": gi.Round, "board_no": gi.BoardNo, "game": gi.ID, "white_team": gi.WhiteTeam, "black_team": gi.BlackTeam} {
		if err := ValidTag(name, v); err != nil {
			return gi, nil, fmt.Errorf("new game: %w", err)
		}
	}
	for _, side := range []struct {
		name             string
		elo              int
		title, fed, fide *string
	}{{"white", gi.WhiteElo, &gi.WhiteTitle, &gi.WhiteFed, &gi.WhiteFideID}, {"black", gi.BlackElo, &gi.BlackTitle, &gi.BlackFed, &gi.BlackFideID}} {
		if err := checkPlayer(side.name, side.elo, side.title, side.fed, side.fide); err != nil {
			return gi, nil, fmt.Errorf("new game: %w", err)
		}
	}
	if gi.ID == "" {
		gi.ID = board + "-" + now.UTC().Format("20060102-150405")
	}
	if gi.Date == "" {
		gi.Date = now.Format("2006.01.02")
	} else if _, err := time.Parse("2006.01.02", gi.Date); err != nil && !strings.Contains(gi.Date, "?") {
		return gi, nil, fmt.Errorf("new game: date %q: want YYYY.MM.DD", gi.Date)
	}
	if gi.TimeControl != "" {
		tc, err := rules.ParseTimeControl(gi.TimeControl)
		if err != nil {
			return gi, nil, fmt.Errorf("new game: %w", err)
		}
		gi.TimeControl = tc.String()
	}
	start := chess.NewPosition()
	if gi.FEN != "" {
		p, err := chess.ParseFEN(gi.FEN)
		if err != nil {
			return gi, nil, fmt.Errorf("new game: start position: %w", err)
		}
		start = p
	}
	if gi.Chess960 {
		start.SetChess960(true)
	}
	gi.Chess960 = start.Chess960()
	if start.FEN() == chess.StartFEN && !gi.Chess960 {
		gi.FEN = ""
	} else {
		gi.FEN = start.FEN()
	}
	return gi, start, nil
}

func newGame(gi GameInfo, start *chess.Position, at time.Time) *game {
	p := *start
	return &game{info: gi, start: start, pos: &p, result: Result{Game: gi.ID, Result: "*"}, started: at}
}

// checkMove validates m as the next move (final or provisional) and fills
// in Game, Side, SAN and FEN.
func (g *game) checkMove(m *Move) (chess.Move, error) {
	if g == nil {
		return chess.NoMove, fmt.Errorf("move %s: no game started", m.UCI)
	}
	if g.ended {
		return chess.NoMove, fmt.Errorf("move %d %s: the game has ended (%s)", m.Ply, m.UCI, g.result.Result)
	}
	next := len(g.moves) + 1
	if m.Ply != next {
		return chess.NoMove, fmt.Errorf("move ply %d %s: the game has %d moves, so the next move is ply %d", m.Ply, m.UCI, len(g.moves), next)
	}
	return g.fill(m, g.pos)
}

// fill checks m against the position before it and completes it.
func (g *game) fill(m *Move, before *chess.Position) (chess.Move, error) {
	mv, err := before.ParseUCI(m.UCI)
	if err != nil {
		return chess.NoMove, fmt.Errorf("move ply %d: %w (position %s)", m.Ply, err, before.FEN())
	}
	san := before.SAN(mv)
	if m.SAN != "" && trimSAN(m.SAN) != trimSAN(san) {
		return chess.NoMove, fmt.Errorf("move ply %d %s: SAN %q does not match the move (%s)", m.Ply, m.UCI, m.SAN, san)
	}
	after := *before
	after.MakeMove(mv)
	fen := after.FEN()
	if m.FEN != "" {
		given, err := chess.ParseFEN(m.FEN)
		if err != nil {
			return chess.NoMove, fmt.Errorf("move ply %d %s: FEN after: %w", m.Ply, m.UCI, err)
		}
		if fenKey(given.FEN()) != fenKey(fen) {
			return chess.NoMove, fmt.Errorf("move ply %d %s: FEN after %q does not match the move (%s)", m.Ply, m.UCI, m.FEN, fen)
		}
	}
	if m.Clocks != nil && (m.Clocks.WhiteMS < 0 || m.Clocks.BlackMS < 0) {
		return chess.NoMove, fmt.Errorf("move ply %d %s: negative clock time", m.Ply, m.UCI)
	}
	m.Game = g.info.ID
	m.Side = sideName(before.SideToMove())
	m.SAN = san
	m.FEN = fen
	m.UCI = before.UCI(mv)
	return mv, nil
}

// trimSAN drops check and annotation marks, which a caller may or may not
// write.
func trimSAN(s string) string { return strings.TrimRight(s, "+#!?") }

// fenKey is the part of a FEN that identifies the position (placement,
// side, castling, en passant), without the move counters.
func fenKey(fen string) string {
	f := strings.Fields(fen)
	if len(f) > 4 {
		f = f[:4]
	}
	return strings.Join(f, " ")
}

func (g *game) applyMove(m Move, mv chess.Move) {
	if !m.Final {
		mm := m
		g.prov = &mm
		return
	}
	g.pos.MakeMove(mv)
	g.moves = append(g.moves, m)
	g.cmoves = append(g.cmoves, mv)
	g.prov = nil
	g.lastMove = &MoveRef{SAN: m.SAN, UCI: m.UCI}
}

// checkCorrection validates c and fills in Old, FEN, Dropped and New.
func (g *game) checkCorrection(c *Correction) (chess.Move, error) {
	if g == nil {
		return chess.NoMove, fmt.Errorf("correction of ply %d: no game started", c.Ply)
	}
	if strings.TrimSpace(c.Why) == "" {
		return chess.NoMove, fmt.Errorf("correction of ply %d: why is empty; say what was corrected", c.Ply)
	}
	n := len(g.moves)
	switch {
	case c.Ply >= 1 && c.Ply <= n:
		old := g.moves[c.Ply-1]
		c.Old = &MoveRef{SAN: old.SAN, UCI: old.UCI}
		c.Dropped = n - c.Ply
	case c.Ply == n+1 && g.prov != nil:
		c.Old = &MoveRef{SAN: g.prov.SAN, UCI: g.prov.UCI}
	default:
		return chess.NoMove, fmt.Errorf("correction of ply %d: the game has %d moves%s; a correction names one of them", c.Ply, n, map[bool]string{true: " and a provisional one", false: ""}[g.prov != nil])
	}
	before := g.positionAt(c.Ply - 1)
	c.Game = g.info.ID
	c.FEN = before.FEN()
	if c.New == nil {
		return chess.NoMove, nil
	}
	if c.New.Ply != c.Ply {
		return chess.NoMove, fmt.Errorf("correction of ply %d: the new move says ply %d", c.Ply, c.New.Ply)
	}
	mv, err := g.fill(c.New, before)
	if err != nil {
		return chess.NoMove, fmt.Errorf("correction: %w", err)
	}
	if c.New.Final {
		c.FEN = c.New.FEN
	}
	return mv, nil
}

func (g *game) positionAt(ply int) *chess.Position {
	p := *g.start
	for _, m := range g.cmoves[:ply] {
		p.MakeMove(m)
	}
	return &p
}

func (g *game) applyCorrection(c Correction, mv chess.Move) {
	keep := min(c.Ply-1, len(g.moves))
	g.moves = g.moves[:keep]
	g.cmoves = g.cmoves[:keep]
	g.pos = g.positionAt(keep)
	g.prov = nil
	g.lastMove = nil
	if keep > 0 {
		g.lastMove = &MoveRef{SAN: g.moves[keep-1].SAN, UCI: g.moves[keep-1].UCI}
	}
	if c.New != nil {
		g.applyMove(*c.New, mv)
	}
	if g.ended && c.Ply <= len(g.moves)+1 {
		// A correction reopens a game that had ended on the corrected
		// moves; the daemon ends it again if the result stands.
		g.ended = false
		g.result = Result{Game: g.info.ID, Result: "*"}
	}
}

func checkResult(g *game, r *Result) error {
	if g == nil {
		return fmt.Errorf("result %s: no game started", r.Result)
	}
	switch r.Result {
	case "1-0", "0-1", "1/2-1/2", "*":
	default:
		return fmt.Errorf("result %q: want 1-0, 0-1, 1/2-1/2 or *", r.Result)
	}
	r.Game = g.info.ID
	return nil
}

func (g *game) applyResult(r Result, at time.Time) {
	g.result = r
	g.ended = r.Result != "*"
	g.endedAt = at
	g.prov = nil
}

func checkPosition(g *game, p *Position) (*chess.Position, error) {
	if g == nil {
		return nil, fmt.Errorf("set position: no game started")
	}
	pos, err := chess.ParseFEN(p.FEN)
	if err != nil {
		return nil, fmt.Errorf("set position: %w", err)
	}
	if p.Chess960 {
		pos.SetChess960(true)
	}
	p.Game = g.info.ID
	p.FEN = pos.FEN()
	p.Chess960 = pos.Chess960()
	return pos, nil
}

func (g *game) applyPosition(pos *chess.Position) {
	g.start = pos
	p := *pos
	g.pos = &p
	g.moves, g.cmoves, g.prov, g.lastMove = nil, nil, nil, nil
	g.info.FEN = pos.FEN()
	g.info.Chess960 = pos.Chess960()
	g.ended = false
	g.result = Result{Game: g.info.ID, Result: "*"}
}

// terminationTag maps the reasons a game ends with (the game session's,
// docs/rules.md, and the alert kinds older journals wrote) to the PGN
// Termination tag.
var terminationTag = map[string]string{
	"checkmate":                   "normal",
	"stalemate":                   "normal",
	"resignation":                 "normal",
	"agreement":                   "normal",
	"dead position":               "normal",
	"fivefold repetition":         "normal",
	"75-move rule":                "normal",
	"result shown with the kings": "normal",
	"time forfeit":                "time forfeit",
	"both flags fallen":           "time forfeit",
	"illegal move":                "rules infraction",
	"dead-position":               "normal",
	"draw-fivefold":               "normal",
	"draw-75-moves":               "normal",
	"flag-fall":                   "time forfeit",
	"both-flags":                  "time forfeit",
	"arbiter":                     "adjudication",
	"arbiter's decision":          "adjudication",
	"forfeit":                     "rules infraction",
}

// termination is the PGN Termination of a game ended for reason ("" when
// none fits): the arbiter's forfeits read "forfeit: ...".
func termination(reason string) string {
	if t, ok := terminationTag[reason]; ok {
		return t
	}
	if strings.HasPrefix(reason, "forfeit") {
		return "rules infraction"
	}
	return ""
}

// chessGame builds the PGN game: the final moves only, with [%clk] of the
// mover's clock after each move.
func (g *game) chessGame() *chess.Game {
	cg := chess.NewGame(g.start)
	cg.SetTag("Event", g.info.Event)
	cg.SetTag("Site", g.info.Site)
	cg.SetTag("Date", g.info.Date)
	cg.SetTag("Round", g.info.Round)
	cg.SetTag("White", g.info.White)
	cg.SetTag("Black", g.info.Black)
	if g.info.BoardNo != "" {
		cg.SetTag("Board", g.info.BoardNo)
	}
	elo := func(n int) string {
		if n > 0 {
			return strconv.Itoa(n)
		}
		return ""
	}
	// In a fixed order: the PGN text must not change between two
	// publications of the same game (relays compare it).
	for _, t := range [][2]string{
		{"WhiteElo", elo(g.info.WhiteElo)}, {"WhiteTitle", g.info.WhiteTitle}, {"WhiteFideId", g.info.WhiteFideID}, {"WhiteTeam", g.info.WhiteTeam},
		{"BlackElo", elo(g.info.BlackElo)}, {"BlackTitle", g.info.BlackTitle}, {"BlackFideId", g.info.BlackFideID}, {"BlackTeam", g.info.BlackTeam},
	} {
		if t[1] != "" {
			cg.SetTag(t[0], t[1])
		}
	}
	if g.info.TimeControl != "" {
		if tc, err := rules.ParseTimeControl(g.info.TimeControl); err == nil {
			if s, err := tc.PGN(); err == nil {
				cg.SetTag("TimeControl", s)
			}
		}
	}
	if g.ended {
		if t := termination(g.result.Termination); t != "" {
			cg.SetTag("Termination", t)
		}
	}
	for i, m := range g.moves {
		clk := chess.NoClock
		if m.Clocks != nil {
			ms := m.Clocks.WhiteMS
			if m.Side == "black" {
				ms = m.Clocks.BlackMS
			}
			clk = time.Duration(ms) * time.Millisecond
		}
		cg.Append(g.cmoves[i], clk)
	}
	cg.Result = g.result.Result
	return cg
}

func (g *game) pgn() string { return g.chessGame().PGN() }

func (g *game) uciMoves() []string {
	out := make([]string, len(g.moves))
	for i, m := range g.moves {
		out[i] = m.UCI
	}
	return out
}

// chain is what a move, correction or result record carries besides its
// payload, so that it can be applied when damage cost the journal earlier
// records: the game's start position and its final moves before the
// record. Replaying them rebuilds the game up to the record, so one lost
// record loses at most the clock times it held, not every move after it.
type chain struct {
	// Prior is the final moves before the record, UCI, space-separated
	// (a pointer: records written before chains existed have none).
	Prior *string `json:"prior,omitempty"`
	// Start is the start position's FEN if it is not the standard one.
	Start string `json:"start,omitempty"`
	// LastClocks are the clock times of the last of the Prior moves, so a
	// single lost move record does not cost its [%clk].
	LastClocks *Clocks `json:"prior_clock,omitempty"`
}

// key identifies the game the chain describes.
func (c chain) key() string {
	if c.Prior == nil {
		return c.Start + "|"
	}
	return c.Start + "|" + *c.Prior
}

// moveRecord, correctionRecord and resultRecord are what the journal
// holds for a move, a correction and a result.
type moveRecord struct {
	Move
	chain
}

type correctionRecord struct {
	Correction
	chain
}

type resultRecord struct {
	Result
	chain
	// Info is the game's, so a finished game keeps its tags even if
	// both copies of its game record are lost.
	Info *GameInfo `json:"info,omitempty"`
}

// startFEN is the start position's FEN, "" for the standard start.
func (g *game) startFEN() string {
	if f := g.start.FEN(); f != chess.StartFEN || g.start.Chess960() {
		return f
	}
	return ""
}

// chain is the game's chain for the next record.
func (g *game) chain() chain {
	prior := strings.Join(g.uciMoves(), " ")
	c := chain{Prior: &prior, Start: g.startFEN()}
	if n := len(g.moves); n > 0 {
		c.LastClocks = g.moves[n-1].Clocks
	}
	return c
}

// fillLastClocks gives the last final move the chain's clock times if it
// has none (it was rebuilt from a chain after its own record was lost).
func (g *game) fillLastClocks(c chain) {
	if n := len(g.moves); n > 0 && g.moves[n-1].Clocks == nil && c.LastClocks != nil {
		cl := *c.LastClocks
		g.moves[n-1].Clocks = &cl
	}
}

func (g *game) chainKey() string { return g.chain().key() }

// rebuildFrom replaces the game's final moves by the chain's, replayed from
// its start. Moves the game already had at the same plies keep their
// clock times; the others have none.
func (g *game) rebuildFrom(c chain) error {
	start := g.start
	if c.Start != g.startFEN() {
		if c.Start == "" {
			start = chess.NewPosition()
		} else {
			p, err := chess.ParseFEN(c.Start)
			if err != nil {
				return fmt.Errorf("rebuilding the game: start %q: %w", c.Start, err)
			}
			start = p
		}
		if g.info.Chess960 {
			start.SetChess960(true)
		}
	}
	same := start == g.start
	pos := *start
	var moves []Move
	var cmoves []chess.Move
	for i, u := range strings.Fields(*c.Prior) {
		mv, err := pos.ParseUCI(u)
		if err != nil {
			return fmt.Errorf("rebuilding the game: ply %d %s: %w (position %s)", i+1, u, err, pos.FEN())
		}
		m := Move{Game: g.info.ID, Ply: i + 1, Side: sideName(pos.SideToMove()), UCI: pos.UCI(mv), SAN: pos.SAN(mv), Final: true}
		if same && i < len(g.moves) && g.moves[i].UCI == m.UCI {
			m = g.moves[i]
		}
		pos.MakeMove(mv)
		if m.FEN == "" || !same {
			m.FEN = pos.FEN()
		}
		moves = append(moves, m)
		cmoves = append(cmoves, mv)
	}
	g.start = start
	g.pos = &pos
	g.moves, g.cmoves, g.prov, g.lastMove = moves, cmoves, nil, nil
	g.fillLastClocks(c)
	if n := len(moves); n > 0 {
		g.lastMove = &MoveRef{SAN: moves[n-1].SAN, UCI: moves[n-1].UCI}
	}
	if !same {
		g.info.FEN = c.Start
	}
	return nil
}
