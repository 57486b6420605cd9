package accuracy

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/boardd/boardd/sensors/sim"
	"github.com/boardd/boardd/trace"
)

func mode(irregular bool) string {
	if irregular {
		return "irregular"
	}
	return "clean"
}

func pct(n, of int) string {
	if of == 0 {
		return "-"
	}
	if n == of {
		return "100%"
	}
	return fmt.Sprintf("%.2f%%", 100*float64(n)/float64(of))
}

func perK(n, moves int) string {
	if moves == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", 1000*float64(n)/float64(moves))
}

// Totals sums the rows per sensor kind and mode, in the order of first
// appearance.
func (r *Report) Totals() []Row {
	var out []Row
	index := map[[2]int]int{}
	for _, row := range r.Rows {
		k := [2]int{int(row.Sensor), 0}
		if row.Irregular {
			k[1] = 1
		}
		i, ok := index[k]
		if !ok {
			i = len(out)
			index[k] = i
			out = append(out, Row{File: "TOTAL", Sensor: row.Sensor, Irregular: row.Irregular})
		}
		t := &out[i]
		t.Games += row.Games
		t.Exact += row.Exact
		t.Unseen += row.Unseen
		t.Moves += row.Moves
		t.Events += row.Events
		t.False += row.False
		t.Injected += row.Injected
		t.Found += row.Found
		t.WrongPly += row.WrongPly
		t.WrongKind += row.WrongKind
		t.Missed += row.Missed
		t.Corrected += row.Corrected
		t.Behind2 += row.Behind2
		t.MaxBehind = max(t.MaxBehind, row.MaxBehind)
	}
	return out
}

// WriteTable writes the rows and the totals as an aligned text table.
func (r *Report) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "file\tsensor\tmode\tgames\texact\texact %\tmoves\tfalse alerts\tinjected\tfound\twrong ply\twrong kind\tmissed\tcorr/1k\tbehind>2\tmax behind\tunseen\t")
	line := func(row Row) {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%d\t%d\t%d\t\n",
			strings.TrimSuffix(row.File, ".pgn"), row.Sensor, mode(row.Irregular), row.Games, row.Exact, pct(row.Exact, row.Games),
			row.Moves, row.False, row.Injected, row.Found, row.WrongPly, row.WrongKind, row.Missed, perK(row.Corrected, row.Moves),
			row.Behind2, row.MaxBehind, row.Unseen)
	}
	for _, row := range r.Rows {
		line(row)
	}
	for _, row := range r.Totals() {
		line(row)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	forced := ""
	if r.FastSwap != 0 {
		forced = fmt.Sprintf(", --fast-swap %v", r.FastSwap)
	}
	if r.EarlyPress != 0 {
		forced += fmt.Sprintf(", --early-press %v", r.EarlyPress)
	}
	_, err := fmt.Fprintf(w, "seed %d%s, %s, %d games unreadable\n", r.Seed, forced, r.Elapsed.Round(1e8), r.Skipped)
	return err
}

// WriteExamples lists the failing games kept per row, each with the
// command that writes its trace.
func (r *Report) WriteExamples(w io.Writer) error {
	for _, row := range r.Rows {
		for _, g := range row.Examples {
			irr := ""
			if g.Irregular {
				irr = " --irregular"
			}
			if r.FastSwap != 0 {
				irr += fmt.Sprintf(" --fast-swap %v", r.FastSwap)
			}
			if r.EarlyPress != 0 {
				irr += fmt.Sprintf(" --early-press %v", r.EarlyPress)
			}
			if r.Clock != sim.ClockAuto {
				irr += " --clock " + r.Clock.String()
			}
			what := g.problems()
			if _, err := fmt.Fprintf(w, "%s game %d, %s %s: %s\n    boardd simulate --pgn %s --game %d --sensor %s --seed %d%s\n",
				row.File, g.Game, g.Sensor, mode(g.Irregular), strings.Join(what, "; "),
				g.File, g.Game, g.Sensor, r.Seed, irr); err != nil {
				return err
			}
		}
	}
	return nil
}

// ParseSensors reads a comma-separated list of sensor kinds ("all" for
// the three).
func ParseSensors(s string) ([]trace.Sensor, error) {
	if s == "" || s == "all" {
		return []trace.Sensor{trace.Occupancy, trace.Colour, trace.PieceSensor}, nil
	}
	var out []trace.Sensor
	for _, name := range strings.Split(s, ",") {
		k, err := trace.ParseSensor(strings.TrimSpace(name))
		if err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, nil
}

// ParseModes reads "clean", "irregular" or "both".
func ParseModes(s string) ([]bool, error) {
	switch s {
	case "", "both", "all":
		return []bool{false, true}, nil
	case "clean":
		return []bool{false}, nil
	case "irregular":
		return []bool{true}, nil
	}
	return nil, fmt.Errorf("mode %q: want clean, irregular or both", s)
}
