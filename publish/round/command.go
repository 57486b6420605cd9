package round

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/boardd/boardd/internal/cli"
	"github.com/boardd/boardd/publish"
)

// Cmd is the round command: each board sent its pairing from a FIDE TRF
// or CSV file.
func Cmd(ctx context.Context, env *cli.Env, args []string) error {
	fs := flag.NewFlagSet("round import", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	rnd := fs.Int("round", 0, "the round to set up (TRF: the round whose pairings to read; both: the PGN Round tag)")
	format := fs.String("format", "", "trf or csv; default: by the file's extension (.trf, .txt: trf)")
	broker := fs.String("broker", "tcp://localhost:1883", "venue broker URL: tcp://, ssl:// (TLS), ws:// or wss://")
	username := fs.String("username", "director", "username at the broker, one that may send new_game (password from $BOARDD_MQTT_PASSWORD)")
	caFile := fs.String("ca", "", "CA certificate (PEM) of the broker's TLS certificate")
	certFile := fs.String("cert", "", "client certificate (PEM)")
	keyFile := fs.String("key", "", "client key (PEM)")
	boardID := fs.String("board-id", "board-%d", "board id of a board number, with one %d (b-%03d gives b-007)")
	event := fs.String("event", "", "PGN Event tag (default: the TRF's tournament name)")
	site := fs.String("site", "", "PGN Site tag")
	date := fs.String("date", "", "PGN Date tag, YYYY.MM.DD (default: each board's today)")
	tc := fs.String("time-control", "", "time control, e.g. 90m+30s (default: none)")
	by := fs.String("by", "", "who sets the round up, journaled by each board (default: the username)")
	dryRun := fs.Bool("dry-run", false, "print the new_game commands instead of sending them")
	wait := fs.Duration("wait", 10*time.Second, "how long to wait for the boards' replies")
	fs.Usage = func() {
		fmt.Fprint(env.Stderr, `usage: boardd round import FILE --round N [flags]

Reads a round's pairings from FILE, a FIDE TRF-16 report (Swiss-Manager,
Vega, JaVaFo) or a CSV (board, white, black and optionally white_elo,
white_title, white_fed, white_fide_id, white_team and the same for black),
and sends each board a new_game with the players, their ratings, titles,
federations, FIDE ids and teams, the round and its board number. Board
number N goes to the board with id --board-id (board-N). Each board
answers on <b>/reply; boards that are away get the command when they
return, until it expires (5 minutes). Sending the same round again
changes nothing; a corrected pairing starts that board's game anew.
See docs/broadcast.md.

`)
		fs.PrintDefaults()
	}
	if len(args) == 0 || args[0] != "import" {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
			fs.Usage()
			return cli.ErrHelp
		}
		fs.Usage()
		return cli.ExitError{Code: 2}
	}
	// Flags may come before and after the file.
	var files []string
	rest := args[1:]
	for {
		if err := cli.ParseFlags(fs, rest); err != nil {
			return err
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if len(files) != 1 || *rnd <= 0 {
		fmt.Fprintln(env.Stderr, "boardd round import: want one FILE and --round N (N from 1)")
		return cli.ExitError{Code: 2}
	}
	file := files[0]
	if *date != "" {
		if _, err := time.Parse("2006.01.02", *date); err != nil {
			fmt.Fprintf(env.Stderr, "boardd round import: --date %q: want YYYY.MM.DD\n", *date)
			return cli.ExitError{Code: 2}
		}
	}
	kind := strings.ToLower(*format)
	if kind == "" {
		switch strings.ToLower(filepath.Ext(file)) {
		case ".trf", ".txt", ".trfx":
			kind = "trf"
		case ".csv":
			kind = "csv"
		default:
			fmt.Fprintf(env.Stderr, "boardd round import: %s: say --format trf or --format csv\n", file)
			return cli.ExitError{Code: 2}
		}
	}
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	var r *Round
	switch kind {
	case "trf":
		r, err = ParseTRF(f, *rnd)
	case "csv":
		r, err = ParseCSV(f)
	default:
		fmt.Fprintf(env.Stderr, "boardd round import: --format %q: want trf or csv\n", *format)
		return cli.ExitError{Code: 2}
	}
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	who := *by
	if who == "" {
		who = *username
	}
	cmds, err := r.Commands(Setup{Round: fmt.Sprint(*rnd), Event: *event, Site: *site, Date: *date, TimeControl: *tc, BoardID: *boardID, By: who})
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	if *dryRun {
		for _, c := range cmds {
			fmt.Fprintf(env.Stdout, "%s %s\n", c.Topic, c.Payload)
		}
		for _, b := range r.Byes {
			fmt.Fprintf(env.Stdout, "# bye: %s\n", b)
		}
		return nil
	}
	dialer := publish.PahoDialer{URL: *broker, Username: *username, Password: env.Getenv("BOARDD_MQTT_PASSWORD")}
	if *caFile != "" || *certFile != "" || *keyFile != "" {
		tlsc, err := publish.TLSConfig(*caFile, *certFile, *keyFile)
		if err != nil {
			return err
		}
		dialer.TLS = tlsc
	}
	return sendRound(ctx, env, dialer, cmds, r.Byes, *wait)
}

// sendRound publishes the commands and reports each board's reply.
func sendRound(ctx context.Context, env *cli.Env, d publish.Dialer, cmds []Command, byes []string, wait time.Duration) error {
	var mu sync.Mutex
	replies := map[string]publish.ReplyPayload{}
	got := make(chan struct{}, len(cmds))
	// A client id of its own per run, so no reply queued for an earlier
	// run arrives (the process id alone repeats when one process imports
	// twice).
	id, err := publish.UniqueClientID(fmt.Sprintf("boardd-round-%d", os.Getpid()))
	if err != nil {
		return err
	}
	conn, err := d.Dial(ctx, publish.DialOptions{ClientID: id, OnMessage: func(topic string, payload []byte) {
		var rp publish.ReplyPayload
		if json.Unmarshal(payload, &rp) != nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if _, seen := replies[rp.Cmd]; !seen {
			replies[rp.Cmd] = rp
			got <- struct{}{}
		}
	}})
	if err != nil {
		return fmt.Errorf("broker: %w", err)
	}
	defer conn.Close()
	for _, c := range cmds {
		if err := conn.Subscribe(ctx, publish.Topic(c.Board, publish.LeafReply), 1); err != nil {
			return fmt.Errorf("subscribe to %s's replies: %w", c.Board, err)
		}
	}
	for _, c := range cmds {
		ack := conn.Publish(publish.Message{Topic: c.Topic, Payload: c.Payload, QoS: 1})
		select {
		case <-ack.Done():
		case <-ctx.Done():
			return ctx.Err()
		}
		if err := ack.Err(); err != nil {
			return fmt.Errorf("board %d (%s): %w", c.No, c.Board, err)
		}
	}
	timeout := time.After(wait)
	for n := 0; n < len(cmds); n++ {
		select {
		case <-got:
		case <-timeout:
			n = len(cmds)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	mu.Lock()
	defer mu.Unlock()
	failed := 0
	for _, c := range cmds {
		rp, ok := replies[c.ID]
		var what string
		switch {
		case !ok:
			what = fmt.Sprintf("no reply within %v: the board is away or unknown; it gets the command if it returns before it expires", wait)
			failed++
		case !rp.OK:
			what = "refused: " + rp.Error
			failed++
		case rp.Duplicate:
			what = "already set up (the same pairing was sent before)"
		default:
			what = "set up"
		}
		fmt.Fprintf(env.Stdout, "board %3d  %-12s %s\n", c.No, c.Board, what)
	}
	for _, b := range byes {
		fmt.Fprintf(env.Stdout, "bye        %s\n", b)
	}
	if failed > 0 {
		fmt.Fprintf(env.Stderr, "boardd round import: %d of %d boards not set up\n", failed, len(cmds))
		return cli.ExitError{Code: 1}
	}
	return nil
}
