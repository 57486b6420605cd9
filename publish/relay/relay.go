// Package relay turns a venue's boards into live PGN for broadcasts: it
// subscribes to every board's <b>/pgn topic, holds each game back by the
// transmission delay, and serves one multi-game PGN per round over HTTP
// for pollers (Lichess broadcast "source URL") and/or pushes it to a
// Lichess-style push endpoint (POST /api/broadcast/round/{id}/push).
//
// What it sends is always a whole game as the board last published it: a
// correction on the board re-sends the game, and the relay passes the new
// version on, so a broadcast promotes the corrected line. Games are
// matched downstream by their White/Black/Round tags, which a board keeps
// for the whole game. Every game is read back with the chess package
// before it is used: a PGN with an illegal move is never passed on (the
// previous version stays).
//
// Cmd is boardd's relay command.
package relay

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/boardd/boardd/chess"
	"github.com/boardd/boardd/publish"
)

// Mode defaults: tournaments hold games back 15 minutes (European Chess
// Union rule Q.2.4 and common practice), casual events not at all.
const (
	TournamentDelay = 15 * time.Minute
	CasualDelay     = 0
)

// Forget is how long after its last move (and the delay) a game leaves
// the relay.
const Forget = 12 * time.Hour

// MaxPushGames is how many games a Lichess round takes in one push.
const MaxPushGames = 64

// PushTarget sends one round's PGN to a push endpoint.
type PushTarget struct {
	Round string // the PGN Round tag value of the games to send
	URL   string // e.g. https://lichess.org/api/broadcast/round/<id>/push
}

// Config configures a relay.
type Config struct {
	// Dialer connects to the venue broker (read access to chess/v1/#).
	Dialer publish.Dialer
	// ClientID is the relay's MQTT client id (persistent session).
	ClientID string
	// Boards limits the relay to these board ids; empty means all.
	Boards []string
	// Delay is the transmission delay.
	Delay time.Duration
	// Push targets and the OAuth token (study:write) they need.
	Push  []PushTarget
	Token string
	// PushEvery is the least time between two pushes of a round (default 3 s).
	PushEvery  time.Duration
	HTTPClient *http.Client
	Logger     *slog.Logger
	Now        func() time.Time
}

// version is one PGN of a game as a board published it.
type version struct {
	at   time.Time // when the board journaled it (payload ts)
	hdr  publish.Header
	game *chess.Game
	text string
}

// boardGames is one board's game in one round. A board's next game (the
// next round) is another entry, so the last moves of the previous game
// still come out when their delay has passed; a new game in the same
// round (a restart of a wrongly started game) replaces the old one.
type boardGames struct {
	board    string
	gameID   string
	versions []version // oldest first; pruned to what the delay still needs
}

// Relay is a running relay.
type Relay struct {
	cfg Config
	log *slog.Logger
	dd  publish.Deduper

	mu     sync.Mutex
	boards map[string]*boardGames // by board id and round
	pushed map[string]string      // round -> hash of the last PGN pushed
	wake   chan struct{}
}

// New returns a relay.
func New(cfg Config) (*Relay, error) {
	if cfg.ClientID == "" {
		cfg.ClientID = "boardd-relay"
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.PushEvery <= 0 {
		cfg.PushEvery = 3 * time.Second
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: 20 * time.Second}
	}
	if cfg.Delay < 0 {
		return nil, fmt.Errorf("relay: negative delay %v", cfg.Delay)
	}
	for _, b := range cfg.Boards {
		if err := publish.ValidBoardID(b); err != nil {
			return nil, fmt.Errorf("relay: %w", err)
		}
	}
	for _, p := range cfg.Push {
		if p.Round == "" || !strings.HasPrefix(p.URL, "http") {
			return nil, fmt.Errorf("relay: push target %q=%q: want ROUND=URL with an http(s) URL", p.Round, p.URL)
		}
	}
	if len(cfg.Push) > 0 && cfg.Token == "" {
		return nil, fmt.Errorf("relay: push targets need a token")
	}
	return &Relay{cfg: cfg, log: cfg.Logger, boards: map[string]*boardGames{}, pushed: map[string]string{}, wake: make(chan struct{}, 1)}, nil
}

