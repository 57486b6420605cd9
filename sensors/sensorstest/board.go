package sensorstest

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"sync"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/sensors"
	"github.com/boardd/boardd/trace"
)

// Board is the physical board a chip model reads: which squares hold a
// piece, and which of those a white one. Its state follows scheduled
// changes (from a trace) as its Clock advances, and it tells the chip
// models of every change so that they can latch interrupts.
type Board struct {
	clk       *Clock
	mu        sync.Mutex
	occ       chess.Bitboard
	white     chess.Bitboard
	sched     []change
	listeners []func()
	applied   int
}

type change struct {
	t      time.Time
	seq    int
	frame  bool
	occ    chess.Bitboard // frame: the board; else the square
	white  chess.Bitboard
	on     bool
	whiteP bool
}

// NewBoard returns an empty board driven by clk.
func NewBoard(clk *Clock) *Board {
	b := &Board{clk: clk}
	clk.OnAdvance(b.advance)
	return b
}

// Clock returns the board's clock.
func (b *Board) Clock() *Clock { return b.clk }

// State returns the squares occupied and those occupied by white now.
func (b *Board) State() (occ, white chess.Bitboard) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.occ, b.white
}

// Set changes the board now.
func (b *Board) Set(occ, white chess.Bitboard) {
	b.mu.Lock()
	b.occ, b.white = occ, white&occ
	ls := b.listeners
	b.mu.Unlock()
	for _, f := range ls {
		f()
	}
}

// OnChange registers f to run after every change of the board.
func (b *Board) OnChange(f func()) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.listeners = append(b.listeners, f)
}

// NextChange returns the time of the next scheduled change.
func (b *Board) NextChange() (time.Time, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.sched) == 0 {
		return time.Time{}, false
	}
	return b.sched[0].t, true
}

// Pending returns the number of scheduled changes not yet applied.
func (b *Board) Pending() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.sched)
}

// Applied returns the number of changes applied so far.
func (b *Board) Applied() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.applied
}

func (b *Board) schedule(c change) {
	c.seq = len(b.sched) + b.applied
	b.sched = append(b.sched, c)
}

// PlayOptions say how a trace is played on a Board.
type PlayOptions struct {
	// Start is the time of the trace's millisecond 0 (default: now).
	Start time.Time
	// Bounce makes every on and off bounce: Toggles extra changes back and
	// forth spread over Bounce before the contact settles.
	Bounce  time.Duration
	Toggles int
}

// Play schedules the sensor events of r (frames, ons, offs; clock presses
// and promotions are ignored) on the board. It returns the number of
// sensor events scheduled.
func (b *Board) Play(r sensors.EventReader, o PlayOptions) (int, error) {
	defer b.applyDue()
	if o.Start.IsZero() {
		o.Start = b.clk.Now()
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for {
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return n, fmt.Errorf("board: %w", err)
		}
		t := o.Start.Add(time.Duration(ev.T) * time.Millisecond)
		switch ev.Kind {
		case trace.Frame:
			b.schedule(change{t: t, frame: true, occ: ev.Occ, white: ev.White})
		case trace.On, trace.Off:
			on := ev.Kind == trace.On
			white := on && ev.HasColour && ev.Piece.Color() == chess.White
			sq := ev.Square.Bitboard()
			if o.Toggles > 0 && o.Bounce > 0 {
				step := o.Bounce / time.Duration(2*o.Toggles)
				for k := 0; k < 2*o.Toggles; k++ {
					b.schedule(change{t: t.Add(time.Duration(k) * step), occ: sq, on: on == (k%2 == 0), whiteP: white})
				}
				t = t.Add(o.Bounce)
			}
			b.schedule(change{t: t, occ: sq, on: on, whiteP: white})
		default:
			continue
		}
		n++
	}
	sort.SliceStable(b.sched, func(i, j int) bool {
		if !b.sched[i].t.Equal(b.sched[j].t) {
			return b.sched[i].t.Before(b.sched[j].t)
		}
		return b.sched[i].seq < b.sched[j].seq
	})
	return n, nil
}

// Play applies the changes already due once it has scheduled them.
func (b *Board) applyDue() { b.advance(b.clk.Now()) }

// advance applies the changes due at now, one at a time, telling the
// listeners after each.
func (b *Board) advance(now time.Time) {
	for {
		b.mu.Lock()
		if len(b.sched) == 0 || b.sched[0].t.After(now) {
			b.mu.Unlock()
			return
		}
		c := b.sched[0]
		b.sched = b.sched[1:]
		switch {
		case c.frame:
			b.occ, b.white = c.occ, c.white&c.occ
		case c.on:
			b.occ |= c.occ
			b.white &^= c.occ
			if c.whiteP {
				b.white |= c.occ
			}
		default:
			b.occ &^= c.occ
			b.white &^= c.occ
		}
		b.applied++
		ls := b.listeners
		b.mu.Unlock()
		for _, f := range ls {
			f()
		}
	}
}
