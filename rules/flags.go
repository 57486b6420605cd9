package rules

import "github.com/boardd/boardd/chess"

// FlagsVerdict applies profile p's flag rules to a clock state: which
// verdict the fallen flags call for. ok is false when no flag has fallen.
//
// With one flag down it is that side's flag fall (2018 6.9; 1997 6.9, B7).
// With both down it depends on who makes a flag count:
//   - where only a player's claim does (p.ArbiterCallsFlags false: 1997
//     rapid and blitz, B6), both flags down is the both-flags rule
//     whatever the order (B8: drawn);
//   - where the arbiter calls flags, the first flag decides when the clock
//     dated both (a software clock always does: one clock runs at a time),
//     and the both-flags rule (1997 6.11; 2018 Guidelines III.3.1, drawn
//     in the last period) applies only when the order cannot be
//     established, i.e. both instants are unknown or equal.
//
// The verdict's DrawIfOpponentCannotMate still has to be checked against
// the position (6.9).
func (p *Profile) FlagsVerdict(s ClockSnapshot) (v Verdict, ok bool) {
	w, b := s.Flagged[chess.White], s.Flagged[chess.Black]
	switch {
	case !w && !b:
		return Verdict{}, false
	case w != b:
		side := chess.White
		if b {
			side = chess.Black
		}
		return p.Verdict(KindFlagFall, side, 0), true
	}
	tw, tb := s.FlagAt[chess.White], s.FlagAt[chess.Black]
	known := !tw.IsZero() && !tb.IsZero() && !tw.Equal(tb)
	if !p.ArbiterCallsFlags || !known {
		return p.BothFlagsVerdict(s.FlagLastPeriod[chess.White] && s.FlagLastPeriod[chess.Black]), true
	}
	first := chess.White
	if tb.Before(tw) {
		first = chess.Black
	}
	return p.Verdict(KindFlagFall, first, 0), true
}
