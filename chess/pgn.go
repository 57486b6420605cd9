package chess

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Tag is a PGN tag pair.
type Tag struct{ Name, Value string }

// NoClock marks a move without a clock reading in Game.Clocks.
const NoClock time.Duration = -1

// Game is a game read from or written as PGN.
type Game struct {
	Tags  []Tag     // in the order read; the writer puts the Seven Tag Roster first
	Start *Position // the start position (standard, or from the FEN tag)
	Moves []Move
	// Comments[i] is the comment after move i ("" for none), without braces
	// and without its [%clk] command, which is in Clocks[i].
	Comments []string
	// Clocks[i] is the mover's remaining time after move i ([%clk]), or
	// NoClock.
	Clocks []time.Duration
	Result string // "1-0", "0-1", "1/2-1/2" or "*"
	Line   int    // line of the game's first tag or move when read from PGN
}

// NewGame starts an empty game from start (the standard position if nil).
func NewGame(start *Position) *Game {
	if start == nil {
		start = NewPosition()
	}
	g := &Game{Start: start, Result: "*"}
	if start.FEN() != StartFEN {
		g.SetTag("SetUp", "1")
		g.SetTag("FEN", start.FEN())
	}
	if start.Chess960() {
		g.SetTag("Variant", "Chess960")
	}
	return g
}

// Tag returns the value of the named tag, "" if absent.
func (g *Game) Tag(name string) string {
	for _, t := range g.Tags {
		if t.Name == name {
			return t.Value
		}
	}
	return ""
}

// SetTag sets (or adds) a tag.
func (g *Game) SetTag(name, value string) {
	for i := range g.Tags {
		if g.Tags[i].Name == name {
			g.Tags[i].Value = value
			return
		}
	}
	g.Tags = append(g.Tags, Tag{name, value})
}

// Append adds a move (which must be legal after the moves so far) with an
// optional clock reading.
func (g *Game) Append(m Move, clock time.Duration) {
	g.Moves = append(g.Moves, m)
	g.Comments = append(g.Comments, "")
	g.Clocks = append(g.Clocks, clock)
}

// Position returns the position after the first n moves.
func (g *Game) Position(n int) *Position {
	p := *g.Start
	for _, m := range g.Moves[:n] {
		p.MakeMove(m)
	}
	return &p
}

// End returns the position after all moves.
func (g *Game) End() *Position { return g.Position(len(g.Moves)) }

// SANs returns the moves in SAN.
func (g *Game) SANs() []string {
	p := *g.Start
	out := make([]string, len(g.Moves))
	for i, m := range g.Moves {
		out[i] = p.SAN(m)
		p.MakeMove(m)
	}
	return out
}

// PGNError is an error in a PGN text, with the line it was found on.
type PGNError struct {
	Line int
	Msg  string
}

