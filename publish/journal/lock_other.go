//go:build !unix

package journal

import "os"

// lockDir is a no-op where flock is not available.
func lockDir(dir string) (*os.File, error) { return nil, nil }
