package rules

import (
	"fmt"
	"time"
)

// Action is what a verdict does to the game or the clocks.
type Action int

// The actions. Unless said otherwise the game continues.
const (
	// NoAction: recorded for the arbiter; nothing changes.
	NoAction Action = iota
	// Reinstate: the position before the irregularity is reinstated and
	// the game continues; no penalty.
	Reinstate
	// AddTime: the position before the irregularity is reinstated and
	// Verdict.Time is added to the opponent's clock.
	AddTime
	// Loss: the player loses (drawn instead if the opponent cannot mate,
	// when Verdict.DrawIfOpponentCannotMate: Analyzer.Resolve then makes
	// it GameDrawn).
	Loss
	// OpponentMayClaimWin: the opponent may claim the win before making
	// his own move (1997 blitz, C3); once he has moved the move stands.
	OpponentMayClaimWin
	// GameWon: the game is over, won by the player's opponent (checkmate).
	GameWon
	// GameDrawn: the game is over, drawn.
	GameDrawn
	// DrawClaimable: the player to move may claim a draw.
	DrawClaimable
	// Annul: the game is annulled and a new game played.
	Annul
	// Restart: the game is stopped and a new one started with the right colours.
	Restart
	// TransferPosition: the game continues on a correctly placed board.
	TransferPosition
	// TouchMove: the move is governed by the touch-move rule (4.3, 4.4).
	TouchMove
	// FirstMoveStands: the move first released on a square stands (4.7).
	FirstMoveStands
	// RestorePieces: the player restores the pieces on his own time.
	RestorePieces
	// ContinueGame: the game continues (e.g. both flags fallen in an
	// earlier period).
	ContinueGame
)

var actionNames = [...]string{"none", "reinstate", "add-time", "loss", "opponent-may-claim-win",
	"game-won", "game-drawn", "draw-claimable", "annul", "restart", "transfer-position",
	"touch-move", "first-move-stands", "restore-pieces", "continue"}

// String is a stable name for the action, e.g. "add-time".
func (a Action) String() string {
	if a >= 0 && int(a) < len(actionNames) {
		return actionNames[a]
	}
	return fmt.Sprintf("Action(%d)", int(a))
}

// Rung is one step of the illegal-move ladder: what the nth completed
// illegal move of a player costs.
type Rung struct {
	Article string
	Action  Action        // Reinstate, AddTime, Loss or OpponentMayClaimWin
	Time    time.Duration // for AddTime: added to the opponent's clock
}

// Rule is a provision with its article and what it does.
type Rule struct {
	Article string
	Action  Action
	Text    string // one line, what the arbiter does
}

// Profile is one column of the Laws: an edition applied to a game type.
// All edition differences live in the table of profiles (profiles.go); the
// code that applies them (Verdict, Adjudicate...) has no edition ifs.
type Profile struct {
	Edition Edition
	Type    GameType
	// Supervised: for rapid and blitz, one arbiter watches the game (2018
	// A.3/B.3, 2023 A.4/B.3), so the competition rules apply. Always
	// true for standard games. The 1997 appendices do not distinguish.
	Supervised bool
	// QuickplayFinish: 1997 Article 10 applies (the last phase of a
	// standard game in which all remaining moves must be made in limited
	// time).
	QuickplayFinish bool

	// Name is a short label, e.g. "2018 rapid (unsupervised)".
	Name string

	// IllegalMoveArticle governs an illegal move (reinstating the
	// position): 1997 7.4 (C3 in blitz), 2018/2023 7.5.1.
	IllegalMoveArticle string
	// IllegalMoves is the ladder: entry n applies to a player's (n+1)th
	// completed illegal move; the last entry repeats.
	IllegalMoves []Rung
	// IllegalMoveText says when the ladder applies (who acts, until when).
	IllegalMoveText string
	// IllegalMoveOnClaim: the arbiter acts on an illegal move only when a
	// player asks (1997 B5) or the opponent claims (1997 C3).
	IllegalMoveOnClaim bool
	// IllegalDrawIfOpponentCannotMate: a loss from the ladder is a draw
	// when the opponent cannot mate by any legal series of moves (2018
	// 7.5.5; 1997 blitz C4 mating potential).
	IllegalDrawIfOpponentCannotMate bool
	// IllegalUncompleted governs an illegal move on a board without a
	// clock: no press completes it, so the ladder, which counts completed
	// illegal moves, never applies (Action Reinstate).
	IllegalUncompleted Rule

	ClockWithoutMove    Rule // Action Reinstate (1997) or AddTime: penalised as an illegal move
	PromotionUnreplaced Rule
	// UnreplacedQueen: a pawn left on the last rank at the press is
	// replaced by a queen (2018/2023 7.5.2). Otherwise (1997) the player
	// makes the move with that pawn again and chooses the piece (3.4e,
	// 7.4, 4.3).
	UnreplacedQueen      bool
	CastlingRookFirst    Rule
	MoveChanged          Rule
	MisplacedPieces      Rule
	WrongSetup           Rule
	BoardRotated         Rule
	ColoursReversed      Rule
	Checkmate            Rule
	Stalemate            Rule
	DeadPosition         Rule
	Threefold            Rule
	FiftyMoves           Rule
	Fivefold             Rule // GameDrawn when automatic (2014+), DrawClaimable in 1997
	SeventyFiveMoves     Rule
	FlagFall             Rule
	BothFlags            Rule
	BothFlagsLastPeriod  Rule // both flags fallen in the period with all remaining moves
	WrongClaim           Rule
	WrongClaimOpponent   time.Duration // added to the claimant's opponent
	WrongClaimCutHalfMax time.Duration // 1997 9.5b: half the claimant's time taken, at most this

	// SetupClaimMoves: after both players have made this many moves no
	// claim about the set-up, board orientation or clock setting is
	// admitted (1997 B4: 3; 2018 A.4.1: 10); 0 means no limit.
	SetupClaimMoves int
	// ColourRestartBelow: a game begun with colours reversed is restarted
	// if fewer than this many moves have been made by each player (2018
	// 7.3: 10); 0 means the game always continues (1997 7.2).
	ColourRestartBelow int
	// ArbiterCallsFlags: the arbiter declares a flag fall he observes;
	// otherwise only a player's claim counts (1997 B6).
	ArbiterCallsFlags bool
	FlagCallArticle   string
	// MatingPotential: a win needs "mating potential" (1997 blitz C4): a
	// king and two knights against a bare king have none, although a
	// helpmate exists, so a flag or illegal move there is a draw.
	MatingPotential bool
	// AutomaticDraws: fivefold repetition and 75 moves end the game
	// without a claim (2018/2023 9.6; not in 1997).
	AutomaticDraws bool
}

