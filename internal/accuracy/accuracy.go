// Package accuracy measures the move reconstruction against the truth: it
// plays real games on the simulated board (sensors/sim), feeds the traces
// to the reconstruction engine, and compares what comes out with the
// games' moves and with the irregularities the simulator injected.
//
// Per PGN file, sensor kind and mode (clean or irregular traces) it counts
// the games reconstructed exactly (the same moves and no contradicting
// result), false alerts (irregularity alerts that match no injection),
// injected irregularities found with the right kind at the right ply,
// found one or two plies off, found only under another kind, or missed,
// and the corrections of published moves per 1,000 moves.
//
// Cmd is boardd's accuracy command.
package accuracy

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/reconstruct"
	"github.com/boardd/boardd/sensors/sim"
	"github.com/boardd/boardd/trace"
)

// Options choose what to measure.
type Options struct {
	// Files are the PGN files; every game of each is played.
	Files []string
	// Sensors and Irregular choose the traces: each game is played once
	// per sensor kind and per mode (false = clean, true = irregular).
	Sensors   []trace.Sensor
	Irregular []bool
	// Limit plays only the first Limit games of each file (0 = all).
	Limit int
	// Seed is the simulator seed; game n of a file uses
	// sim.GameSeed(Seed, n-1), as `boardd simulate --game n` does.
	Seed uint64
	// NoPromote drops the promote events of under-promotions.
	NoPromote bool
	// Rates are the simulator's hand model; nil means sim.DefaultRates().
	Rates *sim.Rates
	// Clock says whether the games are played with a chess clock
	// (sim.ClockAuto: as the game's clock readings and time control say).
	Clock sim.ClockMode
	// Workers run games in parallel (0 = GOMAXPROCS).
	Workers int
	// Examples keeps up to this many failing games per row.
	Examples int
	// Quiet is how long the board stands still after the last event
	// before the input ends (0 = 10 s), so that timers can fire.
	Quiet int64
}

// Case names one trace: a game of a file, a sensor kind, a mode.
type Case struct {
	File      string // PGN path
	Game      int    // 1 = the file's first game
	Sensor    trace.Sensor
	Irregular bool
}

// Game is the outcome of one trace.
type Game struct {
	Case
	Moves  int // moves in the game
	Events int // trace events fed
	Exact  bool
	// Why says what differed, "" when exact.
	Why string
	// Unseen: not exact, but the published game is one the sensors cannot
	// tell from the game's (a capture swapped unseen onto another
	// occupied square by a piece that never moves again; see unseen).
	Unseen bool
	// FalseAlerts are irregularity alerts no injection explains.
	FalseAlerts []string
	// Injections by outcome.
	Injected, Found, WrongPly, WrongKind, Missed int
	// Unfound describes injections not found with the right kind and ply.
	Unfound []string
	// Corrections counts published moves retracted or amended.
	Corrections int
	// Behind is the most plies the published game was behind the game
	// on the board: at the first event of each move's hands and at the
	// end, the moves completed on the board less those the published
	// game shares with them as far as the sensors can tell (a wrong ply
	// counts with every ply after it once the board can show it: shared).
	Behind int
	// BehindAt is the plies completed on the board when the published
	// game was first Behind.
	BehindAt int
}

// noteBehind records that the published game was n plies behind when
// done plies were complete on the board.
func (g *Game) noteBehind(n, done int) {
	if n > g.Behind {
		g.Behind, g.BehindAt = n, done
	}
}

// problems says what went wrong in the game: the moves, whether the
// sensors could tell, false alerts, injections not found.
func (g *Game) problems() []string {
	var what []string
	if g.Why != "" {
		what = append(what, g.Why)
	}
	if g.Unseen {
		what = append(what, "the sensors cannot tell the two games apart")
	}
	if len(g.FalseAlerts) > 0 {
		what = append(what, "false alerts: "+strings.Join(g.FalseAlerts, ", "))
	}
	what = append(what, g.Unfound...)
	if g.Behind > 2 {
		what = append(what, fmt.Sprintf("%d plies behind after ply %d", g.Behind, g.BehindAt))
	}
	return what
}

// Failed reports whether the game is worth a look: also an exact one that
// fell more than 2 plies behind the board for a moment.
func (g *Game) Failed() bool {
	return !g.Exact || len(g.FalseAlerts) > 0 || g.Found != g.Injected || g.Behind > 2
}

// Row sums the games of one file, sensor kind and mode.
type Row struct {
	File      string
	Sensor    trace.Sensor
	Irregular bool
	Games     int
	Exact     int
	Unseen    int // games not exact that the sensors cannot tell (Game.Unseen)
	Moves     int
	Events    int
	False     int
	Injected  int
	Found     int
	WrongPly  int
	WrongKind int
	Missed    int
	Corrected int
	// Behind2 counts the games that were more than 2 plies behind at some
	// moment; MaxBehind is the most any game was (Game.Behind).
	Behind2   int
	MaxBehind int
	Examples  []Game
}

