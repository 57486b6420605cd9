package chess

// Legal move generation. Pins and checks are handled while generating:
// a pinned piece moves only along its pin line, in check every non-king
// move must capture the checker or block, and king moves avoid the
// squares the opponent attacks with our king taken off the board. Only en
// passant, whose legality depends on two vanishing pawns, is tested by
// recomputing attacks.
//
// The same code counts moves without listing them (list == nil); perft
// uses that at its last ply.

func pawnAttackSet(c Color, b Bitboard) Bitboard {
	if c == White {
		return (b&^FileA)<<7 | (b&^FileH)<<9
	}
	return (b&^FileA)>>9 | (b&^FileH)>>7
}

// GenerateLegal appends every legal move of the side to move to list.
func (p *Position) GenerateLegal(list *MoveList) { p.gen(list, allSquares, allSquares) }

// GenerateFrom appends the legal moves of the pieces standing on from
// (a castling is the king's) to list, in the order GenerateLegal lists
// them.
func (p *Position) GenerateFrom(list *MoveList, from Bitboard) { p.gen(list, from, allSquares) }

// GenerateCaptures appends the legal moves that take a piece standing on
// their destination (not en passant, not castling) to list, in the order
// GenerateLegal lists them.
func (p *Position) GenerateCaptures(list *MoveList) { p.gen(list, allSquares, p.byColor[p.side^1]) }

// CountLegal returns the number of legal moves without listing them.
func (p *Position) CountLegal() int { return p.gen(nil, allSquares, allSquares) }

// allSquares is gen's destination mask for every legal move.
const allSquares = ^Bitboard(0)

// LegalMoves returns the legal moves as a new slice (allocates; for code
// off the hot path).
func (p *Position) LegalMoves() []Move {
	var l MoveList
	p.gen(&l, allSquares, allSquares)
	return append([]Move(nil), l.Moves()...)
}

// HasLegalMove reports whether the side to move has any legal move.
func (p *Position) HasLegalMove() bool {
	// Out of check, a knight or pawn on no line through its king cannot
	// be pinned, so a square it can step to is a legal move: nearly every
	// position answers so, without the pins or the squares the opponent
	// attacks worked out.
	us, own := p.side, p.byColor[p.side]
	ksq := p.kingSq[us]
	loose := own &^ (rookRays[ksq] | bishopRays[ksq])
	pawns := loose & p.byType[Pawn]
	step := pawns >> 8
	if us == White {
		step = pawns << 8
	}
	quick := step&^p.byType[0] != 0
	for b := loose & p.byType[Knight]; b != 0 && !quick; b &= b - 1 {
		quick = knightAttacks[b.First()]&^own != 0
	}
	if quick && !p.InCheck() {
		return true
	}
	// The other pieces first: without the king among them the squares the
	// opponent attacks need not be worked out, and nearly always one of
	// them can move.
	k := p.kingSq[p.side].Bitboard()
	return p.gen(nil, ^k, allSquares) > 0 || p.gen(nil, k, allSquares) > 0
}

// IsCheckmate reports whether the side to move is checkmated.
func (p *Position) IsCheckmate() bool { return p.InCheck() && !p.HasLegalMove() }

// IsStalemate reports whether the side to move has no legal move and is not in check.
func (p *Position) IsStalemate() bool { return !p.InCheck() && !p.HasLegalMove() }

// MovesToOccupancy appends to list every legal move after which the
// occupied squares are exactly occ. It does not allocate.
func (p *Position) MovesToOccupancy(occ Bitboard, list *MoveList) {
	// A move empties the square it leaves, but for a castling whose king
	// or rook lands where the other stood.
	from := p.byType[0] &^ occ
	if p.castle&((WhiteHSide|WhiteASide)<<(2*p.side)) != 0 {
		from |= p.kingSq[p.side].Bitboard()
	}
	if from == 0 {
		return
	}
	var all MoveList
	p.gen(&all, from, allSquares)
	for _, m := range all.Moves() {
		if p.OccupancyAfter(m) == occ {
			list.add(m)
		}
	}
}

// emitFrom adds (or counts) moves from one square to every square in targets.
func emitFrom(list *MoveList, from Square, targets Bitboard) int {
	if list == nil {
		return targets.Count()
	}
	// (The count kept in a register: a store to list.n per move would
	// make each move wait for the one before.)
	n := list.n
	for ; targets != 0; targets &= targets - 1 {
		list.moves[uint8(n)] = newMove(from, targets.First())
		n++
	}
	list.n = n
	return 0
}