// Setting selects a profile.
type Setting struct {
	Edition         Edition
	Type            GameType
	Supervised      bool // rapid/blitz only; ignored for 1997 and for standard
	QuickplayFinish bool // 1997 standard only
}

// Lookup returns the profile for s. Standard games are always supervised;
// the 1997 rapid and blitz appendices make no supervised distinction;
// QuickplayFinish exists only for 1997 standard games.
func Lookup(s Setting) (*Profile, error) {
	if !s.Edition.Valid() {
		return nil, fmt.Errorf("rules profile: unknown FIDE edition %d (want 1997, 2018 or 2023)", int(s.Edition))
	}
	if s.Type != Standard && s.Type != Rapid && s.Type != Blitz {
		return nil, fmt.Errorf("rules profile: unknown game type %d", int(s.Type))
	}
	if s.QuickplayFinish && (s.Edition != Edition1997 || s.Type != Standard) {
		return nil, fmt.Errorf("rules profile: a quickplay finish is a 1997 standard-game rule (Article 10), not %s %s", s.Edition, s.Type)
	}
	sup := s.Supervised
	if s.Type == Standard {
		sup = true
	} else if s.Edition == Edition1997 {
		sup = false
	}
	for i := range profileTable {
		p := &profileTable[i]
		if p.Edition == s.Edition && p.Type == s.Type && p.Supervised == sup && p.QuickplayFinish == s.QuickplayFinish {
			cp := *p
			cp.IllegalMoves = append([]Rung(nil), p.IllegalMoves...)
			return &cp, nil
		}
	}
	return nil, fmt.Errorf("rules profile: no profile for %+v", s) // not reached: the table is complete
}

// Profiles returns a copy of every profile, in table order.
func Profiles() []Profile {
	out := make([]Profile, len(profileTable))
	for i, p := range profileTable {
		out[i] = p
		out[i].IllegalMoves = append([]Rung(nil), p.IllegalMoves...)
	}
	return out
}

// IllegalMoveRung is the ladder step for a player with priorIllegal
// earlier completed illegal moves.
func (p *Profile) IllegalMoveRung(priorIllegal int) Rung {
	if priorIllegal < 0 {
		priorIllegal = 0
	}
	if priorIllegal >= len(p.IllegalMoves) {
		priorIllegal = len(p.IllegalMoves) - 1
	}
	return p.IllegalMoves[priorIllegal]
}

// SetupClaimAllowed reports whether a claim about a wrong set-up or board
// orientation is still admitted after movesEach moves by each player.
func (p *Profile) SetupClaimAllowed(movesEach int) bool {
	return p.SetupClaimMoves == 0 || movesEach < p.SetupClaimMoves
}

// RestartForColours reports whether a game begun with the colours reversed
// is stopped and restarted after movesEach moves by each player.
func (p *Profile) RestartForColours(movesEach int) bool {
	return movesEach < p.ColourRestartBelow
}
