package rules

import "time"

// The profile table: every difference between editions and game types is
// here, each with its article. Texts paraphrase the seeds (1997 Swedish and
// German, 2018 Danish); the 2023 rows follow the edition table of docs/rules.md and the 2023
// numbering of the rapid appendix (A.3 penalties, A.4 supervised, A.5
// otherwise). docs/rules.md is rendered from this table (see TestRulesDoc).

const (
	twoMin   = 2 * time.Minute
	oneMin   = time.Minute
	threeMin = 3 * time.Minute
)

// base1997 holds the 1997 rules common to every game type.
func base1997() Profile {
	return Profile{
		Edition:            Edition1997,
		IllegalMoveArticle: "7.4",
		IllegalUncompleted: Rule{"7.4", Reinstate, "the position before it is reinstated (7.4a); without a clock no penalty applies (those of 10.3 and C3 count moves completed by the clock)"},
		ClockWithoutMove:   Rule{"6.13", Reinstate, "not an illegal move under the 1997 Laws (a move is completed by the clock, 6.7a); the arbiter sets the clocks (6.13)"},
		PromotionUnreplaced: Rule{"3.4e", Reinstate,
			"the pawn must be exchanged as part of the same move (3.4e): the move is made again with that pawn, promoted to the piece the player chooses (7.4, 4.3); no penalty"},
		CastlingRookFirst: Rule{"4.4b", TouchMove, "rook touched before the king: no castling on that side this move; the rook must be moved (4.3)"},
		MoveChanged:       Rule{"4.7", FirstMoveStands, "a piece released on a square as a legal move cannot be moved to another square"},
		MisplacedPieces:   Rule{"7.3", RestorePieces, "the player who displaced pieces restores them on his own time (7.3); if found later, the position before is reinstated (7.4)"},
		WrongSetup:        Rule{"7.1a", Annul, "the initial position was incorrect: the game is annulled and a new game played"},
		BoardRotated:      Rule{"7.1b", TransferPosition, "board placed contrary to 2.1: the game continues on a correctly placed board"},
		ColoursReversed:   Rule{"7.2", NoAction, "game begun with colours reversed: it continues unless the arbiter decides otherwise"},
		Checkmate:         Rule{"5.1a", GameWon, "checkmate: the game is won by the player who mated"},
		Stalemate:         Rule{"5.2", GameDrawn, "stalemate: the game is drawn"},
		DeadPosition:      Rule{"9.6", GameDrawn, "no series of legal moves can lead to mate: the game is drawn"},
		Threefold:         Rule{"9.2", DrawClaimable, "the same position for the third time: the player to move may claim a draw"},
		FiftyMoves:        Rule{"9.3", DrawClaimable, "50 moves by each player without a pawn move or capture: the player to move may claim a draw"},
		Fivefold:          Rule{"9.2", DrawClaimable, "no automatic draw by repetition in 1997: the player to move may claim (9.2)"},
		SeventyFiveMoves:  Rule{"9.3", DrawClaimable, "no automatic 75-move draw in 1997: the player to move may claim (9.3)"},
		FlagFall:          Rule{"6.9", Loss, "flag fallen before the prescribed moves: loss, drawn if the opponent cannot mate by any series of legal moves"},
		BothFlags:         Rule{"6.11", ContinueGame, "both flags fallen and it cannot be established which fell first: the game continues"},
		WrongClaim: Rule{"9.5b", AddTime,
			"incorrect draw claim: half the claimant's remaining time (at most 3 minutes) is deducted, 3 minutes added to the opponent, the intended move is played"},
		WrongClaimOpponent:   threeMin,
		WrongClaimCutHalfMax: threeMin,
		ArbiterCallsFlags:    true,
		FlagCallArticle:      "6.8",
	}
}

