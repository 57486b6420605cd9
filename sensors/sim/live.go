package sim

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/trace"
)

// Events returns src as a plain event reader: Next gives the trace events
// (without injection notes), io.EOF after the last. It satisfies
// sensors.EventReader, so a simulated game drives a sensors.Replayer like
// a recorded one.
func (s *Source) Events() *EventReader { return &EventReader{src: s} }

// EventReader reads a Source's events.
type EventReader struct{ src *Source }

// Next returns the next event, or io.EOF after the last.
func (r *EventReader) Next() (trace.Event, error) {
	it, err := r.src.Next()
	return it.Event, err
}

// GameFunc returns game n (0, 1, 2, ...) for a Loop, or io.EOF when there
// are no more.
type GameFunc func(n int) (Game, error)

// Loop plays games one after another as one event stream, the way a demo
// board replays real games with human timing: after a game the players
// leave, and a while later the pieces stand in the next game's start
// position (a frame) and the next game begins. Times continue from game to
// game. Game n is played with seed GameSeed(opts.Seed, n).
//
// The header is the first game's; later games should use the same sensor
// kind (they do: opts.Sensor) and, for a consumer that reads the header
// once, the same set-up kind and clock.
type Loop struct {
	games  GameFunc
	opts   Options
	n      int
	src    *Source
	offset int64 // added to the current game's times
	lastT  int64
	header trace.Header
	err    error
}

// Pause between games, in ms: result, handshake, pieces set up again.
const loopPause = 30000

// NewLoop starts with game 0 of games.
func NewLoop(games GameFunc, opts Options) (*Loop, error) {
	l := &Loop{games: games, opts: opts}
	if err := l.load(); err != nil {
		return nil, err
	}
	l.header = l.src.Header()
	return l, nil
}

func (l *Loop) load() error {
	g, err := l.games(l.n)
	if err != nil {
		if errors.Is(err, io.EOF) && l.n > 0 {
			return io.EOF
		}
		return fmt.Errorf("simulated board: game %d: %w", l.n+1, err)
	}
	return l.play(g)
}

// play makes g, game l.n, the one the loop plays, with that game's seed.
func (l *Loop) play(g Game) error {
	o := l.opts
	o.Seed = GameSeed(l.opts.Seed, l.n)
	src, err := NewSource(g, o)
	if err != nil {
		return fmt.Errorf("simulated board: game %d: %w", l.n+1, err)
	}
	l.src = src
	return nil
}

// StartAt makes the loop, before its first Next, play game n from its
// ply-th move on: the board shows the position after ply moves, the
// players' clocks read remaining (by colour; zero: the time control's),
// and the rest of the game is played from there, then game n+1 and on.
// A demonstration board restarted mid-game goes on with the same game.
func (l *Loop) StartAt(n, ply int, remaining [2]time.Duration) error {
	if l.lastT != 0 {
		return errors.New("simulated board: StartAt after the first event")
	}
	g, err := l.games(n)
	if err != nil {
		return fmt.Errorf("simulated board: game %d: %w", n+1, err)
	}
	if ply < 0 || ply > len(g.Moves) {
		return fmt.Errorf("simulated board: game %d has %d plies, not %d", n+1, len(g.Moves), ply)
	}
	start, err := g.validate()
	if err != nil {
		return fmt.Errorf("simulated board: game %d: %w", n+1, err)
	}
	pos := *start
	for _, m := range g.Moves[:ply] {
		pos.MakeMove(m)
	}
	g.Start, g.Moves, g.Remaining = &pos, g.Moves[ply:], remaining
	if ply < len(g.Clocks) {
		g.Clocks = g.Clocks[ply:]
	} else {
		g.Clocks = nil
	}
	prev := l.n
	l.n = n
	if err := l.play(g); err != nil {
		l.n = prev
		return err
	}
	return nil
}

// Header is the first game's trace header.
func (l *Loop) Header() trace.Header { return l.header }

// Game is the number of the game being played (0 = the first).
func (l *Loop) Game() int { return l.n }

// Next returns the next item; io.EOF once games returns io.EOF. The
// first event of every game is a frame of its start position.
func (l *Loop) Next() (Item, error) {
	if l.err != nil {
		return Item{}, l.err
	}
	for {
		it, err := l.src.Next()
		if err == nil {
			it.Event.T += l.offset
			for i := range it.Injections {
				it.Injections[i].T += l.offset
			}
			l.lastT = it.Event.T
			return it, nil
		}
		if !errors.Is(err, io.EOF) {
			l.err = err
			return Item{}, err
		}
		l.n++
		if err := l.load(); err != nil {
			l.err = err
			return Item{}, err
		}
		l.offset = l.lastT + loopPause
	}
}

// Events returns the loop as a plain event reader (sensors.EventReader).
func (l *Loop) Events() *LoopReader { return &LoopReader{l: l} }

// LoopReader reads a Loop's events.
type LoopReader struct{ l *Loop }

// Next returns the next event.
func (r *LoopReader) Next() (trace.Event, error) {
	it, err := r.l.Next()
	return it.Event, err
}

// Cycle makes a GameFunc that plays games over and over.
func Cycle(games []Game) GameFunc {
	return func(n int) (Game, error) {
		if len(games) == 0 {
			return Game{}, io.EOF
		}
		return games[n%len(games)], nil
	}
}

// GamesFromPGN reads every game of a PGN text for a Loop (with Cycle).
// Games that do not read are skipped; their errors come back joined, after
// the games that read.
func GamesFromPGN(r io.Reader) ([]Game, error) {
	pgs, err := chess.ReadAllPGN(r)
	games := make([]Game, len(pgs))
	for i, pg := range pgs {
		games[i] = FromPGN(pg)
	}
	return games, err
}
