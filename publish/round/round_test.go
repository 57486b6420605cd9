package round

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

func readTRF(t *testing.T, n int) *Round {
	t.Helper()
	f, err := os.Open("testdata/round3.trf")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := ParseTRF(f, n)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Round 3 of a seven-player Swiss: three boards ordered by the higher
// score, then the sum of scores, and one bye.
func TestParseTRF(t *testing.T) {
	r := readTRF(t, 3)
	want := []Pairing{
		{1, Player{Name: "Nakamura, Hikaru", Elo: 2790, Title: "GM", Fed: "USA", FideID: "2016192"}, Player{Name: "Carlsen, Magnus", Elo: 2830, Title: "GM", Fed: "NOR", FideID: "1503014", Team: "Norway"}},
		{2, Player{Name: "Roe, Richard", Elo: 2000, Title: "CM", Fed: "NOR", Team: "Norway"}, Player{Name: "Person, Late", Elo: 1500}},
		{3, Player{Name: "Doe, Jane", Elo: 1800, Fed: "ENG"}, Player{Name: "Charkhalashvili, Inga", Elo: 2289, Title: "WGM", Fed: "GEO", FideID: "13601431"}},
	}
	if !reflect.DeepEqual(r.Pairings, want) {
		t.Errorf("round 3 pairings:\n got %+v\nwant %+v", r.Pairings, want)
	}
	if !reflect.DeepEqual(r.Byes, []string{"Müller, Jürgen"}) || r.Event != "Test Open 2025" {
		t.Errorf("byes %q, event %q", r.Byes, r.Event)
	}
	// Round 1: everyone level, so boards follow the higher-ranked player.
	r1 := readTRF(t, 1)
	var got []string
	for _, p := range r1.Pairings {
		got = append(got, p.White.Name+" - "+p.Black.Name)
	}
	if w := []string{"Carlsen, Magnus - Müller, Jürgen", "Nakamura, Hikaru - Doe, Jane", "Charkhalashvili, Inga - Roe, Richard"}; !reflect.DeepEqual(got, w) {
		t.Errorf("round 1 boards %q, want %q", got, w)
	}
}

func TestParseTRFErrors(t *testing.T) {
	data, _ := os.ReadFile("testdata/round3.trf")
	line := func(s string, i int) string { return strings.Split(s, "\n")[i] }
	cases := map[string]struct {
		trf   string
		round int
		want  string
	}{
		"no players":      {"012 Nothing\n", 1, "no player lines"},
		"round 0":         {string(data), 0, "round 0"},
		"unpaired round":  {string(data), 4, "no pairings for round 4"},
		"bad rating":      {strings.Replace(string(data), "2830", "28x0", 1), 3, "rating"},
		"one-sided":       {strings.Replace(string(data), "0002 b", "0005 b", 1), 3, "who plays"},
		"two whites":      {strings.Replace(string(data), "0002 b", "0002 w", 1), 3, "and so has"},
		"duplicate start": {string(data) + line(string(data), 3) + "\n", 3, "already used"},
		"bad colour":      {strings.Replace(string(data), "0002 b", "0002 x", 1), 3, "colour"},
	}
	for name, c := range cases {
		_, err := ParseTRF(strings.NewReader(c.trf), c.round)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", name, err, c.want)
		}
	}
}

// A Latin-1 export keeps its columns.
func TestParseTRFLatin1(t *testing.T) {
	data, _ := os.ReadFile("testdata/round3.trf")
	latin := strings.NewReplacer("ü", "\xfc").Replace(string(data))
	r, err := ParseTRF(strings.NewReader(latin), 3)
	if err != nil {
		t.Fatal(err)
	}
	if r.Byes[0] != "Müller, Jürgen" {
		t.Errorf("bye %q", r.Byes[0])
	}
}

