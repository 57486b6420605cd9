// Package round reads a round's pairings, from a FIDE TRF-16 tournament
// report (what Swiss-Manager, Vega and JaVaFo export) or a simple CSV,
// and turns them into the new_game commands that set each board up:
// players, ratings, titles, federations, FIDE ids and teams, the round
// and the board number.
//
// Cmd is boardd's round command.
package round

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Player is one player as a pairing names them; zero values are unknown.
type Player struct {
	Name   string
	Elo    int
	Title  string
	Fed    string
	FideID string
	Team   string
}

// Pairing is one board of a round.
type Pairing struct {
	Board        int
	White, Black Player
}

// Round is a round's pairings, ordered by board number.
type Round struct {
	// Event is the tournament's name when the file gives it.
	Event    string
	Pairings []Pairing
	// Byes names players without a board this round (TRF only).
	Byes []string
}

// MaxPairings bounds what a file may hold, so a bad file cannot exhaust
// memory.
const MaxPairings = 10000

// trfCol reads 1-based columns from to to (inclusive) of a TRF line,
// trimmed; short lines read as blank. Columns count characters.
func trfCol(line []rune, from, to int) string {
	if from > len(line) {
		return ""
	}
	to = min(to, len(line))
	return strings.TrimSpace(string(line[from-1 : to]))
}

type trfPlayer struct {
	Player
	start  int
	points float64 // before the round, from the results of earlier rounds
	opp    int     // opponent's start number this round; 0: none
	colour byte    // 'w', 'b' or '-'
	line   int
}

// latin1 returns s as UTF-8: s itself when it is UTF-8, else s read as
// Latin-1, each byte one character (older TRF exports and spreadsheets
// saved on Windows write Latin-1 or Windows-1252).
func latin1(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	r := make([]rune, len(s))
	for i := 0; i < len(s); i++ {
		r[i] = rune(s[i])
	}
	return string(r)
}

// trfTitles are the one- and two-letter title codes of older TRF exports.
var trfTitles = map[string]string{"g": "GM", "m": "IM", "f": "FM", "c": "CM", "wg": "WGM", "wm": "WIM", "wf": "WFM", "wc": "WCM"}

// trfTitle reads a TRF title field: GM, WIM... or the older g, wm...
func trfTitle(s string) string {
	if t, ok := trfTitles[strings.ToLower(s)]; ok && s == strings.ToLower(s) {
		return t
	}
	return strings.ToUpper(s)
}

