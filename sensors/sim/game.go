package sim

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/boardd/boardd/chess"
)

// Game is what the simulated hands play.
type Game struct {
	Start *chess.Position // the start position; nil means the standard one
	Moves []chess.Move    // legal moves from Start
	// Clocks[i] is the mover's remaining time after move i, or negative
	// when unknown (chess.NoClock). It may be nil or shorter than Moves.
	// When known, think times follow it.
	Clocks []time.Duration
	// TimeControl is the game's time control, if known (see
	// ParseTimeControl); it sets the trace's clock header and turns clock
	// readings into think times.
	TimeControl *TimeControl
	Result      string // "1-0", "0-1", "1/2-1/2" or "*" ("" = "*")
	// Remaining are the players' clocks at Start, by colour, for a game
	// resumed part-way (Loop.StartAt); zero: the time control's own.
	Remaining [2]time.Duration
}

// FromPGN converts a game read by chess.PGNReader. The time control comes
// from the TimeControl tag when it can be read.
func FromPGN(pg *chess.Game) Game {
	g := Game{Start: pg.Start, Moves: pg.Moves, Clocks: pg.Clocks, Result: pg.Result}
	if tc, err := ParseTimeControl(pg.Tag("TimeControl")); err == nil {
		g.TimeControl = &tc
	}
	return g
}

// validate checks that every move is legal and returns the start position.
func (g *Game) validate() (*chess.Position, error) {
	start := g.Start
	if start == nil {
		start = chess.NewPosition()
	}
	p := *start
	var list chess.MoveList
	for i, m := range g.Moves {
		list.Reset()
		p.GenerateLegal(&list)
		if !list.Contains(m) {
			return nil, fmt.Errorf("move %d (%s) is not legal in %s", i+1, p.UCI(m), p.FEN())
		}
		p.MakeMove(m)
	}
	return start, nil
}

// clock returns the recorded clock after move i, or -1.
func (g *Game) clock(i int) time.Duration {
	if i < 0 || i >= len(g.Clocks) || g.Clocks[i] < 0 {
		return -1
	}
	return g.Clocks[i]
}

// hasClocks reports whether any move has a clock reading.
func (g *Game) hasClocks() bool {
	for _, c := range g.Clocks {
		if c >= 0 {
			return true
		}
	}
	return false
}

// TimeControl is a single-period time control: a base time and a
// per-move increment (Fischer) or delay (Bronstein/simple delay), or a
// first period of Moves moves followed by a sudden-death Second period.
type TimeControl struct {
	Base      time.Duration
	Increment time.Duration
	Delay     time.Duration // a per-move delay instead of an increment
	Moves     int           // moves in the first period (0 = whole game)
	Second    time.Duration // time added after Moves moves
}

// String writes the time control in the trace header notation:
// "90m+30s", "40/120m,30m+30s", "5m+3s", "15m d10s".
func (tc TimeControl) String() string {
	var b strings.Builder
	if tc.Moves > 0 {
		fmt.Fprintf(&b, "%d/%s,%s", tc.Moves, fmtDur(tc.Base), fmtDur(tc.Second))
	} else {
		b.WriteString(fmtDur(tc.Base))
	}
	switch {
	case tc.Increment > 0:
		b.WriteString("+" + fmtDur(tc.Increment))
	case tc.Delay > 0:
		b.WriteString(" d" + fmtDur(tc.Delay))
	}
	return b.String()
}

func fmtDur(d time.Duration) string {
	switch {
	case d%time.Minute == 0 && d >= time.Minute:
		return strconv.FormatInt(int64(d/time.Minute), 10) + "m"
	case d%time.Second == 0:
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	}
	return strconv.FormatInt(int64(d/time.Millisecond), 10) + "ms"
}

var (
	errNoTimeControl = errors.New("no time control")
	// "15 min. + 10 s. per move", "15 minutes + 10 seconds increment ...",
	// "90 min + 30 sec".
	reWordy = regexp.MustCompile(`^(\d+)\s*min[a-z.]*(?:\s*\+\s*(\d+)\s*s[a-z.]*)?`)
	// PGN standard: "5400+30", "40/7200:1800+30", "300".
	rePGN = regexp.MustCompile(`^(?:(\d+)/)?(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?(?::(\d+)(?:\+(\d+(?:\.\d+)?))?)?$`)
)

// ParseTimeControl reads a PGN TimeControl tag ("5400+30", "40/7200:1800",
// "300") or the wordy form broadcasts use ("15 min. + 10 s. per move").
func ParseTimeControl(tag string) (TimeControl, error) {
	s := strings.ToLower(strings.TrimSpace(tag))
	if s == "" || s == "?" || s == "-" {
		return TimeControl{}, errNoTimeControl
	}
	if m := reWordy.FindStringSubmatch(s); m != nil {
		base, err1 := strconv.Atoi(m[1])
		tc := TimeControl{Base: time.Duration(base) * time.Minute}
		var err2 error
		if m[2] != "" {
			var inc int
			inc, err2 = strconv.Atoi(m[2])
			tc.Increment = time.Duration(inc) * time.Second
		}
		if err1 != nil || err2 != nil || base > int(maxTC/time.Minute) || tc.Increment > maxTC {
			return TimeControl{}, fmt.Errorf("time control %q: times out of range", tag)
		}
		return tc.check(tag)
	}
	m := rePGN.FindStringSubmatch(s)
	if m == nil {
		return TimeControl{}, fmt.Errorf("time control %q: want seconds like 5400+30 or 40/7200:1800", tag)
	}
	bad := false
	secs := func(v string) time.Duration {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f > float64(maxTC/time.Second) {
			bad = true
			return 0
		}
		return time.Duration(f * float64(time.Second))
	}
	tc := TimeControl{Base: secs(m[2])}
	if m[1] != "" {
		tc.Moves, _ = strconv.Atoi(m[1])
		if m[4] == "" {
			return TimeControl{}, fmt.Errorf("time control %q: a move-count period needs a second period (40/7200:1800)", tag)
		}
		tc.Second = secs(m[4])
		if m[5] != "" {
			tc.Increment = secs(m[5])
		}
	} else if m[4] != "" {
		return TimeControl{}, fmt.Errorf("time control %q: a second period needs a move count (40/7200:1800)", tag)
	}
	if m[3] != "" {
		tc.Increment = secs(m[3])
	}
	if bad || tc.Moves > 1000 {
		return TimeControl{}, fmt.Errorf("time control %q: times out of range", tag)
	}
	return tc.check(tag)
}

// maxTC bounds every time of a time control (a day).
const maxTC = 24 * time.Hour

func (tc TimeControl) check(tag string) (TimeControl, error) {
	if tc.Base <= 0 {
		return TimeControl{}, fmt.Errorf("time control %q: no base time", tag)
	}
	if tc.Moves > 0 && tc.Second <= 0 {
		return TimeControl{}, fmt.Errorf("time control %q: no time for the second period", tag)
	}
	return tc, nil
}

// playable reports whether humans could play the time control on a board
// (engine controls like 10+0.05 are not).
func (tc TimeControl) playable() bool {
	return tc.Base >= time.Minute && tc.Increment%time.Second == 0 && tc.Delay%time.Second == 0
}
