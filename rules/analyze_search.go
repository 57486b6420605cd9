package rules

import (
	"github.com/boardd/boardd/chess"
)

// The helpmate search: iterative deepening over both sides' moves, looking
// for a position where the loser is checkmated. The depth counts only
// "ordinary" moves: moves that make progress towards a mate (a winner's
// pawn advance or capture, kings and knights heading for the mating
// corner) are free, and moves that rarely help (the loser capturing or
// pushing a pawn) cost extra. That lets the search follow the long,
// purposeful lines a helpmate needs without searching everything to that
// length.
//
// The same search proves unwinnability: if an iteration finishes without
// cutting any line short (every line ended in checkmate of the winner,
// stalemate, insufficient material, a static proof, or a position already
// searched in this iteration), no mate exists.

const (
	maxLine = 160 // plies; longer lines are cut (and the proof lost)
	// maxClosureDepth bounds the closure's stack (about 90 bytes a ply).
	maxClosureDepth = 400_000
	maxDepth        = 128
	punishCost      = 4
	rewardCost      = 0
	defaultCost     = 1
)

type ttEntry struct {
	check     uint64
	iter      uint32
	remaining int32
}

type search struct {
	pos    chess.Position
	winner chess.Color
	tt     map[uint64]ttEntry
	iter   uint32
	nodes  int
	limit  int
	// staticCost is what one static analysis costs in nodes (see
	// Analyzer.SetStaticCost); 0 counts search nodes only.
	staticCost  int
	interrupted bool
	line        []chess.Move

	// Heuristic targets, fixed at the root.
	loserKingTarget   chess.Square
	loserKnightTarget chess.Square
	winKingTarget     chess.Square
	winKnightTarget   chess.Square

	static *staticCache

	// Scratch for runClosure.
	visited map[uint64]uint32
	arena   []chess.Move
	stack   []closureFrame
}

// spent is the budget used: search nodes, and the static analyses at
// their cost.
func (s *search) spent() int {
	if s.static == nil {
		return s.nodes
	}
	return s.nodes + s.static.runs*s.staticCost
}

func (s *search) reset(p *chess.Position, winner chess.Color, limit int) {
	s.pos = *p
	s.winner = winner
	if s.tt == nil || len(s.tt) > 1<<16 {
		s.tt = make(map[uint64]ttEntry, 1<<12)
	} else {
		clear(s.tt)
	}
	s.iter = 0
	s.nodes = 0
	s.limit = limit
	s.interrupted = false
	s.line = s.line[:0]
	s.setTargets()
	if s.static == nil {
		s.static = newStaticCache()
	}
	s.static.reset()
}

// setTargets picks the mating corner on the loser's back rank: the corner
// of the colour of the winner's bishops (a bishop must be able to give the
// final check there), else the corner whose flight squares the loser's
// bishops can block, else the one nearer the loser's king.
func (s *search) setTargets() {
	p := &s.pos
	loser := s.winner.Other()
	rank := 7
	if loser == chess.White {
		rank = 0
	}
	hCorner, aCorner := chess.NewSquare(7, rank), chess.NewSquare(0, rank)
	corner := hCorner
	wb := p.Pieces(s.winner, chess.Bishop)
	if wb != 0 {
		wantDark := wb&darkSquares != 0
		if isDark(hCorner) != wantDark {
			corner = aCorner
		}
	} else if lb := p.Pieces(loser, chess.Bishop); lb != 0 {
		// The loser's bishops can block the corner king's two flight
		// squares beside it, which have the other colour.
		wantDark := lb&darkSquares == 0
		if isDark(hCorner) != wantDark {
			corner = aCorner
		}
	} else if kingDist(p.KingSquare(loser), aCorner) < kingDist(p.KingSquare(loser), hCorner) {
		corner = aCorner // no colour to respect: the nearer corner
	}
	dir := -1 // towards the centre, in ranks
	if rank == 0 {
		dir = 1
	}
	fileIn := 1 // towards the centre, in files
	if corner.File() == 7 {
		fileIn = -1
	}
	s.loserKingTarget = corner
	s.loserKnightTarget = chess.NewSquare(corner.File()+fileIn, corner.Rank())
	s.winKingTarget = chess.NewSquare(corner.File()+fileIn, corner.Rank()+dir)
	s.winKnightTarget = chess.NewSquare(corner.File()+3*fileIn, corner.Rank()+3*dir)
}