// base2018 holds the 2018 rules common to every game type.
func base2018() Profile {
	return Profile{
		Edition:            Edition2018,
		IllegalMoveArticle: "7.5.1",
		IllegalUncompleted: Rule{"7.5.1", Reinstate, "not completed, as an illegal move is completed once the player has pressed his clock and this board has none (7.5.1): a legal move replaces it (4.3 and 4.7 apply), no penalty (7.5.5 counts completed illegal moves)"},
		ClockWithoutMove:   Rule{"7.5.3", AddTime, "clock pressed without a move: considered and penalised as an illegal move"},
		PromotionUnreplaced: Rule{"7.5.2", AddTime,
			"pawn moved to the last rank and clock pressed without replacing it: illegal move; the pawn is replaced by a queen"},
		UnreplacedQueen:   true,
		CastlingRookFirst: Rule{"4.4.2", TouchMove, "rook touched before the king: no castling on that side this move (touch-move, 4.3), not an illegal move"},
		MoveChanged:       Rule{"4.7", FirstMoveStands, "a piece released on a square as a legal move cannot be moved to another square in this move"},
		MisplacedPieces:   Rule{"7.4.1", RestorePieces, "the player who displaces pieces re-establishes the position on his own time (7.4.1); found later: reinstated (7.6)"},
		WrongSetup:        Rule{"7.2.1", Annul, "the initial position was incorrect: the game is annulled and a new game played"},
		BoardRotated:      Rule{"7.2.2", TransferPosition, "board placed contrary to 2.1: the game continues, the position is transferred to a correctly placed board"},
		ColoursReversed:   Rule{"7.3", Restart, "game begun with colours reversed: restarted with the correct colours if fewer than 10 moves each, otherwise it continues"},
		Checkmate:         Rule{"5.1.1", GameWon, "checkmate: the game is won by the player who mated"},
		Stalemate:         Rule{"5.2.1", GameDrawn, "stalemate: the game is drawn"},
		DeadPosition:      Rule{"5.2.2", GameDrawn, "dead position: neither player can mate by any possible series of legal moves; the game is drawn"},
		Threefold:         Rule{"9.2.1", DrawClaimable, "the same position for at least the third time: the player to move may claim a draw (also by announcing the move, 9.2.1.1)"},
		FiftyMoves:        Rule{"9.3", DrawClaimable, "the last 50 moves by each player without a pawn move or capture: the player to move may claim a draw"},
		Fivefold:          Rule{"9.6.1", GameDrawn, "the same position for at least five times: the game is drawn"},
		SeventyFiveMoves:  Rule{"9.6.2", GameDrawn, "75 moves by each player without a pawn move or capture: the game is drawn (a mate on the last move stands)"},
		FlagFall:          Rule{"6.9", Loss, "flag fallen before the prescribed moves: loss, drawn if the opponent cannot mate by any possible series of legal moves"},
		BothFlags:         Rule{"III.3.1.1", ContinueGame, "both flags fallen, not known which first, in a period other than the last: the game continues"},
		BothFlagsLastPeriod: Rule{"III.3.1.2", GameDrawn,
			"both flags fallen, not known which first, in the period in which all remaining moves must be completed: the game is drawn"},
		WrongClaim:         Rule{"9.5.3", AddTime, "incorrect draw claim: two minutes added to the opponent; the intended move is played"},
		WrongClaimOpponent: twoMin,
		ArbiterCallsFlags:  true,
		FlagCallArticle:    "6.8",
		AutomaticDraws:     true,
		ColourRestartBelow: 10,
	}
}

// base2023 holds the 2023 rules common to every game type; they are the
// 2018 rules where docs/rules.md ("Editions") records no change.
func base2023() Profile {
	p := base2018()
	p.Edition = Edition2023
	return p
}

func row(p Profile, t GameType, supervised, quickplay bool, name string, edit func(*Profile)) Profile {
	p.Type, p.Supervised, p.QuickplayFinish, p.Name = t, supervised, quickplay, name
	edit(&p)
	return p
}

