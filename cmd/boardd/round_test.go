package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/internal/cli"
	"github.com/boardd/boardd/publish"
	"github.com/boardd/boardd/publish/broker"
)

// roundBoard applies new_game as a board does: the game starts with the
// command's info.
type roundBoard struct{ p *publish.Publisher }

func (b *roundBoard) NewGame(_ context.Context, c publish.NewGameCmd) error {
	_, err := b.p.StartGame(c.Info)
	return err
}
func (b *roundBoard) SetPosition(context.Context, publish.SetPositionCmd) error {
	return errors.New("not here")
}
func (b *roundBoard) SetTimeControl(context.Context, publish.SetTimeControlCmd) error {
	return errors.New("not here")
}
func (b *roundBoard) AckAlert(context.Context, publish.AckAlertCmd) error {
	return errors.New("not here")
}
func (b *roundBoard) Promote(context.Context, publish.PromoteCmd) error {
	return errors.New("not here")
}
func (b *roundBoard) CorrectMove(context.Context, publish.CorrectMoveCmd) error {
	return errors.New("not here")
}
func (b *roundBoard) SetResult(context.Context, publish.SetResultCmd) error {
	return errors.New("not here")
}

// boardd round import sends each board of a CSV its new_game through the
// venue ACL's director account; the boards' PGNs then carry the round,
// the board number and the players' details, and a board number with no
// board on the broker is reported.
func TestRoundImport(t *testing.T) {
	pw := broker.Passwords{}
	for _, u := range []string{"director", "b-001", "b-002"} {
		pw[u] = broker.HashPassword("pw-"+u, []byte("salt"))
	}
	b, err := broker.Start(broker.Config{Listeners: []broker.Listener{{Kind: "tcp", Addr: "127.0.0.1:0"}}, Passwords: pw, AllowAnonymous: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	boards := map[string]*publish.Publisher{}
	for _, id := range []string{"b-001", "b-002"} {
		h := &roundBoard{}
		p, err := publish.Open(publish.Config{Board: id, JournalDir: t.TempDir(), Dialer: publish.PahoDialer{URL: b.URL(), Username: id, Password: "pw-" + id}, Handler: h, NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		h.p = p
		boards[id] = p
		done := make(chan struct{})
		go func() { p.Run(ctx); close(done) }()
		defer func() { <-done; p.Close() }()
		defer cancel()
	}
	csv := filepath.Join(t.TempDir(), "round4.csv")
	os.WriteFile(csv, []byte("board,white,white_elo,white_title,white_fed,white_fide_id,black,black_elo,black_team\n"+
		"1,\"Ju, Wenjun\",2536,GM,CHN,8603006,\"Lei, Tingjie\",2518,China\n2,\"Doe, Jane\",1800,,ENG,,\"Roe, Richard\",2000,\n"), 0o600)
	run := func(args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		env := &cli.Env{Stdout: &out, Stderr: &errOut, Getenv: func(k string) string {
			if k == "BOARDD_MQTT_PASSWORD" {
				return "pw-director"
			}
			return ""
		}}
		code := runMain(ctx, env, append([]string{"round", "import"}, args...))
		return code, out.String(), errOut.String()
	}
	// Wait until both boards are online, so they get the commands now.
	time.Sleep(300 * time.Millisecond)
	code, out, errOut := run(csv, "--round", "4", "--broker", b.URL(), "--board-id", "b-%03d", "--event", "Club championship", "--time-control", "90m+30s", "--wait", "5s")
	if code != 0 || strings.Count(out, "set up") != 2 {
		t.Fatalf("round import: exit %d\n%s%s", code, out, errOut)
	}
	wantTags := map[string]map[string]string{
		"b-001": {"Round": "4", "Board": "1", "Event": "Club championship", "White": "Ju, Wenjun", "WhiteElo": "2536", "WhiteTitle": "GM", "WhiteFideId": "8603006", "BlackElo": "2518", "BlackTeam": "China", "TimeControl": "5400+30"},
		"b-002": {"Round": "4", "Board": "2", "White": "Doe, Jane", "WhiteElo": "1800", "WhiteTitle": "", "BlackElo": "2000"},
	}
	for id, tags := range wantTags {
		g, err := chess.ReadAllPGN(strings.NewReader(boards[id].PGN()))
		if err != nil || len(g) != 1 {
			t.Fatalf("%s: %v", id, err)
		}
		for tag, want := range tags {
			if got := g[0].Tag(tag); got != want {
				t.Errorf("%s: [%s %q], want %q", id, tag, got, want)
			}
		}
	}
	// The same round again: nothing changes on the boards.
	if code, out, _ := run(csv, "--round", "4", "--broker", b.URL(), "--board-id", "b-%03d", "--event", "Club championship", "--time-control", "90m+30s", "--wait", "5s"); code != 0 || strings.Count(out, "already set up") != 2 {
		t.Errorf("the same round again: exit %d\n%s", code, out)
	}
	// What a board would refuse is found before anything is sent, also
	// in a rehearsal.
	os.WriteFile(csv, []byte("board,white,black\n2,A,B\n3,C,D\n"), 0o600)
	for _, dry := range []string{"--dry-run", "--wait=1s"} {
		code, out, errOut = run(csv, "--round", "5", "--broker", b.URL(), "--board-id", "b-%03d", dry, "--time-control", "90 minutes")
		if code != 1 || out != "" || !strings.Contains(errOut, `board 2 (A - B): time control "90 minutes"`) {
			t.Errorf("%s with a time control the boards refuse: exit %d\n%s%s", dry, code, out, errOut)
		}
	}
	// A board number with no board.
	code, out, errOut = run(csv, "--round", "5", "--broker", b.URL(), "--board-id", "b-%03d", "--wait", "1s", "--time-control", "90m")
	if code != 1 || !strings.Contains(out, "board   3  b-003        no reply") || !strings.Contains(errOut, "1 of 2 boards not set up") {
		t.Errorf("round with a missing board: exit %d\n%s%s", code, out, errOut)
	}
	// Usage errors.
	for _, args := range [][]string{{csv}, {"--round", "1"}, {csv, "--round", "1", "--format", "xls"}, {"nofile.pdf", "--round", "1"}, {csv, "--round", "1", "--date", "2025-06-01"}} {
		if code, _, errOut := run(args...); code != 2 {
			t.Errorf("round import %v: exit %d, want 2 (%s)", args, code, errOut)
		}
	}
	if code, _, errOut := run(filepath.Join(t.TempDir(), "none.csv"), "--round", "1"); code != 1 || !strings.Contains(errOut, "none.csv") {
		t.Errorf("missing file: exit %d %s", code, errOut)
	}
}
