package chess

// Zobrist keys, from a fixed seed so that keys are stable across runs (the
// journal and tests may store them). Read-only after init.
var (
	zobPiece  [16][64]uint64
	zobCastle [16]uint64
	zobEP     [8]uint64
	zobSide   uint64
)

func init() {
	rng := xorshift64(0x2545f4914f6cdd1d)
	for p := range zobPiece {
		for s := range zobPiece[p] {
			zobPiece[p][s] = rng.next()
		}
	}
	// zobCastle[0] stays 0 so that a position without rights needs no term.
	for i := 1; i < len(zobCastle); i++ {
		zobCastle[i] = rng.next()
	}
	for i := range zobEP {
		zobEP[i] = rng.next()
	}
	zobSide = rng.next()
}