// Run subscribes and pushes until ctx is done, reconnecting with backoff.
func (r *Relay) Run(ctx context.Context) error {
	if r.cfg.Dialer == nil {
		return fmt.Errorf("relay: no broker")
	}
	go r.pushLoop(ctx)
	delay := time.Second
	for ctx.Err() == nil {
		conn, err := r.cfg.Dialer.Dial(ctx, publish.DialOptions{ClientID: r.cfg.ClientID, OnMessage: r.onMessage})
		if err == nil {
			err = r.subscribe(ctx, conn)
			if err == nil {
				delay = time.Second
				r.log.Info("relay subscribed", "boards", len(r.cfg.Boards))
				select {
				case <-ctx.Done():
				case <-conn.Lost():
					err = publish.ErrConnLost
				}
			}
			conn.Close()
		}
		if ctx.Err() != nil {
			break
		}
		r.log.Warn("relay: broker connection", "err", err, "retry_in", delay, "hint", loginHint(err))
		select {
		case <-ctx.Done():
		case <-time.After(delay):
		}
		delay = min(2*delay, 30*time.Second)
	}
	return nil
}

// loginHint says what to change when the broker refuses the login, which
// retrying alone will not cure.
func loginHint(err error) string {
	if err == nil {
		return ""
	}
	e := strings.ToLower(err.Error())
	if strings.Contains(e, "not authorized") || strings.Contains(e, "bad user name or password") {
		return "the broker refused the login: with --username, give that account's password in BOARDD_MQTT_PASSWORD; without it the relay logs in anonymously, which needs a broker that lets anonymous clients read (the venue ACL does)"
	}
	return ""
}

func (r *Relay) subscribe(ctx context.Context, conn publish.Conn) error {
	if len(r.cfg.Boards) == 0 {
		return conn.Subscribe(ctx, publish.TopicPrefix+"+/"+publish.LeafPGN, 1)
	}
	for _, b := range r.cfg.Boards {
		if err := conn.Subscribe(ctx, publish.Topic(b, publish.LeafPGN), 1); err != nil {
			return err
		}
	}
	return nil
}

func (r *Relay) onMessage(topic string, payload []byte) {
	if err := r.Ingest(topic, payload); err != nil {
		r.log.Warn("relay: message ignored", "topic", topic, "err", err)
	}
}

