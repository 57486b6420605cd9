// Package publish makes a board's game visible to the world: the
// crash-safe journal that is the source of truth, the MQTT outbox that
// projects it onto the topic tree, the embedded broker, commands, the live
// PGN feed for broadcasts, and the demonstration web pages.
//
// The daemon opens a Publisher on the board's journal directory, runs it,
// and hands it the game's events in this package's own types:
//
//	p, err := publish.Open(publish.Config{
//		Board:      "b-017",
//		JournalDir: "/var/lib/boardd/journal",
//		Dialer:     publish.PahoDialer{URL: "tcp://broker:1883", Username: "b-017", Password: pw},
//		Handler:    commands, // applies new_game, set_position, ... (see Handler)
//		Status:     publish.Status{Firmware: version, Sensors: "reed", Clock: "dgt3000"},
//		Logger:     log,
//	})
//	go p.Run(ctx)                    // connects, re-sends, reconnects until ctx ends
//	resumed := p.Current()           // the game the journal holds (after a restart)
//	p.StartGame(publish.GameInfo{White: ..., Black: ..., Round: ..., TimeControl: "90m+30s"})
//	p.Move(publish.Move{Ply: 1, UCI: "e2e4", Clocks: publish.ClocksOf(w, b), Final: true})
//	p.Alert(publish.Alert{Kind: "illegal-move", Ply: 7, Article: "7.5.1", ...})
//	p.Clock(publish.ClockState{..., Event: "press"})
//	p.End(publish.Result{Result: "1-0", Termination: "resignation"})
//
// Every event method checks its input against the game (a move must be
// legal and the next ply), journals it with fsync and returns; publishing
// follows in Run. While the journal cannot be written (a full disk) events
// are held in memory, bounded, and written when it can again; Health says
// so, and what damage the journal was found with. What goes out, and why nothing is lost, duplicated or
// reordered for a subscriber that applies Deduper's rule, is in
// docs/mqtt.md.
//
// Subpackages: journal (the record log), broker (the embedded mochi
// broker and mosquitto-compatible passwords and ACLs), relay (delayed
// multi-game PGN per round for broadcasts), publishtest (an in-memory
// broker implementing Dialer, for tests), web (the pages).
package publish
