package rules

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// DelayMode says how a per-move delay works.
type DelayMode uint8

// The delay modes.
const (
	NoDelay DelayMode = iota
	// SimpleDelay is the Laws' "time-delay mode" (1997 6.2, 2018/2023
	// 6.3.2): the base time does not start to run until the delay has
	// elapsed; delay not used is lost. Written "d10s".
	SimpleDelay
	// BronsteinDelay gives back the time used for the move, at most the
	// delay, when the clock is pressed. Written "b10s".
	BronsteinDelay
)

// String is "", "d" or "b", the letter used in the written form.
func (m DelayMode) String() string {
	switch m {
	case SimpleDelay:
		return "d"
	case BronsteinDelay:
		return "b"
	}
	return ""
}

// Period is one period of a time control.
//
// Moves are counted per player, from 1 (a player's nth move is move n of
// the game score). A period with Moves > 0 covers that many moves; a
// period with Moves == 0 covers the rest of the game (sudden death). If the
// last period has Moves > 0 it repeats: the same time is given again for
// each further block of Moves moves (the traditional "40/2h repeating").
type Period struct {
	// Moves each player must complete in the period; 0 for the rest of the game.
	Moves int
	// Time is the thinking time the period adds: the initial time for the
	// first period; for a later one, added to the player's clock when the
	// player completes the last move of the previous period. Time saved in
	// one period carries over to the next (2018 6.3.1).
	Time time.Duration
	// Increment is the Fischer increment of each move of this period.
	// ClockModel credits it as ClockOptions.Credit says: by default before
	// the move is played, as FIDE clocks do (both clocks start at base plus
	// increment, and each press credits the next move's increment).
	Increment time.Duration
	// Delay per move of this period, applied as DelayMode says.
	Delay     time.Duration
	DelayMode DelayMode
}

// TimeControl is a game's time control: one or more periods. The zero value
// is "no time control" (PGN "-").
//
// The written form (ParseTimeControl, String) lists periods separated by
// commas; each is [moves "/"] time ["+" increment] [" d" delay | " b" delay],
// with times in h, m and s: "90m+30s", "40/120m,20/60m,15m+30s", "5m+3s",
// "15m d10s". An increment belongs to the period it is written on, so in
// "40/120m,20/60m,15m+30s" the 30 seconds are credited from move 61 (the
// classic FIDE control, encyclopedia seed 004); FIDE's usual "90 minutes
// for 40 moves, then 30 minutes, 30 seconds per move from move 1" is
// "40/90m+30s,30m+30s". A period other than the last written without a
// move count lasts 20 moves, as the second period of the classic control
// does: "40/120m,60m,15m+30s" is "40/120m,20/60m,15m+30s".
//
// The PGN TimeControl tag (PGN standard 9.6) is read too: "40/7200:3600:900+30",
// "300+3", "-" (none), "?" (unknown); times there are in seconds.
type TimeControl struct {
	// Periods in order; nil when the game has no time control or it is unknown.
	Periods []Period
	// Unknown is set for the PGN tag value "?".
	Unknown bool
}

// Timed reports whether tc has at least one period.
func (tc TimeControl) Timed() bool { return len(tc.Periods) > 0 }

// Equal reports whether tc and o describe the same control.
func (tc TimeControl) Equal(o TimeControl) bool {
	if tc.Unknown != o.Unknown || len(tc.Periods) != len(o.Periods) {
		return false
	}
	for i := range tc.Periods {
		if tc.Periods[i] != o.Periods[i] {
			return false
		}
	}
	return true
}

// Initial is the time on each clock when the game starts (the first
// period's time), 0 if untimed.
func (tc TimeControl) Initial() time.Duration {
	if len(tc.Periods) == 0 {
		return 0
	}
	return tc.Periods[0].Time
}