// Ingest takes one <b>/pgn message. It is what Run feeds; tests and other
// transports may call it directly.
func (r *Relay) Ingest(topic string, payload []byte) error {
	board, leaf, ok := publish.SplitTopic(topic)
	if !ok || leaf != publish.LeafPGN {
		return fmt.Errorf("not a board pgn topic")
	}
	hdr, fresh, err := r.dd.Accept(topic, payload)
	if err != nil {
		return err
	}
	if !fresh {
		return nil
	}
	var p publish.PGNPayload
	if err := json.Unmarshal(payload, &p); err != nil {
		return fmt.Errorf("pgn payload: %w", err)
	}
	games, err := chess.ReadAllPGN(strings.NewReader(p.PGN))
	if err != nil || len(games) != 1 {
		// Never pass on a game that does not replay legally; keep the
		// last good version.
		return fmt.Errorf("board %s game %s: PGN does not read back as one legal game (kept the previous version): %v", board, p.Game, err)
	}
	at, err := time.Parse(time.RFC3339Nano, hdr.TS)
	if err != nil {
		return fmt.Errorf("board %s: ts %q: %w", board, hdr.TS, err)
	}
	now := r.cfg.Now()
	if at.After(now) {
		at = now // a board clock ahead must not hold its moves back forever
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	key := board + "\x00" + games[0].Tag("Round")
	bg := r.boards[key]
	if bg == nil {
		bg = &boardGames{board: board}
		r.boards[key] = bg
	}
	if bg.gameID != p.Game {
		bg.gameID = p.Game
		bg.versions = nil
	}
	bg.versions = append(bg.versions, version{at: at, hdr: hdr, game: games[0], text: p.PGN})
	r.pruneLocked(bg, now)
	r.kick()
	return nil
}

func (r *Relay) kick() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// pruneLocked keeps the versions the delay still needs: all newer than
// now-Delay and the newest older one.
func (r *Relay) pruneLocked(bg *boardGames, now time.Time) {
	cut := now.Add(-r.cfg.Delay)
	keepFrom := 0
	for i, v := range bg.versions {
		if !v.at.After(cut) {
			keepFrom = i
		}
	}
	if keepFrom > 0 {
		bg.versions = append([]version(nil), bg.versions[keepFrom:]...)
	}
}

// visible is the version of a game the world may see now: the newest one
// at least Delay old. Before there is one, the game is shown without
// moves (so its tags are known and nothing early leaks).
func (r *Relay) visibleLocked(bg *boardGames, now time.Time) *chess.Game {
	cut := now.Add(-r.cfg.Delay)
	var vis *version
	for i := range bg.versions {
		if !bg.versions[i].at.After(cut) {
			vis = &bg.versions[i]
		}
	}
	if vis != nil {
		return vis.game
	}
	if len(bg.versions) == 0 {
		return nil
	}
	first := bg.versions[0].game
	g := &chess.Game{Tags: first.Tags, Start: first.Start, Result: "*"}
	return g
}

type entry struct {
	board string
	no    int
	game  *chess.Game
}

func (r *Relay) entriesLocked(now time.Time) []entry {
	var out []entry
	for key, bg := range r.boards {
		r.pruneLocked(bg, now)
		if n := len(bg.versions); n > 0 && bg.versions[n-1].at.Before(now.Add(-r.cfg.Delay-Forget)) {
			delete(r.boards, key) // a game long over: its round's broadcast is done
			continue
		}
		g := r.visibleLocked(bg, now)
		if g == nil {
			continue
		}
		no, err := strconv.Atoi(g.Tag("Board"))
		if err != nil {
			no = 1 << 30
		}
		out = append(out, entry{board: bg.board, no: no, game: g})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].no != out[j].no {
			return out[i].no < out[j].no
		}
		return out[i].board < out[j].board
	})
	return out
}

// Rounds lists the rounds (Round tag values) with games.
func (r *Relay) Rounds() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	seen := map[string]bool{}
	var out []string
	for _, e := range r.entriesLocked(r.cfg.Now()) {
		rd := e.game.Tag("Round")
		if !seen[rd] {
			seen[rd] = true
			out = append(out, rd)
		}
	}
	sort.Strings(out)
	return out
}

// RoundPGN is the delayed multi-game PGN of a round, games ordered by
// their Board tag, and how many games it holds.
func (r *Relay) RoundPGN(round string) (string, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	n := 0
	for _, e := range r.entriesLocked(r.cfg.Now()) {
		if e.game.Tag("Round") != round {
			continue
		}
		e.game.WritePGN(&b)
		n++
	}
	return b.String(), n
}

// BoardPGN is one board's delayed game.
func (r *Relay) BoardPGN(board string) (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	// The board's newest game.
	var bg *boardGames
	for _, b := range r.boards {
		if b.board == board && len(b.versions) > 0 && (bg == nil || b.versions[len(b.versions)-1].at.After(bg.versions[len(bg.versions)-1].at)) {
			bg = b
		}
	}
	if bg == nil {
		return "", false
	}
	g := r.visibleLocked(bg, r.cfg.Now())
	if g == nil {
		return "", false
	}
	return g.PGN(), true
}

