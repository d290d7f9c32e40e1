//go:build race

package race

// Enabled reports whether the tests were built with the race detector.
const Enabled = true
