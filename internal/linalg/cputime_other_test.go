//go:build !unix

package linalg_test

import "time"

// cpuTime returns 0: the process's CPU time is read on unix only.
func cpuTime() time.Duration { return 0 }