// Handler serves the feed:
//
//	GET /                     index of rounds and boards (text)
//	GET /round/{round}.pgn    the round's games, delayed
//	GET /board/{id}.pgn       one board's game, delayed
//
// Responses carry an ETag; pollers that send If-None-Match get 304 when
// nothing changed.
func (r *Relay) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintf(w, "boardd relay: delay %v\n\nrounds:\n", r.cfg.Delay)
		for _, rd := range r.Rounds() {
			fmt.Fprintf(w, "  /round/%s.pgn\n", rd)
		}
		r.mu.Lock()
		seen := map[string]bool{}
		var ids []string
		for _, bg := range r.boards {
			if !seen[bg.board] {
				seen[bg.board] = true
				ids = append(ids, bg.board)
			}
		}
		r.mu.Unlock()
		sort.Strings(ids)
		fmt.Fprintf(w, "\nboards:\n")
		for _, id := range ids {
			fmt.Fprintf(w, "  /board/%s.pgn\n", id)
		}
	})
	mux.HandleFunc("GET /round/{name}", func(w http.ResponseWriter, req *http.Request) {
		round, ok := strings.CutSuffix(req.PathValue("name"), ".pgn")
		if !ok {
			http.Error(w, "want /round/<round>.pgn", http.StatusNotFound)
			return
		}
		pgn, n := r.RoundPGN(round)
		if n == 0 {
			http.Error(w, fmt.Sprintf("no games in round %q", round), http.StatusNotFound)
			return
		}
		servePGN(w, req, pgn)
	})
	mux.HandleFunc("GET /board/{name}", func(w http.ResponseWriter, req *http.Request) {
		id, ok := strings.CutSuffix(req.PathValue("name"), ".pgn")
		pgn, found := r.BoardPGN(id)
		if !ok || !found {
			http.Error(w, fmt.Sprintf("no game for board %q", id), http.StatusNotFound)
			return
		}
		servePGN(w, req, pgn)
	})
	return mux
}

func servePGN(w http.ResponseWriter, req *http.Request, pgn string) {
	sum := sha256.Sum256([]byte(pgn))
	etag := `"` + hex.EncodeToString(sum[:8]) + `"`
	w.Header().Set("ETag", etag)
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Content-Type", "application/x-chess-pgn; charset=utf-8")
	if req.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	io.WriteString(w, pgn)
}

// pushLoop pushes each configured round whenever its delayed PGN changes
// (the delay makes versions become visible over time, so it also looks
// once a second).
func (r *Relay) pushLoop(ctx context.Context) {
	if len(r.cfg.Push) == 0 {
		return
	}
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	last := map[string]time.Time{}
	for {
		select {
		case <-ctx.Done():
			return
		case <-r.wake:
		case <-tick.C:
		}
		for _, t := range r.cfg.Push {
			if time.Since(last[t.Round]) < r.cfg.PushEvery {
				continue
			}
			if err := r.PushRound(ctx, t); err != nil {
				r.log.Warn("relay: push failed", "round", t.Round, "err", err)
			}
			last[t.Round] = time.Now()
		}
	}
}

// PushRound pushes a round's delayed PGN if it changed since the last
// successful push.
func (r *Relay) PushRound(ctx context.Context, t PushTarget) error {
	r.mu.Lock()
	var b strings.Builder
	n := 0
	for _, e := range r.entriesLocked(r.cfg.Now()) {
		if e.game.Tag("Round") != t.Round {
			continue
		}
		if n == MaxPushGames {
			r.log.Warn("relay: round has more games than a push takes; the rest are not sent", "round", t.Round, "max", MaxPushGames)
			break
		}
		e.game.WritePGN(&b)
		n++
	}
	pgn := b.String()
	sum := sha256.Sum256([]byte(pgn))
	h := hex.EncodeToString(sum[:])
	same := r.pushed[t.Round] == h
	r.mu.Unlock()
	if n == 0 || same {
		return nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.URL, bytes.NewReader([]byte(pgn)))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+r.cfg.Token)
	req.Header.Set("Content-Type", "text/plain; charset=utf-8")
	resp, err := r.cfg.HTTPClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s: %s: %s", t.URL, resp.Status, strings.TrimSpace(string(body)))
	}
	// The reply lists per game what was taken and any error.
	var reply struct {
		Games []struct {
			Tags  map[string]string `json:"tags"`
			Moves int               `json:"moves"`
			Error string            `json:"error"`
		} `json:"games"`
	}
	if json.Unmarshal(body, &reply) == nil {
		for _, g := range reply.Games {
			if g.Error != "" {
				r.log.Warn("relay: push: a game was refused", "round", t.Round, "white", g.Tags["White"], "black", g.Tags["Black"], "err", g.Error)
			}
		}
	}
	r.mu.Lock()
	r.pushed[t.Round] = h
	r.mu.Unlock()
	r.log.Info("relay: pushed", "round", t.Round, "games", n)
	return nil
}