// profileTable is the data. Each row starts from its edition's base and
// states what the game type changes.
var profileTable = []Profile{
	// ---- 1997 ----
	row(base1997(), Standard, true, false, "1997 standard", func(p *Profile) {
		p.IllegalMoves = []Rung{{"7.4", Reinstate, 0}}
		p.IllegalMoveText = "the position before the illegal move is reinstated and the game continues; touch-move (4.3) for the replacing move"
	}),
	row(base1997(), Standard, true, true, "1997 standard, quickplay finish", func(p *Profile) {
		p.IllegalMoves = []Rung{{"10.3", AddTime, twoMin}, {"10.3", AddTime, twoMin}, {"10.3", Loss, 0}}
		p.IllegalMoveText = "after reinstating (7.4): two minutes to the opponent for the first and second illegal move, loss on the third"
		p.BothFlags = Rule{"10.4", GameDrawn, "both flags fallen and it cannot be established which fell first: the game is drawn"}
	}),
	row(base1997(), Rapid, false, false, "1997 rapid", func(p *Profile) {
		p.IllegalMoves = []Rung{{"10.3", AddTime, twoMin}, {"10.3", AddTime, twoMin}, {"10.3", Loss, 0}}
		p.IllegalMoveText = "a rapid game is a quickplay finish throughout; the arbiter applies 10.3 only when a player asks (B5)"
		p.IllegalMoveOnClaim = true
		p.SetupClaimMoves = 3
		p.WrongSetup = Rule{"B4", Annul, "incorrect initial position: game annulled (7.1a), but no claim once both players have made three moves"}
		p.BoardRotated = Rule{"B4", TransferPosition, "board wrongly placed: continued on a correctly placed board (7.1b); no claim once both players have made three moves"}
		p.ArbiterCallsFlags, p.FlagCallArticle = false, "B6"
		p.FlagFall = Rule{"B7", Loss, "flag fallen, claimed by the opponent with both clocks stopped (B6, B7): loss, drawn if the claimant cannot mate (6.9)"}
		p.BothFlags = Rule{"B8", GameDrawn, "both flags fallen: the game is drawn"}
	}),
	row(base1997(), Blitz, false, false, "1997 blitz", func(p *Profile) {
		p.IllegalMoveArticle = "C3"
		p.IllegalMoves = []Rung{{"C3", OpponentMayClaimWin, 0}}
		p.IllegalMoveText = "an illegal move is completed when the opponent's clock starts; the opponent may claim the win before moving, after his move it stands"
		p.IllegalMoveOnClaim = true
		p.IllegalDrawIfOpponentCannotMate = true // C4: a win needs mating potential
		p.MatingPotential = true
		p.SetupClaimMoves = 3
		p.WrongSetup = Rule{"B4", Annul, "incorrect initial position: game annulled (7.1a), but no claim once both players have made three moves (B4 via C2)"}
		p.BoardRotated = Rule{"B4", TransferPosition, "board wrongly placed: continued on a correctly placed board (7.1b); no claim once both players have made three moves (B4 via C2)"}
		p.ArbiterCallsFlags, p.FlagCallArticle = false, "B6"
		p.FlagFall = Rule{"B7", Loss, "flag fallen, claimed by the opponent (B6, B7 via C2): loss, drawn if the claimant has no mating potential (C4, 6.9)"}
		p.BothFlags = Rule{"B8", GameDrawn, "both flags fallen: the game is drawn (B8 via C2)"}
	}),

	// ---- 2018 ----
	row(base2018(), Standard, true, false, "2018 standard", func(p *Profile) {
		p.IllegalMoves = []Rung{{"7.5.5", AddTime, twoMin}, {"7.5.5", Loss, 0}}
		p.IllegalMoveText = "the position before the illegal move is reinstated (7.5.1); two minutes to the opponent for the first, loss for the second"
		p.IllegalDrawIfOpponentCannotMate = true
	}),
	row(base2018(), Rapid, true, false, "2018 rapid (supervised)", func(p *Profile) {
		p.IllegalMoves = []Rung{{"7.5.5", AddTime, twoMin}, {"7.5.5", Loss, 0}}
		p.IllegalMoveText = "competition rules apply (A.3.1): reinstate (7.5.1); two minutes to the opponent for the first illegal move, loss for the second"
		p.IllegalDrawIfOpponentCannotMate = true
	}),
	row(base2018(), Rapid, false, false, "2018 rapid (unsupervised)", func(p *Profile) {
		p.IllegalMoves = []Rung{{"A.4.2", AddTime, twoMin}, {"A.4.2", Loss, 0}}
		p.IllegalMoveText = "the arbiter acts per 7.5.5, or the opponent claims, before the opponent has made his next move; after that the illegal move stands"
		p.IllegalDrawIfOpponentCannotMate = true
		p.SetupClaimMoves = 10
		p.WrongSetup = Rule{"A.4.1.2", Annul, "incorrect initial position: annulled (7.2.1), but no claim once each player has completed ten moves"}
		p.BoardRotated = Rule{"A.4.1.2", TransferPosition, "board wrongly oriented: continued on a correctly placed board (7.2.2); no claim once each player has completed ten moves"}
		p.FlagFall = Rule{"A.4.3", Loss, "flag fallen, claimed with the clock stopped: loss, drawn if the claimant cannot mate by any possible series of legal moves"}
		p.FlagCallArticle = "A.4.5"
	}),
	row(base2018(), Blitz, true, false, "2018 blitz (supervised)", func(p *Profile) {
		p.IllegalMoves = []Rung{{"B.2", AddTime, oneMin}, {"7.5.5", Loss, 0}}
		p.IllegalMoveText = "competition rules apply (B.3.1) with one minute instead of two (B.2): one minute to the opponent for the first illegal move, loss for the second"
		p.IllegalDrawIfOpponentCannotMate = true
		p.WrongClaim = Rule{"B.2", AddTime, "incorrect draw claim: one minute (B.2) added to the opponent (9.5.3); the intended move is played"}
		p.WrongClaimOpponent = oneMin
	}),
	row(base2018(), Blitz, false, false, "2018 blitz (unsupervised)", func(p *Profile) {
		p.IllegalMoves = []Rung{{"B.2", AddTime, oneMin}, {"A.4.2", Loss, 0}}
		p.IllegalMoveText = "rapid rules A.4 apply (B.4) with one minute (B.2): acted on only before the opponent has made his next move; after that it stands"
		p.IllegalDrawIfOpponentCannotMate = true
		p.WrongClaim = Rule{"B.2", AddTime, "incorrect draw claim: one minute (B.2) added to the opponent (9.5.3); the intended move is played"}
		p.WrongClaimOpponent = oneMin
		p.SetupClaimMoves = 10
		p.WrongSetup = Rule{"A.4.1.2", Annul, "incorrect initial position: annulled (7.2.1), but no claim once each player has completed ten moves (B.4)"}
		p.BoardRotated = Rule{"A.4.1.2", TransferPosition, "board wrongly oriented: continued on a correctly placed board (7.2.2); no claim after ten moves each (B.4)"}
		p.FlagFall = Rule{"A.4.3", Loss, "flag fallen, claimed with the clock stopped (B.4): loss, drawn if the claimant cannot mate by any possible series of legal moves"}
		p.FlagCallArticle = "A.4.5"
	}),

	// ---- 2023 ----
	row(base2023(), Standard, true, false, "2023 standard", func(p *Profile) {
		p.IllegalMoves = []Rung{{"7.5.5", AddTime, twoMin}, {"7.5.5", Loss, 0}}
		p.IllegalMoveText = "the position before the illegal move is reinstated (7.5.1); two minutes to the opponent for the first, loss for the second"
		p.IllegalDrawIfOpponentCannotMate = true
	}),
	row(base2023(), Rapid, true, false, "2023 rapid (supervised)", func(p *Profile) {
		p.IllegalMoves = []Rung{{"A.3", AddTime, oneMin}, {"7.5.5", Loss, 0}}
		p.IllegalMoveText = "competition rules apply (A.4) with one minute instead of two (A.3): one minute to the opponent for the first illegal move, loss for the second"
		p.IllegalDrawIfOpponentCannotMate = true
		p.WrongClaim = Rule{"A.3", AddTime, "incorrect draw claim: one minute (A.3) added to the opponent (9.5.3); the intended move is played"}
		p.WrongClaimOpponent = oneMin
	}),
	row(base2023(), Rapid, false, false, "2023 rapid (unsupervised)", func(p *Profile) {
		p.IllegalMoves = []Rung{{"A.3", AddTime, oneMin}, {"A.5.2", Loss, 0}}
		p.IllegalMoveText = "one minute (A.3); the arbiter acts, or the opponent claims, before the opponent has made his next move (A.5.2); after that it stands"
		p.IllegalDrawIfOpponentCannotMate = true
		p.WrongClaim = Rule{"A.3", AddTime, "incorrect draw claim: one minute (A.3) added to the opponent (9.5.3); the intended move is played"}
		p.WrongClaimOpponent = oneMin
		p.SetupClaimMoves = 10
		p.WrongSetup = Rule{"A.5.1", Annul, "incorrect initial position: annulled (7.2.1), but no claim once each player has completed ten moves"}
		p.BoardRotated = Rule{"A.5.1", TransferPosition, "board wrongly oriented: continued on a correctly placed board (7.2.2); no claim once each player has completed ten moves"}
		p.FlagFall = Rule{"A.5.3", Loss, "flag fallen, claimed with the clock stopped: loss, drawn if the claimant cannot mate by any possible series of legal moves"}
		p.FlagCallArticle = "A.5.5"
	}),
	row(base2023(), Blitz, true, false, "2023 blitz (supervised)", func(p *Profile) {
		p.IllegalMoves = []Rung{{"B.2", AddTime, oneMin}, {"7.5.5", Loss, 0}}
		p.IllegalMoveText = "competition rules apply (B.3) with one minute instead of two (B.2): one minute to the opponent for the first illegal move, loss for the second"
		p.IllegalDrawIfOpponentCannotMate = true
		p.WrongClaim = Rule{"B.2", AddTime, "incorrect draw claim: one minute (B.2) added to the opponent (9.5.3); the intended move is played"}
		p.WrongClaimOpponent = oneMin
	}),
	row(base2023(), Blitz, false, false, "2023 blitz (unsupervised)", func(p *Profile) {
		p.IllegalMoves = []Rung{{"B.2", AddTime, oneMin}, {"A.5.2", Loss, 0}}
		p.IllegalMoveText = "rapid rules A.5 apply (B.4) with one minute (B.2): acted on only before the opponent has made his next move; after that it stands"
		p.IllegalDrawIfOpponentCannotMate = true
		p.WrongClaim = Rule{"B.2", AddTime, "incorrect draw claim: one minute (B.2) added to the opponent (9.5.3); the intended move is played"}
		p.WrongClaimOpponent = oneMin
		p.SetupClaimMoves = 10
		p.WrongSetup = Rule{"A.5.1", Annul, "incorrect initial position: annulled (7.2.1), but no claim once each player has completed ten moves (B.4)"}
		p.BoardRotated = Rule{"A.5.1", TransferPosition, "board wrongly oriented: continued on a correctly placed board (7.2.2); no claim after ten moves each (B.4)"}
		p.FlagFall = Rule{"A.5.3", Loss, "flag fallen, claimed with the clock stopped (B.4): loss, drawn if the claimant cannot mate by any possible series of legal moves"}
		p.FlagCallArticle = "A.5.5"
	}),
}
