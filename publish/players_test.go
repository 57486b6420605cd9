package publish_test

import (
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/publish"
)

// A new_game with the players' ratings, titles, federations, FIDE ids
// and teams puts them in state and as tags in the PGN; a bad one is
// refused with the field named.
func TestNewGamePlayerDetails(t *testing.T) {
	_, _, v, tablet := commandBoard(t)
	future := time.Now().Add(time.Minute).UTC().Format(time.RFC3339)
	send := func(id, fields string) publish.ReplyPayload {
		t.Helper()
		tablet.Publish(publish.Message{Topic: publish.Topic("b1", "cmd/new_game"), Payload: []byte(`{"id":"` + id + `","expires":"` + future + `",` + fields + `}`), QoS: 1})
		var r publish.ReplyPayload
		waitFor(t, 3*time.Second, "reply to "+id, func() bool { var found bool; r, found = v.reply(id); return found })
		return r
	}
	r := send("g1", `"white":"Ju, Wenjun","black":"Lei, Tingjie","round":"4","board_no":"2","white_elo":2536,"white_title":"gm","white_fed":"chn","white_fide_id":"8603006","white_team":"China","black_elo":2518,"black_title":"GM","black_fide_id":"8603642"`)
	if !r.OK {
		t.Fatalf("new_game refused: %s", r.Error)
	}
	var st publish.StatePayload
	waitFor(t, 2*time.Second, "state with the players", func() bool { return v.retainedJSON("state", &st) && st.White == "Ju, Wenjun" })
	if st.WhiteElo != 2536 || st.WhiteTitle != "GM" || st.WhiteFed != "CHN" || st.WhiteFideID != "8603006" || st.WhiteTeam != "China" || st.BlackElo != 2518 || st.BlackFideID != "8603642" {
		t.Fatalf("state lacks the players' details: %+v", st.GameInfo)
	}
	var pg publish.PGNPayload
	waitFor(t, 2*time.Second, "pgn", func() bool { return v.retainedJSON("pgn", &pg) && strings.Contains(pg.PGN, "Ju, Wenjun") })
	g, err := chess.ReadAllPGN(strings.NewReader(pg.PGN))
	if err != nil || len(g) != 1 {
		t.Fatalf("pgn: %v", err)
	}
	for tag, want := range map[string]string{"Round": "4", "Board": "2", "WhiteElo": "2536", "WhiteTitle": "GM", "WhiteFideId": "8603006", "WhiteTeam": "China", "BlackElo": "2518", "BlackTitle": "GM", "BlackFideId": "8603642", "BlackTeam": ""} {
		if got := g[0].Tag(tag); got != want {
			t.Errorf("[%s %q], want %q", tag, got, want)
		}
	}
	for i, c := range []struct{ fields, errPart string }{
		{`"white_elo":5000`, "white_elo"},
		{`"black_title":"Grandmaster"`, "black_title"},
		{`"white_fed":"NO"`, "white_fed"},
		{`"black_fide_id":"86O3006"`, "black_fide_id"},
		{`"white_team":"a\nb"`, "white_team"},
	} {
		if r := send("bad"+string(rune('a'+i)), c.fields); r.OK || !strings.Contains(r.Error, c.errPart) {
			t.Errorf("new_game with %s: ok %v error %q, want a refusal naming %s", c.fields, r.OK, r.Error, c.errPart)
		}
	}
}