func TestParseCSV(t *testing.T) {
	f, err := os.Open("testdata/pairings.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := ParseCSV(f)
	if err != nil {
		t.Fatal(err)
	}
	want := []Pairing{
		{1, Player{Name: "Charkhalashvili, Inga", Elo: 2289, Title: "WGM", Fed: "GEO", FideID: "13601431"}, Player{Name: "Ju, Wenjun", Elo: 2536, Title: "GM", Fed: "CHN", FideID: "8603006"}},
		{2, Player{Name: "Lei, Tingjie", Elo: 2518, Title: "GM", Fed: "CHN", FideID: "8603642"}, Player{Name: "Toncheva, Nadya", Elo: 2300, Title: "WIM", Fed: "BUL", FideID: "2906180", Team: "Bulgaria"}},
	}
	if !reflect.DeepEqual(r.Pairings, want) {
		t.Errorf("got %+v\nwant %+v", r.Pairings, want)
	}
	// No header: board, white, black.
	r, err = ParseCSV(strings.NewReader("1,A,B\n2,\"C, D\",E\n"))
	if err != nil || len(r.Pairings) != 2 || r.Pairings[1].White.Name != "C, D" {
		t.Fatalf("headerless: %+v, %v", r, err)
	}
	for in, want := range map[string]string{
		"board,white\n1,A\n":                        "no black column",
		"board,white,black,colour\n":                `column "colour"`,
		"board,white,black\n1,A,B\n1,C,D\n":         "board 1 already on line 2",
		"board,white,black\nx,A,B\n":                `board "x"`,
		"board,white,black\n1,A,\n":                 "no black player",
		"board,white,black,white elo\n1,A,B,high\n": "white_elo",
		"board,white,black\n":                       "no pairings",
		"":                                          "empty",
	} {
		if _, err := ParseCSV(strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want one containing %q", in, err, want)
		}
	}
}

func TestCommands(t *testing.T) {
	r := readTRF(t, 3)
	now := time.Date(2025, 6, 1, 14, 0, 0, 0, time.UTC)
	cmds, err := r.Commands(Setup{Round: "3", TimeControl: "90m+30s", BoardID: "b-%03d", By: "director", Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	if len(cmds) != 3 || cmds[1].Board != "b-002" || cmds[1].Topic != "chess/v1/board/b-002/cmd/new_game" {
		t.Fatalf("commands %+v", cmds)
	}
	var ng map[string]any
	if err := json.Unmarshal(cmds[0].Payload, &ng); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]any{"white": "Nakamura, Hikaru", "black": "Carlsen, Magnus", "round": "3", "board_no": "1", "event": "Test Open 2025",
		"white_elo": 2790.0, "black_title": "GM", "black_fide_id": "1503014", "black_team": "Norway", "expires": "2025-06-01T14:05:00Z", "by": "director", "time_control": "90m+30s"} {
		if ng[k] != v {
			t.Errorf("%s = %v, want %v", k, ng[k], v)
		}
	}
	// Sent again: the same ids; a changed pairing: a new one.
	again, _ := r.Commands(Setup{Round: "3", TimeControl: "90m+30s", BoardID: "b-%03d", By: "director", Now: func() time.Time { return now.Add(time.Hour) }})
	if again[0].ID != cmds[0].ID {
		t.Errorf("the same pairing got a new id: %s, then %s", cmds[0].ID, again[0].ID)
	}
	r.Pairings[0].White.Name = "Caruana, Fabiano"
	changed, _ := r.Commands(Setup{Round: "3", TimeControl: "90m+30s", BoardID: "b-%03d", By: "director"})
	if changed[0].ID == cmds[0].ID {
		t.Error("a changed pairing kept its command id")
	}
	for _, s := range []Setup{{BoardID: "board"}, {BoardID: "B-%d"}, {Boards: map[int]string{1: "x"}}, {BoardID: "b-%d", Boards: map[int]string{2: "b-1"}}} {
		if _, err := r.Commands(s); err == nil {
			t.Errorf("setup %+v accepted", s)
		}
	}
}

func FuzzParseTRF(f *testing.F) {
	data, _ := os.ReadFile("testdata/round3.trf")
	f.Add(string(data), 3)
	f.Add(string(data), 1)
	f.Add("001    1 m GM X                                 2800 NOR     1234567 1990/01/01  0.0    1  0002 w  ", 1)
	f.Fuzz(func(t *testing.T, trf string, n int) {
		r, err := ParseTRF(strings.NewReader(trf), n)
		if err != nil {
			return
		}
		checkRound(t, r)
	})
}

func FuzzParseCSV(f *testing.F) {
	data, _ := os.ReadFile("testdata/pairings.csv")
	f.Add(string(data))
	f.Add("1,A,B\n2,C,D\n")
	f.Add("board;white;black\n1;A;B\n")
	f.Fuzz(func(t *testing.T, in string) {
		r, err := ParseCSV(strings.NewReader(in))
		if err != nil {
			return
		}
		checkRound(t, r)
	})
}

// checkRound: what a parser returns is a usable round: boards positive,
// distinct and in order, every player named.
func checkRound(t *testing.T, r *Round) {
	t.Helper()
	if len(r.Pairings) == 0 {
		t.Fatal("no pairings and no error")
	}
	for i, p := range r.Pairings {
		if p.Board <= 0 || i > 0 && p.Board <= r.Pairings[i-1].Board {
			t.Fatalf("board numbers %d after %+v", p.Board, r.Pairings[:i])
		}
		if p.White.Name == "" || p.Black.Name == "" || p.White.Elo < 0 || p.Black.Elo < 0 {
			t.Fatalf("pairing %+v", p)
		}
	}
	if _, err := r.Commands(Setup{Round: "1"}); err != nil && !strings.Contains(err.Error(), "board id") {
		t.Fatalf("commands: %v", err)
	}
}

// What older and other exports write: one-letter title codes, a UTF-8
// byte-order mark, a CSV saved in Latin-1.
func TestExportVariants(t *testing.T) {
	if got := trfTitle("wg"); got != "WGM" {
		t.Errorf("wg: %q", got)
	}
	if got := trfTitle("g"); got != "GM" {
		t.Errorf("g: %q", got)
	}
	if got := trfTitle("GM"); got != "GM" {
		t.Errorf("GM: %q", got)
	}
	rd, err := ParseCSV(strings.NewReader("board,white,black\n1,M\xfcller,N\xfa\xf1ez\n"))
	if err != nil || len(rd.Pairings) != 1 || rd.Pairings[0].White.Name != "Müller" || rd.Pairings[0].Black.Name != "Núñez" {
		t.Fatalf("latin-1 CSV: %v %+v", err, rd)
	}
	trf := "\ufeff012 Open 2026\n" +
		"001    1 m  g Alpha, A                          2500 NOR     1234567 1990/01/01  1.0    1  0002 w 1\n" +
		"001    2 w wg Beta, B                           2400 SWE     7654321 1990/01/01  0.0    2  0001 b 0\n"
	r2, err := ParseTRF(strings.NewReader(trf), 1)
	if err != nil {
		t.Fatal(err)
	}
	if r2.Event != "Open 2026" {
		t.Errorf("event after a BOM: %q", r2.Event)
	}
	if len(r2.Pairings) != 1 || r2.Pairings[0].White.Title != "GM" || r2.Pairings[0].Black.Title != "WGM" {
		t.Errorf("titles: %+v", r2.Pairings)
	}
}

// jsonRound is a Round as the console's parser (web/src/round.js) gives
// it, so that both parsers are held to the same files.
func jsonRound(r *Round) map[string]any {
	pl := func(p Player) map[string]any {
		return map[string]any{"name": p.Name, "elo": p.Elo, "title": p.Title, "fed": p.Fed, "fide_id": p.FideID, "team": p.Team}
	}
	ps := []any{}
	for _, p := range r.Pairings {
		ps = append(ps, map[string]any{"board": p.Board, "white": pl(p.White), "black": pl(p.Black)})
	}
	byes := append([]string{}, r.Byes...)
	return map[string]any{"event": r.Event, "pairings": ps, "byes": byes}
}

// The console reads pairings in the browser (web/src/round.js); its node
// test compares what it reads from these files with
// testdata/parsed.json, which this test holds the Go parser to.
func TestParsedJSON(t *testing.T) {
	got := map[string]any{}
	for _, n := range []int{1, 2, 3} {
		got[fmt.Sprintf("round3.trf#%d", n)] = jsonRound(readTRF(t, n))
	}
	for _, name := range []string{"pairings.csv", "pairings-latin1.csv"} {
		f, err := os.Open("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		r, err := ParseCSV(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		got[name] = jsonRound(r)
	}
	b, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, '\n')
	if os.Getenv("BOARDD_UPDATE") != "" {
		if err := os.WriteFile("testdata/parsed.json", b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("testdata/parsed.json")
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != string(want) {
		t.Errorf("the pairings read differ from testdata/parsed.json (BOARDD_UPDATE=1 writes it):\n%s", b)
	}
}

// The console gives its imported new_games the ids round import gives
// them (web/src/round.js, commandID): testdata/commands.json lists them.
func TestCommandIDs(t *testing.T) {
	got := map[string]string{}
	for _, c := range []struct {
		name string
		r    *Round
		s    Setup
	}{
		{"round3.trf", readTRF(t, 3), Setup{Round: "3", By: "director", TimeControl: "90m+30s"}},
		{"round3.trf", readTRF(t, 3), Setup{Round: "3", Event: "Open <A&B>\u2028", BoardID: "b-%03d"}},
	} {
		cmds, err := c.r.Commands(c.s)
		if err != nil {
			t.Fatal(err)
		}
		for _, cmd := range cmds {
			var body map[string]any
			if err := json.Unmarshal(cmd.Payload, &body); err != nil {
				t.Fatal(err)
			}
			delete(body, "expires")
			b, _ := json.Marshal(body)
			got[string(b)] = cmd.ID
		}
	}
	b, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, '\n')
	if os.Getenv("BOARDD_UPDATE") != "" {
		if err := os.WriteFile("testdata/commands.json", b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("testdata/commands.json")
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != string(want) {
		t.Errorf("the commands' ids differ from testdata/commands.json (BOARDD_UPDATE=1 writes it):\n%s", b)
	}
}
