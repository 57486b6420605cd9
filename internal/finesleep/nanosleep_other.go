//go:build !linux

package finesleep

import "time"

func nanosleep(d time.Duration) { time.Sleep(d) }
