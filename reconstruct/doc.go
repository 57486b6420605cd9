// Package reconstruct turns sensor frames and clock events into chess
// moves, corrections and irregularity alerts. It is pure and deterministic:
// the same input events always give the same output events; time is the
// board time carried by the events, never the wall clock.
//
// # Use
//
//	cfg, _ := reconstruct.ConfigFromHeader(traceHeader) // or fill a Config
//	r, err := reconstruct.New(cfg)
//	var out []reconstruct.Output
//	for each event ev {
//		out = r.Feed(&ev, out[:0]) // append what ev leads to
//		... publish out ...
//	}
//	out = r.End(lastT, out[:0]) // the input is over
//
// A live board also calls Advance(now) every 50-100 ms so that a still
// board is acted on without waiting for the next event.
//
// Outputs (see Output and Kind): final and provisional moves, retractions
// and amendments of published moves, alerts (the kinds of docs/rules.md, with squares,
// expected vs seen, and the article and penalty a Judge gives), notes
// (what the board sees but cannot judge), new games and game ends.
// AppendJSON writes one output in the form `boardd replay --events`
// prints.
//
// How the board is read (hypotheses, costs, commitment, amendments, and
// every hard case) is described in docs/reconstruction.md.
package reconstruct
