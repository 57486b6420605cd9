package publish

import (
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/boardd/boardd/publish/journal"
)

// AlertJournalDamaged is the kind of the alert that tells the arbiter the
// board's journal lost records (see docs/mqtt.md, "Damage").
const AlertJournalDamaged = "journal-damaged"

// AlertJournalWrite is the kind of the alert that tells the arbiter the
// journal cannot be written (a full disk): moves are held in memory.
const AlertJournalWrite = "journal-write-failed"

// journalLoss is what damage cost the journal's current game, as found
// when the journal was opened.
type journalLoss struct {
	segment  string // the first damaged segment
	bytes    int    // bytes not part of any valid frame
	missing  int    // records known to be lost (seq gaps)
	dups     int    // duplicated frames dropped
	tailLost uint64 // records published before and gone from the end of the journal
	tailFrom uint64 // the first of them
	rebuilt  int    // records applied only after rebuilding the moves from them
	failed   int    // records that could not be applied
	firstErr error
	gameLost bool // the game record was lost: the tags are unknown

	alertIDs map[string]bool // alerts the journal holds, to raise one only once
}

func (l *journalLoss) addDamage(segment string, d journal.Damage) {
	if !d.Any() {
		return
	}
	if l.segment == "" {
		l.segment = segment
	}
	l.bytes += d.Bytes
	l.missing += d.Missing
	l.dups += d.Duplicates
}

// any reports a loss worth telling. A duplicated frame alone, or a torn
// end that was never published, loses nothing.
func (l *journalLoss) any() bool {
	return l.missing > 0 || l.tailLost > 0 || l.failed > 0 || l.gameLost
}

// String says what was lost, for the log, the status and the alert.
func (l *journalLoss) String() string {
	var parts []string
	if l.missing > 0 {
		parts = append(parts, fmt.Sprintf("%d records unreadable in %s (%d bytes)", l.missing, l.segment, l.bytes))
	}
	if l.tailLost > 0 {
		parts = append(parts, fmt.Sprintf("the last %d records (seq %d-%d) lost after they were published", l.tailLost, l.tailFrom, l.tailFrom+l.tailLost-1))
	}
	if l.gameLost {
		parts = append(parts, "the game's tags were lost")
	}
	switch {
	case l.failed > 0:
		parts = append(parts, fmt.Sprintf("%d later records could not be applied (first: %v)", l.failed, l.firstErr))
	case l.missing > 0:
		parts = append(parts, "every move after them was recovered")
	}
	return strings.Join(parts, "; ")
}

// alertID names the loss: the same damage found again after a restart
// has the same id.
func (l *journalLoss) alertID() string {
	h := fnv.New32a()
	fmt.Fprintf(h, "%s|%d|%d|%d|%d|%d|%v", l.segment, l.bytes, l.missing, l.tailFrom, l.tailLost, l.failed, l.gameLost)
	return fmt.Sprintf("journal-%08x", h.Sum32())
}