// emitPawns adds moves to every square in targets from the square delta
// below it (delta is to minus from).
func emitPawns(list *MoveList, targets Bitboard, delta int) int {
	if list == nil {
		return targets.Count()
	}
	n := list.n
	for ; targets != 0; targets &= targets - 1 {
		to := targets.First()
		list.moves[uint8(n)] = newMove(to-Square(delta), to)
		n++
	}
	list.n = n
	return 0
}

func emitPromotions(list *MoveList, targets Bitboard, delta int) int {
	if list == nil {
		return 4 * targets.Count()
	}
	for ; targets != 0; targets &= targets - 1 {
		to := targets.First()
		from := to - Square(delta)
		list.add(newPromotion(from, to, Queen))
		list.add(newPromotion(from, to, Knight))
		list.add(newPromotion(from, to, Rook))
		list.add(newPromotion(from, to, Bishop))
	}
	return 0
}

// gen lists (or counts, list == nil) the legal moves of the pieces on
// from whose destination is in dest: allSquares, or the opponent's pieces
// for the captures.
func (p *Position) gen(list *MoveList, from, dest Bitboard) int {
	us := p.side
	them := us ^ 1
	occ := p.byType[0]
	own := p.byColor[us]
	opp := p.byColor[them]
	ksq := p.kingSq[us]
	oppRQ := (p.byType[Rook] | p.byType[Queen]) & opp
	oppBQ := (p.byType[Bishop] | p.byType[Queen]) & opp

	// Squares the opponent attacks, with our king lifted so that it cannot
	// hide behind itself from a slider. Only the king's square, those it
	// steps to and, with a castling right, its rank are ever asked about:
	// a slider whose lines miss them is not looked up. Without the king
	// among the pieces asked for (GenerateFrom), only the checks count.
	occNoK := occ &^ ksq.Bitboard()
	var danger, checkers Bitboard
	n := 0
	if from.Has(ksq) {
		danger = pawnAttackSet(them, p.byType[Pawn]&opp) | kingAttacks[p.kingSq[them]]
		for b := p.byType[Knight] & opp; b != 0; b &= b - 1 {
			danger |= knightAttacks[b.First()]
		}
		zone := kingAttacks[ksq] | ksq.Bitboard()
		if p.castle&((WhiteHSide|WhiteASide)<<(2*us)) != 0 {
			zone |= Rank1 << (uint(ksq) &^ 7)
		}
		for b := oppBQ; b != 0; b &= b - 1 {
			if s := b.First(); bishopRays[s]&zone != 0 {
				danger |= BishopAttacks(s, occNoK)
			}
		}
		for b := oppRQ; b != 0; b &= b - 1 {
			if s := b.First(); rookRays[s]&zone != 0 {
				danger |= RookAttacks(s, occNoK)
			}
		}
		n = emitFrom(list, ksq, kingAttacks[ksq]&^own&^danger&dest)
		if danger.Has(ksq) {
			checkers = p.attackersTo(ksq, occ) & opp
		}
	} else {
		checkers = p.attackersTo(ksq, occ) & opp
	}

	checkMask := ^Bitboard(0)
	inCheck := checkers != 0
	if inCheck {
		if checkers.More() {
			return n // double check: only the king may move
		}
		checkMask = betweenBB[ksq][checkers.First()] | checkers
	}

	// Pinned pieces: our single blockers between the king and an enemy slider.
	var pinned Bitboard
	var snipers Bitboard
	if rookRays[ksq]&oppRQ != 0 {
		snipers = RookAttacks(ksq, opp) & oppRQ
	}
	if bishopRays[ksq]&oppBQ != 0 {
		snipers |= BishopAttacks(ksq, opp) & oppBQ
	}
	for ; snipers != 0; snipers &= snipers - 1 {
		b := betweenBB[ksq][snipers.First()] & occ
		if b&(b-1) == 0 && b&own != 0 {
			pinned |= b
		}
	}
	if inCheck {
		// A pinned piece can never answer a check: it cannot leave its line.
		own &^= pinned
	}
	checkMask &= dest
	target := ^p.byColor[us] & checkMask
	own &= from

	for b := p.byType[Knight] & own &^ pinned; b != 0; b &= b - 1 {
		from := b.First()
		n += emitFrom(list, from, knightAttacks[from]&target)
	}
	for b := (p.byType[Bishop] | p.byType[Queen]) & own; b != 0; b &= b - 1 {
		from := b.First()
		t := BishopAttacks(from, occ) & target
		if pinned.Has(from) {
			t &= lineBB[ksq][from]
		}
		n += emitFrom(list, from, t)
	}
	for b := (p.byType[Rook] | p.byType[Queen]) & own; b != 0; b &= b - 1 {
		from := b.First()
		t := RookAttacks(from, occ) & target
		if pinned.Has(from) {
			t &= lineBB[ksq][from]
		}
		n += emitFrom(list, from, t)
	}

	n += p.genPawns(list, own&p.byType[Pawn], pinned, opp, checkMask)

	if p.ep != NoSquare && dest.Has(p.ep) {
		for b := pawnAttacks[them][p.ep] & own & p.byType[Pawn]; b != 0; b &= b - 1 {
			from := b.First()
			if p.epLegal(from, p.ep, us) {
				if list == nil {
					n++
				} else {
					list.add(newEnPassant(from, p.ep))
				}
			}
		}
	}

	if !inCheck && dest == allSquares && from.Has(ksq) && p.castle&((WhiteHSide|WhiteASide)<<(2*us)) != 0 {
		for i := 2 * int(us); i < 2*int(us)+2; i++ {
			if p.castle&(1<<i) == 0 {
				continue
			}
			rf := p.castleRook[i]
			if empty, path := castlingSquares(i, ksq, rf); empty&occ != 0 || path&danger != 0 {
				continue
			}
			if p.chess960 {
				// The castling rook may have shielded the king's destination
				// from a slider along the back rank.
				kto := Square(int(ksq)&^7 + 6)
				if i&1 == 1 {
					kto = Square(int(ksq)&^7 + 2)
				}
				if RookAttacks(kto, occNoK&^rf.Bitboard())&oppRQ != 0 {
					continue
				}
			}
			if list == nil {
				n++
			} else {
				list.add(newCastling(ksq, rf))
			}
		}
	}
	return n
}

