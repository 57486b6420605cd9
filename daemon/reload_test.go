package daemon

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boardd/boardd/config"
	"github.com/boardd/boardd/publish"
)

// SIGHUP's reload gives the game in progress the changed names where it
// has the configuration's old ones; names a new_game command set stay.
func TestReloadRenamesTheGameInProgress(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "boardd.toml")
	write := func(white string) {
		if err := os.WriteFile(file, []byte("[game]\nwhite = \""+white+"\"\nblack = \"Bob\"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("Alice")
	getenv := func(string) string { return "" }
	cfg, err := config.Load(file, getenv, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := publish.Open(publish.Config{Board: "b1", JournalDir: t.TempDir(), NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	level := new(slog.LevelVar)
	d := &daemon{cfg: cfg, configPath: file, getenv: getenv, log: slog.New(slog.NewTextHandler(io.Discard, nil)), level: level, pub: p}
	if _, err := p.StartGame(publish.GameInfo{White: cfg.Game.White, Black: cfg.Game.Black}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Move(publish.Move{Ply: 1, UCI: "e2e4", Final: true}); err != nil {
		t.Fatal(err)
	}
	write("Alicia")
	d.reload()
	if got := p.Current().Info; got.White != "Alicia" || got.Black != "Bob" {
		t.Errorf("after the reload: %q - %q, want Alicia - Bob", got.White, got.Black)
	}
	if !strings.Contains(p.PGN(), `[White "Alicia"]`) || len(p.Current().Moves) != 1 {
		t.Errorf("PGN:\n%s", p.PGN())
	}
	// A game whose players came from a command keeps them.
	if _, err := p.StartGame(publish.GameInfo{White: "Carol", Black: "Dave"}); err != nil {
		t.Fatal(err)
	}
	write("Alina")
	d.reload()
	if got := p.Current().Info; got.White != "Carol" {
		t.Errorf("a command's player was renamed by the reload: %q", got.White)
	}
	if d.cfg.Game.White != "Alina" {
		t.Errorf("the next game's white is %q, want Alina", d.cfg.Game.White)
	}
}
