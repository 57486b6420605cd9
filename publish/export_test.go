package publish

import (
	"encoding/json"

	"github.com/boardd/boardd/publish/journal"
)

// Crash abandons the Publisher as a kill -9 would: the journal file is
// closed (so the same process can open it again) but nothing is saved.
func (p *Publisher) Crash() { p.mark.close(); p.j.Close() }

// RotateJournal starts a new journal segment, as StartGame does before
// it writes the game record.
func (p *Publisher) RotateJournal() error { return p.j.Rotate() }

// JournalLastSeq is the seq of the newest journal record.
func (p *Publisher) JournalLastSeq() uint64 { return p.j.LastSeq() }

// MarkAllPublished saves the outbox mark as if the broker had
// acknowledged every record.
func (p *Publisher) MarkAllPublished() {
	p.mu.Lock()
	p.queue, p.cursor = nil, 0
	p.mu.Unlock()
	p.saveMark(p.j.LastSeq())
}

// JournaledMoves maps the seq of every final move record in the journal
// to its game and UCI.
func (p *Publisher) JournaledMoves() map[uint64]string {
	out := map[uint64]string{}
	p.j.Scan(0, func(r journal.Record) error {
		if r.Kind == kindMove {
			var m Move
			if json.Unmarshal(r.Data, &m) == nil && m.Final {
				out[r.Seq] = m.Game + " " + m.UCI
			}
		}
		return nil
	})
	return out
}