// PeriodAt returns the index of the period a player's move number move
// (1-based) belongs to and the number of that period's first move (for a
// repeating last period, the first move of the current repetition). It
// returns -1, 0 when tc is untimed or move < 1.
func (tc TimeControl) PeriodAt(move int) (index, first int) {
	if len(tc.Periods) == 0 || move < 1 {
		return -1, 0
	}
	first = 1
	last := len(tc.Periods) - 1
	for i, p := range tc.Periods {
		if i == last {
			if p.Moves > 0 && move >= first+p.Moves {
				first += (move - first) / p.Moves * p.Moves
			}
			return i, first
		}
		if move < first+p.Moves {
			return i, first
		}
		first += p.Moves
	}
	return last, first // not reached
}

// IncrementFor is the Fischer increment that belongs to a player's move
// number move (the increment of the period the move is in). When it
// reaches the clock is the clock's rule: a FIDE clock (ClockModel,
// CreditBeforeMove) has it on the clock while the move is played, from
// the start for move 1 and from the completion of the previous move
// otherwise; ClockOptions can credit it at the move's completion instead.
func (tc TimeControl) IncrementFor(move int) time.Duration {
	i, _ := tc.PeriodAt(move)
	if i < 0 {
		return 0
	}
	return tc.Periods[i].Increment
}

// DelayFor is the delay that applies to move number move, and its mode.
func (tc TimeControl) DelayFor(move int) (time.Duration, DelayMode) {
	i, _ := tc.PeriodAt(move)
	if i < 0 {
		return 0, NoDelay
	}
	return tc.Periods[i].Delay, tc.Periods[i].DelayMode
}

// TimeAddedAfter is the period time added to a player's clock when the
// player completes move number move because that move ends a period (the
// next period's Time, or the last period's Time again when it repeats). It
// does not include the move's increment (IncrementFor). It is 0 for a move
// that ends no period.
func (tc TimeControl) TimeAddedAfter(move int) time.Duration {
	i, first := tc.PeriodAt(move)
	if i < 0 {
		return 0
	}
	p := tc.Periods[i]
	if p.Moves == 0 || move != first+p.Moves-1 {
		return 0
	}
	if i+1 < len(tc.Periods) {
		return tc.Periods[i+1].Time
	}
	return p.Time // the last period repeats
}

// ControlAt is the move number by which a player must have completed the
// period that move belongs to (the "time control" move, 2018 6.9), or 0
// if that period lasts for the rest of the game.
func (tc TimeControl) ControlAt(move int) int {
	i, first := tc.PeriodAt(move)
	if i < 0 || tc.Periods[i].Moves == 0 {
		return 0
	}
	return first + tc.Periods[i].Moves - 1
}

// IncrementFrom is the first move for which an increment is credited, 0 if
// none ever is. For "40/120m,20/60m,15m+30s" it is 61.
func (tc TimeControl) IncrementFrom() int {
	first := 1
	for _, p := range tc.Periods {
		if p.Increment > 0 {
			return first
		}
		first += p.Moves
	}
	return 0
}

// SixtyMoveTime is the thinking time a player gets for 60 moves: the time
// of every period that starts within the first 60 moves plus the increment
// and delay of moves 1 to 60. It is the measure the 2018 and 2023 editions
// use to tell rapid and blitz from standard games (A.1, B.1: "the time
// allotted plus 60 times any increment"). A delay is counted like an
// increment, the most it can save per move.
func (tc TimeControl) SixtyMoveTime() time.Duration {
	var total time.Duration
	for m := 1; m <= 60 && len(tc.Periods) > 0; m++ {
		i, first := tc.PeriodAt(m)
		p := tc.Periods[i]
		if m == first {
			total += p.Time
		}
		total += p.Increment + p.Delay
	}
	return total
}

