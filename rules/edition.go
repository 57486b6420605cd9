package rules

import (
	"fmt"
	"strings"
)

// Edition is an edition of the FIDE Laws of Chess. Article numbers differ
// between editions (the 2018 edition's 7.5 is 7.4 in 1997, its Appendix A
// and B are Appendix B and C there), so every verdict names its edition.
type Edition int

// The editions boardd knows.
const (
	Edition1997 Edition = 1997 // adopted 1996, in force 1 July 1997
	Edition2018 Edition = 2018 // in force 1 January 2018
	Edition2023 Edition = 2023 // in force 1 January 2023
)

// Editions lists the known editions, oldest first.
var Editions = [...]Edition{Edition1997, Edition2018, Edition2023}

// String is the year, e.g. "2018".
func (e Edition) String() string { return fmt.Sprintf("%d", int(e)) }

// Valid reports whether e is one of the known editions.
func (e Edition) Valid() bool {
	return e == Edition1997 || e == Edition2018 || e == Edition2023
}

// ParseEdition reads an edition year ("1997", "2018", "2023").
func ParseEdition(s string) (Edition, error) {
	for _, e := range Editions {
		if strings.TrimSpace(s) == e.String() {
			return e, nil
		}
	}
	return 0, fmt.Errorf("FIDE edition %q: want 1997, 2018 or 2023", s)
}

// GameType is the kind of game by its thinking time: the Laws' standard
// (competition) rules, rapid or blitz. The boundaries depend on the edition
// (TimeControl.Classify).
type GameType int

// The game types.
const (
	Standard GameType = iota
	Rapid
	Blitz
)

// String is "standard", "rapid" or "blitz".
func (g GameType) String() string {
	switch g {
	case Standard:
		return "standard"
	case Rapid:
		return "rapid"
	case Blitz:
		return "blitz"
	}
	return fmt.Sprintf("GameType(%d)", int(g))
}

// ParseGameType reads "standard", "rapid" or "blitz".
func ParseGameType(s string) (GameType, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "standard":
		return Standard, nil
	case "rapid":
		return Rapid, nil
	case "blitz":
		return Blitz, nil
	}
	return 0, fmt.Errorf("game type %q: want standard, rapid or blitz", s)
}
