package rules

// ArbiterResult reads a result an arbiter enters: "1-0", "0-1",
// "1/2-1/2", or the forfeits "+/-" (White wins) and "-/+" (Black wins).
// pgn is the PGN result it gives; ok is false for anything else.
func ArbiterResult(s string) (pgn string, forfeit, ok bool) {
	switch s {
	case "1-0", "0-1", "1/2-1/2":
		return s, false, true
	case "+/-":
		return "1-0", true, true
	case "-/+":
		return "0-1", true, true
	}
	return "", false, false
}

// ArbiterResults lists what ArbiterResult reads, for messages.
const ArbiterResults = "1-0, 0-1, 1/2-1/2, +/- or -/+"