// Classification is the game type a time control gives in an edition, with
// the article that defines it.
type Classification struct {
	Type    GameType
	Edition Edition
	Article string        // e.g. "A.1" (2018 rapid) or "B1" (1997 rapid)
	Time    time.Duration // the time compared with the edition's thresholds
	Reason  string        // one line, e.g. "15m + 60 × 10s = 25m: more than 10 and less than 60 minutes"
}

// Classify tells whether tc makes a standard, rapid or blitz game under
// edition ed.
//
// 2018 and 2023 (A.1, B.1): blitz when the time for 60 moves
// (SixtyMoveTime) is 10 minutes or less, rapid when it is more than 10 and
// less than 60 minutes, standard otherwise. 1997 (B1, C1): rapid when all
// moves must be made in 15 to 60 minutes, blitz under 15 minutes, standard
// above 60. The 1997 text counts a fixed time only; for a control with an
// increment or delay boardd measures the 1997 thresholds against the same
// 60-move time, so that a 10m+5s game is rapid in every edition.
func (tc TimeControl) Classify(ed Edition) (Classification, error) {
	if !ed.Valid() {
		return Classification{}, fmt.Errorf("classify time control: unknown FIDE edition %d", int(ed))
	}
	if tc.Unknown {
		return Classification{}, errors.New("classify time control: the time control is unknown (\"?\")")
	}
	if !tc.Timed() {
		return Classification{}, errors.New("classify time control: the game has no time control (\"-\")")
	}
	t := tc.SixtyMoveTime()
	c := Classification{Edition: ed, Time: t}
	what := formatDuration(t)
	if tc.IncrementFrom() != 0 || tc.hasDelay() || len(tc.Periods) > 1 {
		what = "60 moves' worth of time " + what
	}
	if ed == Edition1997 {
		switch {
		case t < 15*time.Minute:
			c.Type, c.Article = Blitz, "C1"
			c.Reason = what + ": less than 15 minutes"
		case t <= 60*time.Minute:
			c.Type, c.Article = Rapid, "B1"
			c.Reason = what + ": between 15 and 60 minutes"
		default:
			c.Type, c.Article = Standard, "B1"
			c.Reason = what + ": more than 60 minutes"
		}
		return c, nil
	}
	switch {
	case t <= 10*time.Minute:
		c.Type, c.Article = Blitz, "B.1"
		c.Reason = what + ": 10 minutes or less"
	case t < 60*time.Minute:
		c.Type, c.Article = Rapid, "A.1"
		c.Reason = what + ": more than 10 and less than 60 minutes"
	default:
		c.Type, c.Article = Standard, "A.1"
		c.Reason = what + ": 60 minutes or more"
	}
	return c, nil
}

func (tc TimeControl) hasDelay() bool {
	for _, p := range tc.Periods {
		if p.Delay > 0 {
			return true
		}
	}
	return false
}

// String writes tc in the form ParseTimeControl reads ("40/120m,20/60m,15m+30s",
// "15m d10s"); "-" for no time control and "?" for an unknown one. Middle
// periods are always written with their move count.
func (tc TimeControl) String() string {
	if tc.Unknown {
		return "?"
	}
	if len(tc.Periods) == 0 {
		return "-"
	}
	var b strings.Builder
	for i, p := range tc.Periods {
		if i > 0 {
			b.WriteByte(',')
		}
		if p.Moves > 0 {
			b.WriteString(strconv.Itoa(p.Moves))
			b.WriteByte('/')
		}
		b.WriteString(formatDuration(p.Time))
		if p.Increment > 0 {
			b.WriteByte('+')
			b.WriteString(formatDuration(p.Increment))
		}
		if p.DelayMode != NoDelay {
			b.WriteByte(' ')
			b.WriteString(p.DelayMode.String())
			b.WriteString(formatDuration(p.Delay))
		}
	}
	return b.String()
}

