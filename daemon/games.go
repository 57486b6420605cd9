package daemon

import (
	"fmt"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/config"
	"github.com/boardd/boardd/publish"
	"github.com/boardd/boardd/sensors/sim"
	"github.com/boardd/boardd/session"
	"github.com/boardd/boardd/trace"
)

// Starting and resuming games.

func (d *daemon) initialGame() gameSetup {
	var start *chess.Position
	spec, _ := config.ParseStart(d.cfg.Game.Start)
	switch spec.Kind {
	case "960":
		start, _ = chess.Chess960Start(spec.N)
	case "fen":
		start, _ = chess.ParseFEN(spec.FEN)
	}
	if start == nil {
		start = chess.NewPosition()
	}
	return d.setupFor(start)
}

func (d *daemon) setupFor(start *chess.Position) gameSetup {
	info := publish.GameInfo{White: d.cfg.Game.White, Black: d.cfg.Game.Black, Event: d.cfg.Game.Event, Round: d.cfg.Game.Round, BoardNo: d.cfg.Game.BoardNo, TimeControl: d.cfg.Game.TimeControl}
	if d.simLoop != nil && len(d.simGames) > 0 {
		// The corpus game's tags, where the configuration sets none.
		g := d.simGames[d.simLoop.Game()%len(d.simGames)]
		for _, f := range []struct {
			dst *string
			v   string
		}{{&info.White, g.white}, {&info.Black, g.black}, {&info.Event, g.event}, {&info.Round, g.round}, {&info.Site, g.site}, {&info.Date, g.date}} {
			if *f.dst == "" {
				*f.dst = f.v
			}
		}
	}
	if start.FEN() != chess.StartFEN || start.Chess960() {
		info.FEN, info.Chess960 = start.FEN(), start.Chess960()
	}
	return gameSetup{start: start, info: info}
}

// startGame sets up the reconstruction, the clock and the journal for a
// new game. At start-up (resume) an unfinished game in the journal is
// continued instead.
func (d *daemon) startGame(g gameSetup, resume bool) error {
	cur := d.pub.Current()
	if resume && cur.Info.ID != "" && !cur.Ended && d.simLoop != nil && !d.resumeSimulated(&cur) {
		// Not a game the simulated board plays: it starts its next one.
		if err := d.pub.End(publish.Result{Result: "*", Termination: "the simulated board starts a new game"}); err != nil {
			d.log.Warn("ending the journal's game", "err", err)
		}
		resume = false
	}
	if resume && cur.Info.ID != "" && !cur.Ended {
		start, err := chess.ParseFEN(cur.FEN)
		if err == nil {
			rc, err := d.newSession(start, true)
			if err != nil {
				return err
			}
			d.sess, d.game = rc, gameSetup{start: start, info: cur.Info}
			d.base = len(cur.Moves)
			d.provOut = cur.Provisional != nil
			d.log.Info("resumed the game from the journal", "game", cur.Info.ID, "moves", len(cur.Moves), "fen", cur.FEN)
			d.pub.SetStatus(publish.Status{State: "playing", Firmware: "boardd " + d.version, Sensors: d.describeSensors(), Clock: d.cfg.Clock.Kind})
			return nil
		}
		d.log.Warn("the journal's game cannot be resumed; starting a new one", "err", err)
	}
	rc, err := d.newSession(g.start, false)
	if err != nil {
		return err
	}
	d.sess = rc
	return d.beginGame(g)
}

// beginGame starts a game in the journal, with a fresh clock, once the
// reconstruction has it: at start-up, by command, or when the board showed
// a start position (the reconstruction then begins the game itself).
func (d *daemon) beginGame(g gameSetup) error {
	d.game = g
	d.base, d.provOut = 0, false
	// A new game clears the active alerts.
	clear(d.boardAlerts)
	clear(d.pendingAlerts)
	if _, err := d.pub.StartGame(g.info); err != nil {
		return fmt.Errorf("starting the game: %w", err)
	}
	if d.clock != nil {
		if err := d.replaceClock(d.ctx); err != nil {
			return err
		}
		if d.pressesFromSource {
			// The simulated players start at once; at a real board Black
			// (or the arbiter) starts White's clock (2018 Art. 6.6).
			if err := d.clock.Start(d.ctx); err != nil {
				d.log.Warn("starting the clock", "err", err)
			}
		}
	}
	d.pub.SetStatus(publish.Status{State: "playing", Firmware: "boardd " + d.version, Sensors: d.describeSensors(), Clock: d.cfg.Clock.Kind})
	d.log.Info("new game", "white", g.info.White, "black", g.info.Black, "start", g.start.FEN())
	return nil
}

// newSession starts the board's game session from start; resumed says the
// game goes on from the journal after a restart.
func (d *daemon) newSession(start *chess.Position, resumed bool) (*session.Session, error) {
	sensor := trace.Occupancy
	if d.src != nil {
		sensor = d.src.Sensor()
	}
	var setUp *chess.Position
	var remaining [2]time.Duration
	if resumed {
		// A new game set up on the board replaces the resumed one.
		setUp = d.initialGame().start
		// Its clocks go on from the journal's last reading.
		if c := d.pub.Current().Clock; c != nil {
			remaining = c.Durations()
		}
	}
	set, err := d.setting()
	if err != nil {
		return nil, fmt.Errorf("rules: %w", err)
	}
	return session.New(session.Config{
		Start:       start,
		Sensor:      sensor,
		Rules:       set,
		TimeControl: d.tc,
		Clock:       d.clock != nil || d.pressesFromSource && d.cfg.Clock.Kind != "none",
		// A simulated board's players start at once; at a real board Black
		// or the arbiter starts White's clock (2018 6.6).
		ClockStartsWithPress: !d.pressesFromSource,
		SetUp:                setUp,
		Remaining:            remaining,
	})
}

// resumeSimulated sets the simulated board to go on with the journal's
// unfinished game cur, from its last final move and with its clocks, when
// cur is one of the board's games: its moves begin that game's, and where
// several games begin so, the one with cur's players. It reports whether
// it did.
func (d *daemon) resumeSimulated(cur *publish.Resumed) bool {
	start := chess.NewPosition()
	if cur.Start != "" {
		p, err := chess.ParseFEN(cur.Start)
		if err != nil {
			return false
		}
		start = p
	}
	found, named := -1, false
	for k, g := range d.simGames {
		if !beginsWith(&g.game, start, cur.Moves) {
			continue
		}
		players := g.white == cur.Info.White && g.black == cur.Info.Black
		if found < 0 || players && !named {
			found, named = k, players
		}
	}
	if found < 0 {
		return false
	}
	var rem [2]time.Duration
	if c := cur.Clock; c != nil {
		rem = c.Durations()
	}
	if err := d.simLoop.StartAt(found, len(cur.Moves), rem); err != nil {
		d.log.Warn("the simulated board cannot go on with the journal's game", "err", err)
		return false
	}
	d.log.Info("the simulated board goes on with the journal's game", "game", cur.Info.ID, "corpus_game", found+1, "plies", len(cur.Moves))
	return true
}

// beginsWith reports whether g starts at start and its moves begin with
// moves (as the journal writes them, in UCI).
func beginsWith(g *sim.Game, start *chess.Position, moves []publish.Move) bool {
	pos := chess.NewPosition()
	if g.Start != nil {
		p := *g.Start
		pos = &p
	}
	if pos.FEN() != start.FEN() || len(moves) > len(g.Moves) {
		return false
	}
	for i, m := range moves {
		if pos.UCI(g.Moves[i]) != m.UCI {
			return false
		}
		pos.MakeMove(g.Moves[i])
	}
	return true
}
