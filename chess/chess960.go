package chess

import "fmt"

// Chess960Start returns Chess960 start position number n (0-959) in the
// standard numbering, where 518 is the standard start position.
func Chess960Start(n int) (*Position, error) {
	rank, err := Chess960BackRank(n)
	if err != nil {
		return nil, err
	}
	fen := fmt.Sprintf("%s/pppppppp/8/8/8/8/PPPPPPPP/%s w KQkq - 0 1", toLower(rank), rank)
	p, err := ParseFEN(fen)
	if err != nil {
		return nil, fmt.Errorf("chess960 position %d: %w", n, err)
	}
	p.chess960 = true
	return p, nil
}

// Chess960BackRank returns White's back rank of start position n (0-959),
// as upper-case piece letters from a to h.
func Chess960BackRank(n int) (string, error) {
	if n < 0 || n > 959 {
		return "", fmt.Errorf("chess960 position %d: want 0 to 959", n)
	}
	var rank [8]byte
	rank[n%4*2+1] = 'B' // light-squared bishop: b, d, f or h
	n /= 4
	rank[n%4*2] = 'B' // dark-squared bishop: a, c, e or g
	n /= 4
	placeNth(&rank, n%6, 'Q')
	n /= 6
	knights := [10][2]int{{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}}[n]
	// Place the second knight first so the first one's index is unaffected.
	placeNth(&rank, knights[1], 'N')
	placeNth(&rank, knights[0], 'N')
	placeNth(&rank, 0, 'R')
	placeNth(&rank, 0, 'K')
	placeNth(&rank, 0, 'R')
	return string(rank[:]), nil
}

// Chess960Number returns the start position number of a back rank (upper-case
// letters a to h), or -1 if it is not a Chess960 start.
func Chess960Number(backRank string) int {
	for n := 0; n < 960; n++ {
		if r, _ := Chess960BackRank(n); r == backRank {
			return n
		}
	}
	return -1
}

func placeNth(rank *[8]byte, nth int, piece byte) {
	for i := range rank {
		if rank[i] != 0 {
			continue
		}
		if nth == 0 {
			rank[i] = piece
			return
		}
		nth--
	}
}

func toLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