// PGN writes tc as a PGN TimeControl tag value ("40/7200:3600:900+30",
// "300+3", "-", "?"). The tag has no notation for a delay: a control with
// one is an error.
func (tc TimeControl) PGN() (string, error) {
	if tc.Unknown {
		return "?", nil
	}
	if len(tc.Periods) == 0 {
		return "-", nil
	}
	var b strings.Builder
	for i, p := range tc.Periods {
		if p.DelayMode != NoDelay {
			return "", fmt.Errorf("time control %s: period %d has a delay, which a PGN TimeControl tag cannot express", tc, i+1)
		}
		if p.Time%time.Second != 0 || p.Increment%time.Second != 0 {
			return "", fmt.Errorf("time control %s: period %d is not in whole seconds", tc, i+1)
		}
		if i > 0 {
			b.WriteByte(':')
		}
		if p.Moves > 0 {
			fmt.Fprintf(&b, "%d/", p.Moves)
		}
		fmt.Fprintf(&b, "%d", int64(p.Time/time.Second))
		if p.Increment > 0 {
			fmt.Fprintf(&b, "+%d", int64(p.Increment/time.Second))
		}
	}
	return b.String(), nil
}

// Limits on what a time control may say; anything beyond is a typing error.
const (
	maxPeriods    = 10
	maxMoves      = 500
	maxPeriodTime = 24 * time.Hour
	maxIncrement  = time.Hour
	// defaultMiddleMoves is the length of a middle period written without a
	// move count (the classic FIDE second period: moves 41 to 60).
	defaultMiddleMoves = 20
)

// TimeControlError is a time control that cannot be read. Part names the
// piece that is wrong ("period 2", "period 1 increment", ...).
type TimeControlError struct {
	Input  string
	Part   string
	Reason string
}

func (e *TimeControlError) Error() string {
	if e.Part == "" {
		return fmt.Sprintf("time control %q: %s", e.Input, e.Reason)
	}
	return fmt.Sprintf("time control %q: %s: %s", e.Input, e.Part, e.Reason)
}

// ParseTimeControl reads a time control in boardd's written form
// ("90m+30s", "40/120m,60m,15m+30s", "5m+3s", "15m d10s") or as a PGN
// TimeControl tag value ("40/7200:3600:900+30", "300+3", "-", "?"). A
// value made only of digits and "/:+*" is read as a PGN tag, so its
// numbers are seconds. Errors are *TimeControlError and name the part
// that is wrong.
func ParseTimeControl(s string) (TimeControl, error) {
	in := strings.TrimSpace(s)
	switch {
	case in == "":
		return TimeControl{}, &TimeControlError{Input: s, Reason: "empty; want e.g. 90m+30s, 40/120m,60m,15m+30s or a PGN tag like 5400+30"}
	case in == "?":
		return TimeControl{Unknown: true}, nil
	case in == "-":
		return TimeControl{}, nil
	case strings.Trim(in, "0123456789/:+*") == "":
		return parsePGNTimeControl(s, in)
	}
	parts := strings.Split(in, ",")
	if len(parts) > maxPeriods {
		return TimeControl{}, &TimeControlError{Input: s, Reason: fmt.Sprintf("%d periods, at most %d", len(parts), maxPeriods)}
	}
	tc := TimeControl{Periods: make([]Period, 0, len(parts))}
	for i, part := range parts {
		p, err := parsePeriod(strings.TrimSpace(part), i == len(parts)-1)
		if err != nil {
			err.Input = s
			err.Part = fmt.Sprintf("period %d %q%s", i+1, strings.TrimSpace(part), err.Part)
			return TimeControl{}, err
		}
		tc.Periods = append(tc.Periods, p)
	}
	if err := tc.validate(); err != nil {
		err.Input = s
		return TimeControl{}, err
	}
	return tc, nil
}