// ParseTRF reads round n of a FIDE TRF-16 report. Player lines (001)
// give each player's start number, title, name, rating, federation and
// FIDE id in fixed columns, then one 10-column block per round:
// opponent's start number, colour, result. Team lines (013) name the
// teams. Lines of other kinds are skipped.
//
// TRF has no board numbers: boards are numbered as FIDE's Swiss rules
// order a pairing list (C.04.2 D): by the higher score of the pair, then
// the sum of both scores, then the higher-ranked player (lower start
// number), scores counted from the results of the earlier rounds.
func ParseTRF(r io.Reader, n int) (*Round, error) {
	if n < 1 || n > 999 {
		return nil, fmt.Errorf("trf: round %d: want 1 to 999", n)
	}
	out := &Round{}
	players := map[int]*trfPlayer{}
	teams := map[int]string{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	ln := 0
	for sc.Scan() {
		ln++
		raw := strings.TrimRight(sc.Text(), "\r")
		if ln == 1 {
			raw = strings.TrimPrefix(raw, "\ufeff") // an editor's byte-order mark
		}
		line := []rune(latin1(raw))
		if len(line) < 3 {
			continue
		}
		switch string(line[:3]) {
		case "012":
			out.Event = trfCol(line, 5, len(line))
		case "013":
			name := trfCol(line, 5, 36)
			for c := 37; c+3 <= len(line); c += 5 {
				s := trfCol(line, c, c+3)
				if s == "" {
					continue
				}
				no, err := strconv.Atoi(s)
				if err != nil || no <= 0 {
					return nil, fmt.Errorf("trf line %d: team %q: member %q is not a start number", ln, name, s)
				}
				teams[no] = name
			}
		case "001":
			p, err := trfPlayerLine(line, ln, n)
			if err != nil {
				return nil, err
			}
			if prev := players[p.start]; prev != nil {
				return nil, fmt.Errorf("trf line %d: start number %d already used on line %d", ln, p.start, prev.line)
			}
			if len(players) >= MaxPairings {
				return nil, fmt.Errorf("trf line %d: more than %d players", ln, MaxPairings)
			}
			players[p.start] = p
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("trf line %d: %w", ln+1, err)
	}
	if len(players) == 0 {
		return nil, errors.New("trf: no player lines (001); is this a TRF-16 file?")
	}
	type pair struct{ w, b *trfPlayer }
	var pairs []pair
	for _, p := range players {
		p.Team = teams[p.start]
		if p.opp == 0 {
			if p.colour != 0 {
				out.Byes = append(out.Byes, p.Name)
			}
			continue
		}
		o := players[p.opp]
		if o == nil {
			return nil, fmt.Errorf("trf line %d: %s's opponent in round %d, start number %d, has no player line", p.line, p.Name, n, p.opp)
		}
		if o.opp != p.start {
			return nil, fmt.Errorf("trf line %d: %s plays start number %d in round %d, who plays %d", p.line, p.Name, p.opp, n, o.opp)
		}
		if p.colour == 'w' {
			if o.colour != 'b' {
				return nil, fmt.Errorf("trf line %d: %s has white in round %d, and so has the opponent %s", p.line, p.Name, n, o.Name)
			}
			pairs = append(pairs, pair{p, o})
		} else if p.colour != 'b' {
			return nil, fmt.Errorf("trf line %d: %s has no colour (w or b) in round %d", p.line, p.Name, n)
		}
	}
	if len(pairs) == 0 {
		return nil, fmt.Errorf("trf: no pairings for round %d", n)
	}
	sort.Slice(pairs, func(i, j int) bool {
		a, b := pairs[i], pairs[j]
		if ha, hb := max(a.w.points, a.b.points), max(b.w.points, b.b.points); ha != hb {
			return ha > hb
		}
		if sa, sb := a.w.points+a.b.points, b.w.points+b.b.points; sa != sb {
			return sa > sb
		}
		return min(a.w.start, a.b.start) < min(b.w.start, b.b.start)
	})
	for i, p := range pairs {
		out.Pairings = append(out.Pairings, Pairing{Board: i + 1, White: p.w.Player, Black: p.b.Player})
	}
	sort.Strings(out.Byes)
	return out, nil
}

// trfPlayerLine reads one 001 line for round n.
func trfPlayerLine(line []rune, ln, n int) (*trfPlayer, error) {
	p := &trfPlayer{line: ln}
	start, err := strconv.Atoi(trfCol(line, 5, 8))
	if err != nil || start <= 0 {
		return nil, fmt.Errorf("trf line %d: start number %q (columns 5-8) is not a positive number", ln, trfCol(line, 5, 8))
	}
	p.start = start
	p.Title = trfTitle(trfCol(line, 11, 13))
	p.Name = trfCol(line, 15, 47)
	if p.Name == "" {
		return nil, fmt.Errorf("trf line %d: player %d has no name (columns 15-47)", ln, start)
	}
	if s := trfCol(line, 49, 52); s != "" {
		if p.Elo, err = strconv.Atoi(s); err != nil || p.Elo < 0 {
			return nil, fmt.Errorf("trf line %d: %s's rating %q (columns 49-52) is not a number", ln, p.Name, s)
		}
	}
	p.Fed = strings.ToUpper(trfCol(line, 54, 56))
	p.FideID = trfCol(line, 58, 68)
	if p.FideID == "0" {
		p.FideID = ""
	}
	if strings.Trim(p.FideID, "0123456789") != "" {
		return nil, fmt.Errorf("trf line %d: %s's FIDE id %q (columns 58-68) is not a number", ln, p.Name, p.FideID)
	}
	for r := 1; r <= n; r++ {
		c := 92 + 10*(r-1) // the round's block: opponent 92-95, colour 97, result 99
		opp := trfCol(line, c, c+3)
		colour := strings.ToLower(trfCol(line, c+5, c+5))
		result := trfCol(line, c+7, c+7)
		o := 0
		if opp != "" {
			if o, err = strconv.Atoi(opp); err != nil || o < 0 {
				return nil, fmt.Errorf("trf line %d: %s's round %d opponent %q (columns %d-%d) is not a start number", ln, p.Name, r, opp, c, c+3)
			}
		}
		if r < n {
			p.points += trfPoints(result)
			continue
		}
		switch colour {
		case "w", "b", "-", "":
		default:
			return nil, fmt.Errorf("trf line %d: %s's round %d colour %q (column %d): want w, b or -", ln, p.Name, r, colour, c+5)
		}
		if o == start {
			return nil, fmt.Errorf("trf line %d: %s is paired against themself in round %d", ln, p.Name, r)
		}
		p.opp = o
		if colour != "" {
			p.colour = colour[0]
		} else if opp != "" || result != "" {
			p.colour = '-'
		}
	}
	return p, nil
}

// trfPoints is what a TRF-16 result code scores.
func trfPoints(code string) float64 {
	switch code {
	case "1", "+", "W", "F", "U":
		return 1
	case "=", "D", "H":
		return 0.5
	}
	return 0
}

// csvColumns maps the accepted header names (lower case, without spaces,
// underscores and hyphens) to a field.
var csvColumns = map[string]string{
	"board": "board", "boardno": "board", "bo": "board", "table": "board",
	"white": "white", "black": "black",
	"whiteelo": "white_elo", "whiterating": "white_elo", "blackelo": "black_elo", "blackrating": "black_elo",
	"whitetitle": "white_title", "blacktitle": "black_title",
	"whitefed": "white_fed", "whitefederation": "white_fed", "blackfed": "black_fed", "blackfederation": "black_fed",
	"whitefideid": "white_fide_id", "blackfideid": "black_fide_id",
	"whiteteam": "white_team", "blackteam": "black_team",
}

// ParseCSV reads pairings from a CSV file: a header naming the columns
// (board, white and black, and any of white_elo, white_title, white_fed,
// white_fide_id, white_team and the same for black; case, spaces and
// underscores do not matter), then one line per board. A file without a
// header is read as board, white, black. Commas or semicolons separate
// the fields (the first line decides).
func ParseCSV(r io.Reader) (*Round, error) {
	data, err := io.ReadAll(io.LimitReader(r, 16<<20))
	if err != nil {
		return nil, fmt.Errorf("csv: %w", err)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // a spreadsheet's BOM
	data = []byte(latin1(string(data)))
	first, _, _ := bytes.Cut(data, []byte("\n"))
	cr := csv.NewReader(bytes.NewReader(data))
	if bytes.Count(first, []byte(";")) > bytes.Count(first, []byte(",")) {
		cr.Comma = ';'
	}
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	rows, err := cr.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("csv: %w", err)
	}
	if len(rows) == 0 {
		return nil, errors.New("csv: empty file")
	}
	cols := map[string]int{}
	body := rows
	if _, err := strconv.Atoi(strings.TrimSpace(rows[0][0])); err != nil {
		for i, h := range rows[0] {
			k := strings.NewReplacer(" ", "", "_", "", "-", "").Replace(strings.ToLower(strings.TrimSpace(h)))
			f, ok := csvColumns[k]
			if !ok {
				return nil, fmt.Errorf("csv line 1: column %q: want board, white, black, white_elo, white_title, white_fed, white_fide_id, white_team or the same for black", h)
			}
			if _, dup := cols[f]; dup {
				return nil, fmt.Errorf("csv line 1: column %q given twice", h)
			}
			cols[f] = i
		}
		for _, need := range []string{"board", "white", "black"} {
			if _, ok := cols[need]; !ok {
				return nil, fmt.Errorf("csv line 1: no %s column", need)
			}
		}
		body = rows[1:]
	} else {
		cols = map[string]int{"board": 0, "white": 1, "black": 2}
	}
	out := &Round{}
	seen := map[int]int{}
	for i, row := range body {
		ln := i + 1 + len(rows) - len(body)
		get := func(f string) string {
			if c, ok := cols[f]; ok && c < len(row) {
				return strings.TrimSpace(row[c])
			}
			return ""
		}
		if strings.Join(row, "") == "" {
			continue
		}
		if len(out.Pairings) >= MaxPairings {
			return nil, fmt.Errorf("csv line %d: more than %d boards", ln, MaxPairings)
		}
		var p Pairing
		if p.Board, err = strconv.Atoi(get("board")); err != nil || p.Board <= 0 {
			return nil, fmt.Errorf("csv line %d: board %q is not a positive number", ln, get("board"))
		}
		if prev, dup := seen[p.Board]; dup {
			return nil, fmt.Errorf("csv line %d: board %d already on line %d", ln, p.Board, prev)
		}
		seen[p.Board] = ln
		for _, s := range []struct {
			side string
			pl   *Player
		}{{"white", &p.White}, {"black", &p.Black}} {
			pl := s.pl
			pl.Name = get(s.side)
			if pl.Name == "" {
				return nil, fmt.Errorf("csv line %d: board %d has no %s player", ln, p.Board, s.side)
			}
			if e := get(s.side + "_elo"); e != "" {
				if pl.Elo, err = strconv.Atoi(e); err != nil || pl.Elo < 0 {
					return nil, fmt.Errorf("csv line %d: %s_elo %q is not a rating", ln, s.side, e)
				}
			}
			pl.Title = strings.ToUpper(get(s.side + "_title"))
			pl.Fed = strings.ToUpper(get(s.side + "_fed"))
			pl.FideID = get(s.side + "_fide_id")
			pl.Team = get(s.side + "_team")
		}
		out.Pairings = append(out.Pairings, p)
	}
	if len(out.Pairings) == 0 {
		return nil, errors.New("csv: no pairings")
	}
	sort.Slice(out.Pairings, func(i, j int) bool { return out.Pairings[i].Board < out.Pairings[j].Board })
	return out, nil
}
