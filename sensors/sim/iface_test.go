package sim

import "github.com/boardd/boardd/sensors"

// The simulated board drives a sensors.Replayer like a recorded trace.
var (
	_ sensors.EventReader = (*EventReader)(nil)
	_ sensors.EventReader = (*LoopReader)(nil)
)
