package round

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/boardd/boardd/publish"
)

// Setup is what every game of the round shares.
type Setup struct {
	Round       string // PGN Round tag
	Event, Site string
	Date        string // YYYY.MM.DD; empty: each board's today
	TimeControl string
	// BoardID names the board of a board number: a format with one %d
	// (board-%d, b-%03d), or a map from number to id.
	BoardID string
	Boards  map[int]string
	By      string        // who sends the commands (journaled by each board)
	Expires time.Duration // how long a board may apply a command (default 5 min)
	Now     func() time.Time
}

// Command is one board's new_game.
type Command struct {
	Board   string // board id
	No      int    // board number
	ID      string // command id, to match its reply
	Topic   string
	Payload []byte
}

// newGame is the new_game payload (docs/mqtt.md).
type newGame struct {
	ID          string `json:"id"`
	Expires     string `json:"expires"`
	By          string `json:"by,omitempty"`
	White       string `json:"white"`
	Black       string `json:"black"`
	Event       string `json:"event,omitempty"`
	Site        string `json:"site,omitempty"`
	Date        string `json:"date,omitempty"`
	Round       string `json:"round,omitempty"`
	BoardNo     string `json:"board_no"`
	TimeControl string `json:"time_control,omitempty"`
	WhiteElo    int    `json:"white_elo,omitempty"`
	WhiteTitle  string `json:"white_title,omitempty"`
	WhiteFed    string `json:"white_fed,omitempty"`
	WhiteFideID string `json:"white_fide_id,omitempty"`
	WhiteTeam   string `json:"white_team,omitempty"`
	BlackElo    int    `json:"black_elo,omitempty"`
	BlackTitle  string `json:"black_title,omitempty"`
	BlackFed    string `json:"black_fed,omitempty"`
	BlackFideID string `json:"black_fide_id,omitempty"`
	BlackTeam   string `json:"black_team,omitempty"`
}

// Commands turns the round into one new_game command per board, each
// board found by its number. A command id names the round, the board
// and a hash of the game, so sending the same round twice is applied once
// by each board (a board answers a repeated id with its first reply),
// while a corrected pairing is applied.
func (r *Round) Commands(s Setup) ([]Command, error) {
	if s.Now == nil {
		s.Now = time.Now
	}
	if s.Expires <= 0 {
		s.Expires = 5 * time.Minute
	}
	if s.BoardID == "" && s.Boards == nil {
		s.BoardID = "board-%d"
	}
	if s.BoardID != "" && (strings.Count(s.BoardID, "%") != 1 || !strings.Contains(s.BoardID, "%d") && !strings.Contains(s.BoardID, "%0")) {
		return nil, fmt.Errorf("board id format %q: want one %%d, e.g. board-%%d or b-%%03d", s.BoardID)
	}
	event := s.Event
	if event == "" {
		event = r.Event
	}
	now := s.Now()
	seen := map[string]int{}
	var out []Command
	for _, p := range r.Pairings {
		id, ok := s.Boards[p.Board]
		if !ok {
			if s.BoardID == "" {
				return nil, fmt.Errorf("board %d: no board id for it", p.Board)
			}
			id = fmt.Sprintf(s.BoardID, p.Board)
		}
		if err := publish.ValidBoardID(id); err != nil {
			return nil, fmt.Errorf("board %d: %w", p.Board, err)
		}
		if prev, dup := seen[id]; dup {
			return nil, fmt.Errorf("boards %d and %d both map to %s", prev, p.Board, id)
		}
		seen[id] = p.Board
		ng := newGame{
			By: s.By, White: p.White.Name, Black: p.Black.Name,
			Event: event, Site: s.Site, Date: s.Date, Round: s.Round, BoardNo: strconv.Itoa(p.Board), TimeControl: s.TimeControl,
			WhiteElo: p.White.Elo, WhiteTitle: p.White.Title, WhiteFed: p.White.Fed, WhiteFideID: p.White.FideID, WhiteTeam: p.White.Team,
			BlackElo: p.Black.Elo, BlackTitle: p.Black.Title, BlackFed: p.Black.Fed, BlackFideID: p.Black.FideID, BlackTeam: p.Black.Team,
		}
		// The id is the game's content: the same pairing sent again is
		// applied once, a changed one is a new command.
		what, err := json.Marshal(ng)
		if err != nil {
			return nil, fmt.Errorf("board %d: %w", p.Board, err)
		}
		sum := sha256.Sum256(what)
		ng.ID = fmt.Sprintf("round-%s-board-%d-%x", s.Round, p.Board, sum[:6])
		if len(ng.ID) > 128 {
			return nil, fmt.Errorf("round %q: too long for a command id", s.Round)
		}
		ng.Expires = now.Add(s.Expires).UTC().Format(time.RFC3339)
		b, err := json.Marshal(ng)
		if err != nil {
			return nil, fmt.Errorf("board %d: %w", p.Board, err)
		}
		// The board's own checks, so that a rehearsal (--dry-run) finds
		// what the boards would refuse.
		if err := publish.CheckCommand(publish.VerbNewGame, b, now); err != nil {
			return nil, fmt.Errorf("board %d (%s - %s): %w", p.Board, p.White.Name, p.Black.Name, err)
		}
		out = append(out, Command{Board: id, No: p.Board, ID: ng.ID, Topic: publish.Topic(id, publish.LeafCmd+"/"+publish.VerbNewGame), Payload: b})
	}
	return out, nil
}