// release drops tables that grew large, so that an idle Analyzer holds
// little memory.
func (s *search) release() {
	if len(s.tt) > 1<<16 {
		s.tt = nil
	}
	if s.static != nil && len(s.static.results) > 1<<12 {
		s.static.results = make(map[uint64]staticResult)
	}
	if cap(s.arena) > 1<<16 || cap(s.stack) > 1<<14 {
		s.arena, s.stack = nil, nil
	}
}

func isDark(sq chess.Square) bool { return darkSquares.Has(sq) }

// run is the iterative deepening driver.
func (s *search) run() MateAnswer {
	for depth := 1; depth <= maxDepth; depth++ {
		s.iter++
		s.interrupted = false
		s.line = s.line[:0]
		if s.helpmate(0, depth, false) {
			return MateAnswer{Winnability: Winnable, Method: "search", Helpmate: append([]chess.Move(nil), s.line...)}
		}
		if !s.interrupted {
			return MateAnswer{Winnability: Unwinnable, Method: "exhausted"}
		}
		if s.spent() >= s.limit {
			break
		}
	}
	return MateAnswer{Winnability: Undetermined, Method: "budget"}
}

// runClosure visits every position reachable from the root, depth first
// with an explicit stack (lines can be thousands of plies long), until
// limit moves have been made. A mate found is a helpmate; a search that
// ends without reaching the limit proves that there is none. Positions
// reached by a capture or a pawn move (a new pawn structure) are first
// given to the static analysis, which may prove them unwinnable.
func (s *search) runClosure(limit int) MateAnswer {
	p := &s.pos
	s.nodes = 0
	visited := s.visited
	if visited == nil || len(visited) > 1<<16 {
		visited = make(map[uint64]uint32, 1<<12)
	} else {
		clear(visited)
	}
	defer func() {
		if len(visited) > 1<<16 {
			visited = nil // do not keep a large table between calls
		}
		s.visited = visited
	}()

	arena := s.arena[:0]
	stack := s.stack[:0]
	defer func() { s.arena, s.stack = arena[:0], stack[:0] }()

	// expand pushes the moves of the current position, best first.
	expand := func(m chess.Move, u chess.Undo) {
		var list chess.MoveList
		p.GenerateLegal(&list)
		start := int32(len(arena))
		for _, cls := range [...]moveClass{rewardMove, normalMove, punishMove} {
			for _, mv := range list.Moves() {
				if s.classify(mv) == cls {
					arena = append(arena, mv)
				}
			}
		}
		stack = append(stack, closureFrame{start: start, end: int32(len(arena)), next: start, move: m, undo: u})
	}
	visited[p.Key()] = uint32(secondaryHash(p))
	cut := false
	expand(chess.NoMove, chess.Undo{})
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.next == f.end {
			arena = arena[:f.start]
			if len(stack) > 1 {
				p.UnmakeMove(f.move, f.undo)
			}
			stack = stack[:len(stack)-1]
			continue
		}
		m := arena[f.next]
		f.next++
		s.nodes++
		if s.spent() > limit {
			return MateAnswer{Winnability: Undetermined, Method: "budget"}
		}
		irreversible := p.PieceAt(m.To()) != chess.NoPiece && !m.IsCastling() || p.PieceAt(m.From()).Type() == chess.Pawn
		u := p.MakeMove(m)
		key, check := p.Key(), uint32(secondaryHash(p))
		if c, ok := visited[key]; ok && c == check {
			p.UnmakeMove(m, u)
			continue
		}
		visited[key] = check
		if !p.HasLegalMove() {
			if p.SideToMove() != s.winner && p.InCheck() {
				line := make([]chess.Move, 0, len(stack))
				for _, fr := range stack[1:] {
					line = append(line, fr.move)
				}
				line = append(line, m)
				// Leave the position as it was found.
				p.UnmakeMove(m, u)
				for i := len(stack) - 1; i >= 1; i-- {
					p.UnmakeMove(stack[i].move, stack[i].undo)
				}
				return MateAnswer{Winnability: Winnable, Method: "closure", Helpmate: line}
			}
			p.UnmakeMove(m, u)
			continue
		}
		if insufficientMaterial(p, s.winner) || irreversible && s.static.unwinnable(p, s.winner) {
			p.UnmakeMove(m, u)
			continue
		}
		if len(stack) >= maxClosureDepth {
			// Too deep to keep on the stack: this line is cut, so the
			// visit can no longer prove anything, but it may still find
			// a mate elsewhere.
			cut = true
			p.UnmakeMove(m, u)
			continue
		}
		expand(m, u)
	}
	if cut {
		return MateAnswer{Winnability: Undetermined, Method: "budget"}
	}
	return MateAnswer{Winnability: Unwinnable, Method: "closure"}
}

