package publish

import (
	"fmt"
	"strings"
)

// TopicPrefix is the root of every board's topic tree (docs/mqtt.md).
const TopicPrefix = "chess/v1/board/"

// The leaves below <b> = chess/v1/board/<boardId>.
const (
	LeafStatus       = "status"
	LeafState        = "state"
	LeafMove         = "move"
	LeafCorrection   = "correction"
	LeafPGN          = "pgn"
	LeafClock        = "clock"
	LeafAlert        = "alert"
	LeafAlertsActive = "alerts/active"
	LeafReply        = "reply"
	LeafCmd          = "cmd" // commands arrive on cmd/<verb>
)

// Topic returns the topic of leaf for board.
func Topic(board, leaf string) string { return TopicPrefix + board + "/" + leaf }

// ValidBoardID checks a board id: [a-z0-9-]{1,32}. It doubles as the MQTT
// username and certificate CN, so it must be safe as a topic level.
func ValidBoardID(id string) error {
	if id == "" || len(id) > 32 {
		return fmt.Errorf("board id %q: want 1 to 32 characters of a-z, 0-9 and -", id)
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return fmt.Errorf("board id %q: character %q at %d is not one of a-z, 0-9 and -", id, c, i)
		}
	}
	return nil
}

// SplitTopic splits a topic of the tree into board id and leaf; ok is
// false for a topic outside it.
func SplitTopic(topic string) (board, leaf string, ok bool) {
	rest, found := strings.CutPrefix(topic, TopicPrefix)
	if !found {
		return "", "", false
	}
	board, leaf, found = strings.Cut(rest, "/")
	if !found || board == "" || leaf == "" {
		return "", "", false
	}
	return board, leaf, true
}