func (e *PGNError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// PGNReader reads games one at a time from PGN text. Variations are
// skipped; comments are kept per move; NAGs are dropped.
type PGNReader struct {
	r    *bufio.Reader
	line int
	peek []byte // a line pushed back
	eof  bool
}

// NewPGNReader returns a reader of the PGN text in r.
func NewPGNReader(r io.Reader) *PGNReader {
	return &PGNReader{r: bufio.NewReaderSize(r, 64*1024), line: 0}
}

// readLine returns the next line without its newline, or io.EOF.
func (pr *PGNReader) readLine() ([]byte, error) {
	if pr.peek != nil {
		l := pr.peek
		pr.peek = nil
		pr.line++
		return l, nil
	}
	if pr.eof {
		return nil, io.EOF
	}
	l, err := pr.r.ReadBytes('\n')
	if err == io.EOF {
		pr.eof = true
		if len(l) == 0 {
			return nil, io.EOF
		}
	} else if err != nil {
		return nil, fmt.Errorf("reading PGN: %w", err)
	}
	pr.line++
	l = bytes.TrimRight(l, "\r\n")
	l = bytes.TrimPrefix(l, []byte("\xef\xbb\xbf")) // a byte order mark
	return l, nil
}

func (pr *PGNReader) unread(l []byte) {
	pr.peek = append([]byte(nil), l...)
	pr.line--
}

// Next returns the next game, or io.EOF when there are no more. A game
// with an error is returned as a *PGNError; reading can go on with the
// next game.
func (pr *PGNReader) Next() (*Game, error) {
	// The game's text: tag lines, then movetext up to the next tag section.
	var tagLines []string
	var tagLineNos []int
	var move bytes.Buffer
	start := 0
	inMoves := false
	inComment := false
	for {
		l, err := pr.readLine()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if len(l) > 0 && l[0] == '%' && !inComment {
			continue // escape line
		}
		t := bytes.TrimSpace(l)
		if !inComment && len(t) > 0 && t[0] == '[' && !inMoves {
			if start == 0 {
				start = pr.line
			}
			tagLines = append(tagLines, string(t))
			tagLineNos = append(tagLineNos, pr.line)
			continue
		}
		if !inComment && len(t) > 0 && t[0] == '[' && inMoves {
			pr.unread(l)
			break
		}
		if len(t) == 0 && !inComment {
			if inMoves && endsWithResult(move.Bytes()) {
				break
			}
			continue
		}
		if start == 0 {
			start = pr.line
		}
		inMoves = true
		fmt.Fprintf(&move, "\x00%d\x00", pr.line) // line marker for errors
		if bytes.IndexByte(l, 0) >= 0 {
			l = bytes.ReplaceAll(l, []byte{0}, []byte{' '}) // NUL is the marker's
		}
		move.Write(l)
		move.WriteByte('\n')
		inComment = commentOpenAfter(inComment, l)
	}
	if start == 0 {
		return nil, io.EOF
	}
	g := &Game{Line: start, Result: "*"}
	for i, tl := range tagLines {
		tag, err := parseTag(tl)
		if err != nil {
			return nil, &PGNError{Line: tagLineNos[i], Msg: err.Error()}
		}
		g.Tags = append(g.Tags, tag)
	}
	if err := g.setStart(); err != nil {
		return nil, &PGNError{Line: start, Msg: err.Error()}
	}
	if err := g.parseMovetext(move.Bytes(), start); err != nil {
		return nil, err
	}
	return g, nil
}

// commentOpenAfter tracks whether a {comment} is still open at the end of l.
func commentOpenAfter(open bool, l []byte) bool {
	for _, c := range l {
		switch {
		case open && c == '}':
			open = false
		case !open && c == '{':
			open = true
		case !open && c == ';':
			return false
		}
	}
	return open
}

func endsWithResult(b []byte) bool {
	t := bytes.TrimSpace(b)
	for _, r := range []string{"1-0", "0-1", "1/2-1/2", "*", "½-½"} {
		if bytes.HasSuffix(t, []byte(r)) {
			return true
		}
	}
	return false
}

func parseTag(s string) (Tag, error) {
	if !strings.HasSuffix(s, "]") {
		return Tag{}, fmt.Errorf("tag %q: missing ]", s)
	}
	body := strings.TrimSpace(s[1 : len(s)-1])
	name, rest, ok := strings.Cut(body, " ")
	rest = strings.TrimSpace(rest)
	if !ok || name == "" || len(rest) < 2 || rest[0] != '"' || rest[len(rest)-1] != '"' {
		return Tag{}, fmt.Errorf("tag %q: want [Name \"value\"]", s)
	}
	v := rest[1 : len(rest)-1]
	v = strings.ReplaceAll(v, `\"`, `"`)
	v = strings.ReplaceAll(v, `\\`, `\`)
	return Tag{Name: name, Value: v}, nil
}

// IsChess960Variant reports whether a PGN Variant tag names Chess960.
func IsChess960Variant(v string) bool {
	v = strings.ToLower(strings.ReplaceAll(v, " ", ""))
	return strings.Contains(v, "960") || strings.Contains(v, "fischer") || v == "frc"
}

func (g *Game) setStart() error {
	c960 := IsChess960Variant(g.Tag("Variant"))
	if fen := g.Tag("FEN"); fen != "" {
		p, err := ParseFEN(fen)
		if err != nil {
			return fmt.Errorf("FEN tag: %w", err)
		}
		if c960 {
			p.SetChess960(true)
		}
		g.Start = p
		return nil
	}
	g.Start = NewPosition()
	if c960 {
		g.Start.SetChess960(true)
	}
	return nil
}

func isResult(tok string) (string, bool) {
	switch tok {
	case "1-0", "0-1", "1/2-1/2", "*":
		return tok, true
	case "½-½", "1/2":
		return "1/2-1/2", true
	}
	return "", false
}

// parseMovetext reads the moves. The text carries "\x00LINE\x00" markers at
// the start of each source line so that errors can name the line.
func (g *Game) parseMovetext(b []byte, line int) error {
	pos := *g.Start
	depth := 0 // variation nesting
	i := 0
	for i < len(b) {
		c := b[i]
		switch {
		case c == 0:
			j := bytes.IndexByte(b[i+1:], 0)
			line, _ = strconv.Atoi(string(b[i+1 : i+1+j]))
			i += j + 2
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '{':
			j := bytes.IndexByte(b[i:], '}')
			if j < 0 {
				return &PGNError{Line: line, Msg: "comment { not closed"}
			}
			text := stripMarkers(b[i+1 : i+j])
			i += j + 1
			if depth == 0 && len(g.Moves) > 0 {
				g.addComment(text)
			}
		case c == ';':
			j := bytes.IndexByte(b[i:], '\n')
			if j < 0 {
				j = len(b) - i
			}
			text := stripMarkers(b[i+1 : i+j])
			i += j
			if depth == 0 && len(g.Moves) > 0 {
				g.addComment(text)
			}
		case c == '}':
			return &PGNError{Line: line, Msg: "} without a comment to close"}
		case c == '(':
			depth++
			i++
		case c == ')':
			if depth == 0 {
				return &PGNError{Line: line, Msg: "unbalanced ) in movetext"}
			}
			depth--
			i++
		default:
			j := i
			for j < len(b) && !bytes.ContainsRune([]byte(" \t\n\r{}();\x00"), rune(b[j])) {
				j++
			}
			tok := string(b[i:j])
			i = j
			if depth > 0 {
				continue
			}
			if r, ok := isResult(tok); ok {
				g.Result = r
				continue
			}
			if tok[0] == '$' {
				continue // NAG
			}
			// Move numbers, possibly glued to the move: "12.", "12...", "12.e4".
			k := 0
			for k < len(tok) && tok[k] >= '0' && tok[k] <= '9' {
				k++
			}
			if k > 0 && k < len(tok) && tok[k] == '.' {
				for k < len(tok) && tok[k] == '.' {
					k++
				}
				tok = tok[k:]
			} else if k == len(tok) {
				continue // a bare number
			}
			if tok == "" {
				continue
			}
			if strings.Trim(tok, "!?") == "" {
				continue // a detached annotation
			}
			m, err := pos.ParseSAN(tok)
			if err != nil {
				return &PGNError{Line: line, Msg: fmt.Sprintf("move %s: %v", pos.MoveNumber(), err)}
			}
			pos.MakeMove(m)
			g.Append(m, NoClock)
		}
	}
	if depth != 0 {
		return &PGNError{Line: line, Msg: "variation ( not closed"}
	}
	if r := g.Tag("Result"); g.Result == "*" && r != "" {
		if rr, ok := isResult(r); ok {
			g.Result = rr
		}
	}
	return nil
}

func stripMarkers(b []byte) string {
	if bytes.IndexByte(b, 0) < 0 {
		return string(b)
	}
	var out []byte
	for i := 0; i < len(b); i++ {
		if b[i] == 0 {
			j := bytes.IndexByte(b[i+1:], 0)
			i += j + 1
			continue
		}
		out = append(out, b[i])
	}
	return string(out)
}

// addComment attaches text to the last move, taking any [%clk] out.
func (g *Game) addComment(text string) {
	n := len(g.Moves) - 1
	if d, rest, ok := extractClock(text); ok {
		g.Clocks[n] = d
		text = rest
	}
	text = strings.Join(strings.Fields(text), " ")
	if text == "" {
		return
	}
	if g.Comments[n] != "" {
		g.Comments[n] += " " + text
	} else {
		g.Comments[n] = text
	}
}

// extractClock finds "[%clk h:mm:ss(.f)]" in a comment and returns the
// duration and the comment without it.
func extractClock(text string) (time.Duration, string, bool) {
	i := strings.Index(text, "[%clk")
	if i < 0 {
		return 0, text, false
	}
	j := strings.IndexByte(text[i:], ']')
	if j < 0 {
		return 0, text, false
	}
	d, err := ParseClock(strings.TrimSpace(text[i+5 : i+j]))
	if err != nil {
		return 0, text, false
	}
	return d, text[:i] + text[i+j+1:], true
}

// ParseClock reads a clock reading h:mm:ss or h:mm:ss.f (also mm:ss).
func ParseClock(s string) (time.Duration, error) {
	bad := fmt.Errorf("clock %q: want h:mm:ss", s)
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, bad
	}
	sec, err := strconv.ParseFloat(parts[len(parts)-1], 64)
	if err != nil || sec < 0 || sec >= 60 || strings.ContainsAny(parts[len(parts)-1], "eE+-") {
		return 0, bad
	}
	var whole time.Duration // hours and minutes
	for k, p := range parts[:len(parts)-1] {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > 1000 || (k > 0 && n >= 60) {
			return 0, bad
		}
		whole = whole*60 + time.Duration(n)
	}
	return whole*time.Minute + time.Duration(sec*float64(time.Second)+0.5), nil
}

// FormatClock writes d as h:mm:ss, with tenths when d is not whole seconds.
func FormatClock(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	tenths := int64(d / (100 * time.Millisecond))
	s := tenths / 10
	out := fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	if t := tenths % 10; t != 0 {
		out += fmt.Sprintf(".%d", t)
	}
	return out
}

// MoveNumber is what PGN writes before the move to be made from p: "12."
// before White's, "12..." before Black's.
func (p *Position) MoveNumber() string {
	if p.side == White {
		return strconv.Itoa(int(p.fullmove)) + "."
	}
	return strconv.Itoa(int(p.fullmove)) + "..."
}

var sevenTagRoster = []string{"Event", "Site", "Date", "Round", "White", "Black", "Result"}

// WritePGN writes the game in PGN export format: the Seven Tag Roster first
// (with "?" for missing values), the other tags, then the movetext wrapped
// at 79 columns with comments and [%clk] readings.
func (g *Game) WritePGN(w io.Writer) error {
	bw := bufio.NewWriter(w)
	result := g.Result
	if result == "" {
		result = "*"
	}
	for _, name := range sevenTagRoster {
		v := g.Tag(name)
		switch {
		case name == "Result":
			v = result
		case v == "" && name == "Date":
			v = "????.??.??"
		case v == "":
			v = "?"
		}
		writeTag(bw, name, v)
	}
	for _, t := range g.Tags {
		if !isSTR(t.Name) {
			writeTag(bw, t.Name, t.Value)
		}
	}
	bw.WriteByte('\n')

	lw := lineWriter{w: bw}
	p := *g.Start
	needNumber := true
	for i, m := range g.Moves {
		if p.SideToMove() == White || needNumber {
			lw.word(p.MoveNumber())
		}
		lw.word(p.SAN(m))
		p.MakeMove(m)
		needNumber = false
		var words []string
		if i < len(g.Comments) {
			words = strings.Fields(strings.NewReplacer("{", "(", "}", ")").Replace(g.Comments[i]))
		}
		if i < len(g.Clocks) && g.Clocks[i] >= 0 {
			// One word: a line never breaks inside the command, which
			// readers that look for "[%clk " would then miss.
			words = append(words, "[%clk "+FormatClock(g.Clocks[i])+"]")
		}
		if len(words) > 0 {
			lw.word("{")
			for _, f := range words {
				lw.word(f)
			}
			lw.word("}")
			needNumber = true
		}
	}
	lw.word(result)
	bw.WriteString("\n\n")
	return bw.Flush()
}

// PGN returns the game as PGN text.
func (g *Game) PGN() string {
	var sb strings.Builder
	g.WritePGN(&sb) // a strings.Builder does not fail
	return sb.String()
}

func isSTR(name string) bool {
	for _, n := range sevenTagRoster {
		if n == name {
			return true
		}
	}
	return false
}

func writeTag(w *bufio.Writer, name, value string) {
	value = strings.ReplaceAll(value, `\`, `\\`)
	value = strings.ReplaceAll(value, `"`, `\"`)
	value = strings.NewReplacer("\n", " ", "\r", " ").Replace(value)
	fmt.Fprintf(w, "[%s \"%s\"]\n", name, value)
}

type lineWriter struct {
	w   *bufio.Writer
	col int
}

func (l *lineWriter) word(s string) {
	if l.col > 0 && l.col+1+len(s) > 79 {
		l.w.WriteByte('\n')
		l.col = 0
	}
	if l.col > 0 {
		l.w.WriteByte(' ')
		l.col++
	}
	l.w.WriteString(s)
	l.col += len(s)
}

// ReadAllPGN reads every game of a PGN text. Games with errors are skipped
// and their errors returned together (joined), after the games that read.
func ReadAllPGN(r io.Reader) ([]*Game, error) {
	pr := NewPGNReader(r)
	var games []*Game
	var errs []error
	for {
		g, err := pr.Next()
		if err == io.EOF {
			break
		}
		var pe *PGNError
		if errors.As(err, &pe) {
			errs = append(errs, err)
			continue
		}
		if err != nil {
			return games, err
		}
		games = append(games, g)
	}
	return games, errors.Join(errs...)
}