// parsePeriod reads one period of the written form. The error's Part, if
// set, is a suffix like ": increment".
func parsePeriod(s string, last bool) (Period, *TimeControlError) {
	var p Period
	if s == "" {
		return p, &TimeControlError{Reason: "empty period"}
	}
	if i := strings.IndexByte(s, '/'); i >= 0 {
		n, err := strconv.Atoi(s[:i])
		if err != nil || n < 1 || n > maxMoves {
			return p, &TimeControlError{Part: ": move count", Reason: fmt.Sprintf("%q is not a number of moves from 1 to %d", s[:i], maxMoves)}
		}
		p.Moves = n
		s = s[i+1:]
	} else if !last {
		p.Moves = defaultMiddleMoves
	}
	// Time, then an optional increment, then an optional delay.
	end := durationPrefix(s)
	if end == 0 {
		return p, &TimeControlError{Part: ": time", Reason: fmt.Sprintf("missing before %q; want a time like 90m, 1h30m or 300s", s)}
	}
	d, err := parseDuration(s[:end])
	if err != nil {
		return p, &TimeControlError{Part: ": time", Reason: err.Error()}
	}
	p.Time = d
	s = s[end:]
	if strings.HasPrefix(s, "+") {
		s = s[1:]
		end = durationPrefix(s)
		if end == 0 {
			return p, &TimeControlError{Part: ": increment", Reason: "missing after \"+\"; want e.g. +30s"}
		}
		if p.Increment, err = parseDuration(s[:end]); err != nil {
			return p, &TimeControlError{Part: ": increment", Reason: err.Error()}
		}
		s = s[end:]
	}
	s = strings.TrimLeft(s, " \t")
	if s != "" {
		switch s[0] {
		case 'd':
			p.DelayMode = SimpleDelay
		case 'b':
			p.DelayMode = BronsteinDelay
		default:
			return p, &TimeControlError{Reason: fmt.Sprintf("unexpected %q; after the time come an optional +increment and an optional delay d10s or b10s", s)}
		}
		s = s[1:]
		end = durationPrefix(s)
		if end == 0 || end != len(s) {
			return p, &TimeControlError{Part: ": delay", Reason: fmt.Sprintf("%q is not a delay like d10s", s)}
		}
		if p.Delay, err = parseDuration(s); err != nil {
			return p, &TimeControlError{Part: ": delay", Reason: err.Error()}
		}
		if p.Delay == 0 {
			return p, &TimeControlError{Part: ": delay", Reason: "a delay of zero; leave it out"}
		}
	}
	return p, nil
}

// durationPrefix is the length of the longest prefix of s made of digits
// and the units h, m, s.
func durationPrefix(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c == 'h' || c == 'm' || c == 's') {
			return i
		}
	}
	return len(s)
}

// parseDuration reads "90m", "1h30m", "30s", "2m30s": whole numbers, each
// with a unit, units in decreasing order.
func parseDuration(s string) (time.Duration, error) {
	var total time.Duration
	prev := time.Duration(0)
	for s != "" {
		i := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == 0 {
			return 0, fmt.Errorf("%q: want a number before the unit", s)
		}
		if i > 6 {
			return 0, fmt.Errorf("%q: number too large", s[:i])
		}
		if i == len(s) {
			return 0, fmt.Errorf("%q has no unit; write h, m or s (e.g. %sm)", s, s)
		}
		n, _ := strconv.Atoi(s[:i])
		var unit time.Duration
		switch s[i] {
		case 'h':
			unit = time.Hour
		case 'm':
			unit = time.Minute
		case 's':
			unit = time.Second
		default:
			return 0, fmt.Errorf("unknown unit %q; want h, m or s", s[i])
		}
		if prev != 0 && unit >= prev {
			return 0, fmt.Errorf("units out of order in %q; write larger units first, each once", s)
		}
		prev = unit
		total += time.Duration(n) * unit
		s = s[i+1:]
	}
	return total, nil
}

