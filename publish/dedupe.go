package publish

import (
	"encoding/json"
	"fmt"
	"sync"
)

// IsEventLeaf reports whether a leaf carries events (each message a new
// fact: move, correction, alert, reply) rather than a retained snapshot.
func IsEventLeaf(leaf string) bool {
	switch leaf {
	case LeafMove, LeafCorrection, LeafAlert, LeafReply:
		return true
	}
	return false
}

// Deduper applies the subscriber rule of the topic tree: per board and
// topic, keep the highest (session, seq). An event whose (session, seq) is
// not newer than the last one accepted on its topic is a duplicate (a
// re-send after a reconnect) and is dropped; a retained snapshot is
// accepted unless it is older (an equal one is the same state sent again,
// or the will, which carries the header of the status it replaces).
// Because a board re-sends from its journal in order, what an event topic
// yields after this rule is complete and in order.
type Deduper struct {
	mu   sync.Mutex
	last map[string]Header
}

// Accept decodes the header of a message on topic and says whether to use
// it.
func (d *Deduper) Accept(topic string, payload []byte) (Header, bool, error) {
	var h Header
	if err := json.Unmarshal(payload, &h); err != nil {
		return h, false, fmt.Errorf("%s: payload is not a JSON object: %w", topic, err)
	}
	_, leaf, ok := SplitTopic(topic)
	if !ok {
		return h, false, fmt.Errorf("%s: not a board topic", topic)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.last == nil {
		d.last = map[string]Header{}
	}
	prev, seen := d.last[topic]
	if seen {
		if IsEventLeaf(leaf) && !h.Newer(prev) {
			return h, false, nil
		}
		if !IsEventLeaf(leaf) && prev.Newer(h) {
			return h, false, nil
		}
	}
	d.last[topic] = h
	return h, true, nil
}