func (r *Row) add(g *Game, examples int) {
	r.Games++
	r.Moves += g.Moves
	r.Events += g.Events
	if g.Exact {
		r.Exact++
	}
	if g.Unseen {
		r.Unseen++
	}
	r.False += len(g.FalseAlerts)
	r.Injected += g.Injected
	r.Found += g.Found
	r.WrongPly += g.WrongPly
	r.WrongKind += g.WrongKind
	r.Missed += g.Missed
	r.Corrected += g.Corrections
	r.addBehind(g.Behind)
	if g.Failed() && len(r.Examples) < examples {
		r.Examples = append(r.Examples, *g)
	}
}

func (r *Row) addBehind(n int) {
	if n > 2 {
		r.Behind2++
	}
	r.MaxBehind = max(r.MaxBehind, n)
}

// Report is the result of a run.
type Report struct {
	Rows    []Row // by file, then sensor kind, then mode
	Elapsed time.Duration
	Seed    uint64
	// FastSwap is the simulator's forced share of blind captures
	// (sim.Rates.FastSwap; 0: from the hands' timing).
	FastSwap float64
	// EarlyPress is the share of presses ahead of the landing
	// (sim.Rates.EarlyPress).
	EarlyPress float64
	// Clock is the runs' clock mode (sim.ClockAuto: by the games).
	Clock sim.ClockMode
	// Skipped counts PGN games that could not be read or simulated.
	Skipped int
}

// loaded is a file's games.
type loaded struct {
	path  string
	games []*chess.Game
	nums  []int // game numbers in the file (1-based)
}

func loadFile(path string, limit int, log *slog.Logger) (loaded, int, error) {
	f, err := os.Open(path)
	if err != nil {
		return loaded{}, 0, err
	}
	defer f.Close()
	pr := chess.NewPGNReader(bufio.NewReader(f))
	l := loaded{path: path}
	skipped := 0
	for n := 1; limit <= 0 || n <= limit; n++ {
		g, err := pr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var pe *chess.PGNError
			if !errors.As(err, &pe) {
				return l, skipped, fmt.Errorf("%s: %w", path, err)
			}
			log.Warn("game skipped", "file", path, "game", n, "err", err)
			skipped++
			continue
		}
		l.games = append(l.games, g)
		l.nums = append(l.nums, n)
	}
	return l, skipped, nil
}

// Run measures. It stops early (with ctx's error) when ctx is done.
func Run(ctx context.Context, opts Options, log *slog.Logger) (*Report, error) {
	if len(opts.Files) == 0 {
		return nil, errors.New("accuracy: no PGN files")
	}
	if len(opts.Sensors) == 0 {
		opts.Sensors = []trace.Sensor{trace.Occupancy, trace.Colour, trace.PieceSensor}
	}
	if len(opts.Irregular) == 0 {
		opts.Irregular = []bool{false, true}
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	start := time.Now()
	rep := &Report{Seed: opts.Seed, Clock: opts.Clock}
	if opts.Rates != nil {
		rep.FastSwap, rep.EarlyPress = opts.Rates.FastSwap, opts.Rates.EarlyPress
	}
	var files []loaded
	for _, path := range opts.Files {
		l, skipped, err := loadFile(path, opts.Limit, log)
		if err != nil {
			return nil, err
		}
		rep.Skipped += skipped
		files = append(files, l)
	}

	type job struct {
		row  int
		game *chess.Game
		c    Case
	}
	rows := make([]Row, 0, len(files)*len(opts.Sensors)*len(opts.Irregular))
	var jobs []job
	for _, l := range files {
		for _, s := range opts.Sensors {
			for _, irr := range opts.Irregular {
				rows = append(rows, Row{File: filepath.Base(l.path), Sensor: s, Irregular: irr})
				for i, g := range l.games {
					jobs = append(jobs, job{len(rows) - 1, g, Case{File: l.path, Game: l.nums[i], Sensor: s, Irregular: irr}})
				}
			}
		}
	}
	log.Info("accuracy run", "traces", len(jobs), "workers", workers)

	results := make(chan struct {
		row int
		g   Game
	}, 256)
	next := make(chan job)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []reconstruct.Output
			for j := range next {
				g := play(j.c, j.game, &opts, &buf)
				results <- struct {
					row int
					g   Game
				}{j.row, g}
			}
		}()
	}
	go func() {
		defer close(next)
		for _, j := range jobs {
			select {
			case next <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()

	done, lastLog := 0, time.Now()
	for r := range results {
		rows[r.row].add(&r.g, opts.Examples)
		done++
		if time.Since(lastLog) > 10*time.Second {
			lastLog = time.Now()
			log.Info("accuracy progress", "done", done, "of", len(jobs))
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rep.Rows = rows
	rep.Elapsed = time.Since(start)
	return rep, nil
}