// formatDuration writes d the way parseDuration reads it, in minutes where
// whole ("120m"), else minutes and seconds ("2m30s") or seconds ("30s").
func formatDuration(d time.Duration) string {
	if d%time.Second != 0 {
		return d.String() // not produced by the parsers; keep it readable
	}
	sec := int64(d / time.Second)
	switch {
	case sec == 0:
		return "0s"
	case sec%60 == 0:
		return fmt.Sprintf("%dm", sec/60)
	case sec > 60:
		return fmt.Sprintf("%dm%ds", sec/60, sec%60)
	}
	return fmt.Sprintf("%ds", sec)
}

// parsePGNTimeControl reads the PGN TimeControl tag (PGN standard 9.6.1):
// fields separated by ":", each "moves/seconds", "seconds" or
// "seconds+increment" (also "moves/seconds+increment", as written by many
// programs). The sandclock form "*seconds" is not supported.
func parsePGNTimeControl(orig, in string) (TimeControl, error) {
	fields := strings.Split(in, ":")
	if len(fields) > maxPeriods {
		return TimeControl{}, &TimeControlError{Input: orig, Reason: fmt.Sprintf("%d periods, at most %d", len(fields), maxPeriods)}
	}
	tc := TimeControl{Periods: make([]Period, 0, len(fields))}
	for i, f := range fields {
		part := fmt.Sprintf("PGN field %d %q", i+1, f)
		bad := func(sub, reason string) error {
			return &TimeControlError{Input: orig, Part: part + sub, Reason: reason}
		}
		var p Period
		if strings.HasPrefix(f, "*") {
			return TimeControl{}, bad("", "sandclock time controls are not supported")
		}
		if j := strings.IndexByte(f, '/'); j >= 0 {
			n, err := strconv.Atoi(f[:j])
			if err != nil || n < 1 || n > maxMoves {
				return TimeControl{}, bad(": move count", fmt.Sprintf("%q is not a number of moves from 1 to %d", f[:j], maxMoves))
			}
			p.Moves = n
			f = f[j+1:]
		} else if i < len(fields)-1 {
			p.Moves = defaultMiddleMoves
		}
		secs, inc, hasInc := strings.Cut(f, "+")
		n, err := pgnSeconds(secs)
		if err != nil {
			return TimeControl{}, bad(": seconds", err.Error())
		}
		p.Time = n
		if hasInc {
			if p.Increment, err = pgnSeconds(inc); err != nil {
				return TimeControl{}, bad(": increment", err.Error())
			}
		}
		tc.Periods = append(tc.Periods, p)
	}
	if err := tc.validate(); err != nil {
		err.Input = orig
		return TimeControl{}, err
	}
	return tc, nil
}

func pgnSeconds(s string) (time.Duration, error) {
	if s == "" {
		return 0, errors.New("missing number of seconds")
	}
	if len(s) > 6 {
		return 0, fmt.Errorf("%q: number too large", s)
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%q is not a whole number of seconds", s)
	}
	return time.Duration(n) * time.Second, nil
}

// validate checks the limits shared by both notations.
func (tc TimeControl) validate() *TimeControlError {
	for i, p := range tc.Periods {
		part := fmt.Sprintf("period %d", i+1)
		switch {
		case p.Time > maxPeriodTime:
			return &TimeControlError{Part: part, Reason: fmt.Sprintf("time %s is more than %s", formatDuration(p.Time), formatDuration(maxPeriodTime))}
		case p.Increment > maxIncrement:
			return &TimeControlError{Part: part, Reason: fmt.Sprintf("increment %s is more than %s", formatDuration(p.Increment), formatDuration(maxIncrement))}
		case p.Delay > maxIncrement:
			return &TimeControlError{Part: part, Reason: fmt.Sprintf("delay %s is more than %s", formatDuration(p.Delay), formatDuration(maxIncrement))}
		case i == 0 && p.Time == 0 && p.Increment == 0 && p.Delay == 0:
			return &TimeControlError{Part: part, Reason: "no time at all; the first period needs a time"}
		}
	}
	return nil
}
