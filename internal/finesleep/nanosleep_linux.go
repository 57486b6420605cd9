package finesleep

import (
	"errors"
	"syscall"
	"time"
)

// nanosleep blocks the calling thread in the kernel (the runtime hands
// its P to another thread meanwhile), resuming after a signal.
func nanosleep(d time.Duration) {
	ts := syscall.NsecToTimespec(int64(d))
	for {
		var left syscall.Timespec
		err := syscall.Nanosleep(&ts, &left)
		if !errors.Is(err, syscall.EINTR) {
			return
		}
		ts = left
	}
}
