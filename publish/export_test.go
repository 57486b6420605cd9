package publish

// Crash abandons the Publisher as a kill -9 would: the journal file is
// closed (so the same process can open it again) but nothing is saved.
func (p *Publisher) Crash() { p.j.Close() }

// RotateJournal starts a new journal segment, as StartGame does before
// it writes the game record.
func (p *Publisher) RotateJournal() error { return p.j.Rotate() }