// closureFrame is one level of runClosure's stack: the moves of a position
// (a slice of the shared arena) and the move that led to it.
type closureFrame struct {
	start, end, next int32
	move             chess.Move
	undo             chess.Undo
}

// moveClass is how much a move costs against the depth.
type moveClass int8

const (
	normalMove moveClass = iota
	rewardMove
	punishMove
)

// helpmate searches from s.pos with depth plies already charged against
// limit; progress says the previous move was a rewarded one, which makes
// the next ordinary move free too (so a reward for one side gives the
// other side a tempo).
func (s *search) helpmate(depth, limit int, progress bool) bool {
	p := &s.pos
	var list chess.MoveList
	p.GenerateLegal(&list)
	if list.Len() == 0 {
		return p.SideToMove() != s.winner && p.InCheck()
	}
	if insufficientMaterial(p, s.winner) {
		return false
	}
	if depth == 0 && len(s.line) == 0 && s.static.unwinnable(p, s.winner) {
		return false
	}
	remaining := int32(limit - depth)
	if remaining <= 0 || len(s.line) >= maxLine {
		s.interrupted = true
		return false
	}
	key, check := p.Key(), secondaryHash(p)
	if e, ok := s.tt[key]; ok && e.check == check && e.iter == s.iter && e.remaining >= remaining {
		return false
	}
	s.tt[key] = ttEntry{check: check, iter: s.iter, remaining: remaining}

	var classes [256]moveClass
	var orderBuf [256]uint8
	moves := list.Moves()
	for i, m := range moves {
		classes[i] = s.classify(m)
	}
	// Rewarded moves first, punished last: mates are found sooner.
	order := orderBuf[:0]
	for _, want := range [...]moveClass{rewardMove, normalMove, punishMove} {
		for i := range moves {
			if classes[i] == want {
				order = append(order, uint8(i))
			}
		}
	}

	for _, i := range order {
		m := moves[i]
		s.nodes++
		if s.spent() > s.limit {
			s.interrupted = true
			return false
		}
		next := depth + defaultCost
		switch {
		case classes[i] == rewardMove:
			next = depth + rewardCost
		case classes[i] == punishMove:
			next = depth + punishCost
		case progress:
			next = depth
		}
		u := p.MakeMove(m)
		s.line = append(s.line, m)
		found := s.helpmate(next, limit, classes[i] == rewardMove)
		p.UnmakeMove(m, u)
		if found {
			return true
		}
		s.line = s.line[:len(s.line)-1]
	}
	return false
}

