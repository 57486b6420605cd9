package web_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/boardd/boardd/publish"
	"github.com/boardd/boardd/publish/round"
	"github.com/boardd/boardd/publish/web"
)

// The console imports a round's pairings: the director picks a CSV, then
// a TRF-16 report, sees each pairing with the board it goes to, confirms,
// and each board's handler gets its new_game with the players, ratings,
// titles, federations, FIDE ids and teams that `boardd round import`
// sends for the same file (publish/round); each command is in the log.
func TestBrowserConsoleImport(t *testing.T) {
	t.Parallel()
	startBrowserCheck(t)
	e, ws := startVenueBroker(t)
	h, err := web.Handler(web.Config{ProxyTo: ws})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}

	handlers := map[string]*gameHandler{}
	for i := 1; i <= 3; i++ {
		id := fmt.Sprintf("board-%d", i)
		p, hd := startGameBoard(t, ctx, id, e.URL())
		_, err := p.StartGame(publish.GameInfo{White: "A", Black: "B", Round: "2", BoardNo: fmt.Sprint(i)})
		must(err)
		handlers[id] = hd
	}
	t.Cleanup(func() {
		if t.Failed() {
			for id, hd := range handlers {
				t.Logf("%s's handler got %q", id, hd.seen())
			}
		}
	})

	br := startBrowser(t)
	cons := br.newPage(ctx, 1280, 1000)
	cons.navigate(ctx, srv.URL+"/console")
	must(cons.waitFor(ctx, "three boards in the room", `document.querySelectorAll('.room-board').length`, 3, 20*time.Second))
	must(cons.eval(ctx, fmt.Sprintf(`(() => { user.value = "director"; pass.value = %s; document.getElementById("login").requestSubmit(); return true })()`, jsString(users["director"])), nil))
	must(cons.waitFor(ctx, "logged in", `[conn.dataset.conn, document.body.dataset.user, document.getElementById("imp-send").disabled]`, []any{"connected", "director", false}, 10*time.Second))

	// importFile chooses the file as the arbiter would, fills the form and
	// asks for the import; then checks the confirmation and confirms.
	importFile := func(file, roundNo, tc string, lines []string, warn string) {
		t.Helper()
		data, err := os.ReadFile("../round/testdata/" + file)
		must(err)
		must(cons.eval(ctx, fmt.Sprintf(`(() => {
			const bytes = Uint8Array.from(atob(%s), c => c.charCodeAt(0)), dt = new DataTransfer()
			dt.items.add(new File([bytes], %s))
			document.getElementById("imp-file").files = dt.files
			document.getElementById("imp-round").value = %s
			document.getElementById("imp-tc").value = %s
			document.getElementById("act-outcome").dataset.status = ""
			document.getElementById("imp-send").click()
			return true })()`, jsString(base64.StdEncoding.EncodeToString(data)), jsString(file), jsString(roundNo), jsString(tc)), nil))
		must(cons.waitFor(ctx, file+": confirmation", `(() => { const d = document.getElementById("confirm"); return d.open ? [[...d.querySelectorAll("li")].map(l => l.textContent), document.getElementById("confirm-warn").textContent] : [document.getElementById("act-outcome").textContent] })()`,
			[]any{lines, warn}, 10*time.Second))
		must(cons.screenshot(ctx, filepath.Join(screenshotDir(t, "console-import"), file+".png")))
		must(cons.eval(ctx, `(document.getElementById("confirm-ok").click(), true)`, nil))
		var s []string
		if err := cons.waitFor(ctx, file+": outcome", `document.getElementById("act-outcome").dataset.status`, "ok", 20*time.Second); err != nil {
			must(cons.eval(ctx, `[document.getElementById("act-outcome").textContent]`, &s))
			t.Fatalf("%v (%q)", err, s)
		}
	}
	// want is what the boards get from `boardd round import` for the file.
	want := func(file string, r *round.Round, roundNo, tc string) map[string]publish.GameInfo {
		t.Helper()
		cmds, err := r.Commands(round.Setup{Round: roundNo, BoardID: "board-%d", TimeControl: tc})
		must(err)
		out := map[string]publish.GameInfo{}
		for _, c := range cmds {
			var g publish.GameInfo
			must(json.Unmarshal(c.Payload, &g))
			out[c.Board] = g
		}
		return out
	}
	check := func(what string, w map[string]publish.GameInfo, n int) {
		t.Helper()
		for id, hd := range handlers {
			hd.mu.Lock()
			games := append([]publish.GameInfo(nil), hd.games...)
			hd.mu.Unlock()
			wg, ok := w[id]
			if !ok {
				continue
			}
			if len(games) != n {
				t.Fatalf("%s: %s's handler got %d new games, want %d", what, id, len(games), n)
			}
			g := games[n-1]
			if wg.TimeControl != "" && g.TimeControl == "" {
				t.Errorf("%s: %s: no time control, want %s", what, id, wg.TimeControl)
			}
			// The board completes the date (today) and normalises the time control.
			g.ID, g.TimeControl, wg.TimeControl, g.FEN, g.Date = "", "", "", "", ""
			if !reflect.DeepEqual(g, wg) {
				t.Errorf("%s: %s's new game\n got %+v\nwant %+v (round import's)", what, id, g, wg)
			}
		}
	}

	f, err := os.Open("../round/testdata/pairings.csv")
	must(err)
	csvRound, err := round.ParseCSV(f)
	f.Close()
	must(err)
	importFile("pairings.csv", "4", "25m+10s", []string{
		"Board 1 · board-1: WGM Charkhalashvili, Inga 2289 – GM Ju, Wenjun 2536, round 4, 25m+10s",
		"Board 2 · board-2: GM Lei, Tingjie 2518 – WIM Toncheva, Nadya 2300, round 4, 25m+10s",
	}, "")
	check("csv", want("pairings.csv", csvRound, "4", "25m+10s"), 1)
	if n := len(handlers["board-3"].seen()); n != 0 {
		t.Fatalf("board-3 got %d commands from the CSV, which has no board 3", n)
	}

	f, err = os.Open("../round/testdata/round3.trf")
	must(err)
	trfRound, err := round.ParseTRF(f, 3)
	f.Close()
	must(err)
	importFile("round3.trf", "3", "", []string{
		"Board 1 · board-1: GM Nakamura, Hikaru 2790 – GM Carlsen, Magnus 2830, round 3",
		"Board 2 · board-2: CM Roe, Richard 2000 – Person, Late 1500, round 3",
		"Board 3 · board-3: Doe, Jane 1800 – WGM Charkhalashvili, Inga 2289, round 3",
	}, "No board this round: Müller, Jürgen.")
	w := want("round3.trf", trfRound, "3", "")
	check("trf", map[string]publish.GameInfo{"board-1": w["board-1"], "board-2": w["board-2"]}, 2)
	check("trf", map[string]publish.GameInfo{"board-3": w["board-3"]}, 1)
	if w["board-1"].BlackTeam != "Norway" || w["board-1"].Event != "Test Open 2025" {
		t.Fatalf("round import's board 1: %+v", w["board-1"])
	}

	// The same file again changes nothing: the commands carry round
	// import's ids (checked below), which the boards have seen.
	importFile("round3.trf", "3", "", []string{
		"Board 1 · board-1: GM Nakamura, Hikaru 2790 – GM Carlsen, Magnus 2830, round 3",
		"Board 2 · board-2: CM Roe, Richard 2000 – Person, Late 1500, round 3",
		"Board 3 · board-3: Doe, Jane 1800 – WGM Charkhalashvili, Inga 2289, round 3",
	}, "No board this round: Müller, Jürgen.")
	must(cons.waitFor(ctx, "outcome", `document.getElementById("act-outcome").textContent`, "round 3 from round3.trf: 0 of 3 new games started, 3 already set up (sent before)", 5*time.Second))
	for id, n := range map[string]int{"board-1": 2, "board-2": 2, "board-3": 1} {
		if got := handlers[id].seen(); len(got) != n {
			t.Fatalf("%s's handler got %q after the same file again", id, got)
		}
	}
	cmds, err := trfRound.Commands(round.Setup{Round: "3", BoardID: "board-%d", By: "director"})
	must(err)
	for _, c := range cmds {
		hd := handlers[c.Board]
		hd.mu.Lock()
		got := hd.ids[len(hd.ids)-1]
		hd.mu.Unlock()
		if got != c.ID {
			t.Errorf("%s: command id %q, want round import's %q", c.Board, got, c.ID)
		}
	}

	// Every command is in the log with the director and the board's reply.
	const rows = `[...document.querySelectorAll("#log-rows tr")].map(r => [r.dataset.status, ...[...r.querySelectorAll("td")].slice(1).map(td => td.textContent)].join("|")).sort()`
	must(cons.waitFor(ctx, "log", rows, []string{
		"ok|director|board-1|new_game|Board 1: GM Nakamura, Hikaru 2790 – GM Carlsen, Magnus 2830, round 3|ok",
		"ok|director|board-1|new_game|Board 1: GM Nakamura, Hikaru 2790 – GM Carlsen, Magnus 2830, round 3|ok (already applied)",
		"ok|director|board-1|new_game|Board 1: WGM Charkhalashvili, Inga 2289 – GM Ju, Wenjun 2536, round 4, 25m+10s|ok",
		"ok|director|board-2|new_game|Board 2: CM Roe, Richard 2000 – Person, Late 1500, round 3|ok",
		"ok|director|board-2|new_game|Board 2: CM Roe, Richard 2000 – Person, Late 1500, round 3|ok (already applied)",
		"ok|director|board-2|new_game|Board 2: GM Lei, Tingjie 2518 – WIM Toncheva, Nadya 2300, round 4, 25m+10s|ok",
		"ok|director|board-3|new_game|Board 3: Doe, Jane 1800 – WGM Charkhalashvili, Inga 2289, round 3|ok",
		"ok|director|board-3|new_game|Board 3: Doe, Jane 1800 – WGM Charkhalashvili, Inga 2289, round 3|ok (already applied)",
	}, 10*time.Second))

	br.mu.Lock()
	defer br.mu.Unlock()
	for _, l := range br.logs {
		if strings.HasPrefix(l, "log.error") || strings.HasPrefix(l, "exception") || strings.HasPrefix(l, "console.error") {
			t.Errorf("the console logged: %s", l)
		}
	}
}