func (p *Position) genPawns(list *MoveList, pawns, pinned, opp, checkMask Bitboard) int {
	us := p.side
	ksq := p.kingSq[us]
	empty := ^p.byType[0]
	free := pawns &^ pinned
	n := 0
	var up int
	var push1, push2, capL, capR, lastRank Bitboard
	if us == White {
		up = 8
		lastRank = Rank8
		push1 = free << 8 & empty
		push2 = (push1 & Rank3) << 8 & empty & checkMask
		capL = (free &^ FileA) << 7 & opp & checkMask
		capR = (free &^ FileH) << 9 & opp & checkMask
	} else {
		up = -8
		lastRank = Rank1
		push1 = free >> 8 & empty
		push2 = (push1 & Rank6) >> 8 & empty & checkMask
		capL = (free &^ FileA) >> 9 & opp & checkMask
		capR = (free &^ FileH) >> 7 & opp & checkMask
	}
	push1 &= checkMask
	n += emitPawns(list, push1&^lastRank, up)
	n += emitPawns(list, push2, 2*up)
	n += emitPawns(list, capL&^lastRank, up-1)
	n += emitPawns(list, capR&^lastRank, up+1)
	if (push1|capL|capR)&lastRank != 0 {
		n += emitPromotions(list, push1&lastRank, up)
		n += emitPromotions(list, capL&lastRank, up-1)
		n += emitPromotions(list, capR&lastRank, up+1)
	}

	// Pinned pawns, one at a time: they may move only along the pin line.
	for b := pawns & pinned; b != 0; b &= b - 1 {
		from := b.First()
		line := lineBB[ksq][from]
		var t Bitboard
		to := from + Square(up)
		if empty.Has(to) {
			t |= to.Bitboard()
			if (us == White && from.Rank() == 1 || us == Black && from.Rank() == 6) && empty.Has(to+Square(up)) {
				t |= (to + Square(up)).Bitboard()
			}
		}
		t |= pawnAttacks[us][from] & opp
		t &= line & checkMask
		if t&lastRank != 0 {
			for ; t != 0; t &= t - 1 {
				to := t.First()
				if list == nil {
					n += 4
					continue
				}
				list.add(newPromotion(from, to, Queen))
				list.add(newPromotion(from, to, Knight))
				list.add(newPromotion(from, to, Rook))
				list.add(newPromotion(from, to, Bishop))
			}
			continue
		}
		n += emitFrom(list, from, t)
	}
	return n
}