// classify sorts a move into rewarded, ordinary and punished.
func (s *search) classify(m chess.Move) moveClass {
	p := &s.pos
	from, to := m.From(), m.To()
	pc := p.PieceAt(from)
	capture := p.PieceAt(to) != chess.NoPiece && !m.IsCastling() || m.IsEnPassant()
	if p.SideToMove() == s.winner {
		switch {
		case pc.Type() == chess.Pawn && !capture:
			return rewardMove
		case capture:
			return rewardMove
		case pc.Type() == chess.King && !m.IsCastling() && closer(kingDist, from, to, s.winKingTarget):
			return rewardMove
		case pc.Type() == chess.Knight && closer(knightDist, from, to, s.winKnightTarget):
			return rewardMove
		case pc.Type() != chess.Knight && pc.Type() != chess.King && closer(kingDist, from, to, s.loserKingTarget):
			return rewardMove
		}
		return normalMove
	}
	if needsHelp(p, s.winner) {
		// The winner cannot mate a bare king: the loser's own men must
		// block its king's flight squares, so its pawns should promote
		// and its pieces gather around the mating corner.
		switch {
		case pc.Type() == chess.King && !m.IsCastling() && closer(kingDist, from, to, s.loserKingTarget):
			return rewardMove
		case capture:
			return punishMove
		case pc.Type() == chess.Pawn:
			return rewardMove
		case pc.Type() != chess.King && closer(kingDist, from, to, s.loserKingTarget):
			return rewardMove
		}
		return normalMove
	}
	switch {
	case pc.Type() == chess.King && !m.IsCastling() && closer(kingDist, from, to, s.loserKingTarget):
		return rewardMove
	case pc.Type() == chess.Knight && closer(knightDist, from, to, s.loserKnightTarget):
		return rewardMove
	case capture || pc.Type() == chess.Pawn:
		return punishMove
	}
	return normalMove
}

// needsHelp reports whether winner's material cannot mate a bare king: no
// pawn, and a single knight or bishops all on one colour.
func needsHelp(p *chess.Position, winner chess.Color) bool {
	ours := p.ByColor(winner) &^ p.ByType(chess.King)
	if ours&p.ByType(chess.Pawn) != 0 {
		return false
	}
	if ours == p.ByType(chess.Knight)&ours {
		return ours.Count() <= 1
	}
	if ours == p.ByType(chess.Bishop)&ours {
		return ours&darkSquares == 0 || ours&^darkSquares == 0
	}
	return false
}

func closer(dist func(a, b chess.Square) int, from, to, target chess.Square) bool {
	return dist(to, target) < dist(from, target)
}

func kingDist(a, b chess.Square) int {
	df, dr := a.File()-b.File(), a.Rank()-b.Rank()
	if df < 0 {
		df = -df
	}
	if dr < 0 {
		dr = -dr
	}
	return max(df, dr)
}

// knightDistTable holds knight-move distances, computed by breadth-first
// search on first use of the package (read-only afterwards).
var knightDistTable = func() (t [64][64]int8) {
	for a := chess.Square(0); a < 64; a++ {
		for b := range t[a] {
			t[a][b] = -1
		}
		t[a][a] = 0
		queue := []chess.Square{a}
		for len(queue) > 0 {
			x := queue[0]
			queue = queue[1:]
			for bb := chess.KnightAttacks(x); bb != 0; bb &= bb - 1 {
				y := bb.First()
				if t[a][y] < 0 {
					t[a][y] = t[a][x] + 1
					queue = append(queue, y)
				}
			}
		}
	}
	return t
}()

func knightDist(a, b chess.Square) int { return int(knightDistTable[a][b]) }

// secondaryHash is a second, independent hash of the position, stored in
// the transposition table next to the Zobrist key so that a key collision
// cannot make the search skip a position it has not searched.
func secondaryHash(p *chess.Position) uint64 {
	h := uint64(0x9E3779B97F4A7C15)
	mix := func(x uint64) {
		h ^= x
		h *= 0xBF58476D1CE4E5B9
		h ^= h >> 31
	}
	mix(uint64(p.ByColor(chess.White)))
	mix(uint64(p.ByColor(chess.Black)))
	mix(uint64(p.ByType(chess.Pawn)))
	mix(uint64(p.ByType(chess.Knight)))
	mix(uint64(p.ByType(chess.Bishop)))
	mix(uint64(p.ByType(chess.Rook)))
	mix(uint64(p.ByType(chess.Queen)))
	mix(uint64(p.SideToMove()) | uint64(p.Castling())<<8 | uint64(uint8(p.EnPassant()))<<16)
	return h
}
