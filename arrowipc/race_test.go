//go:build race

package arrowipc_test

// raceEnabled reports a build with the race detector, under which
// sync.Pool drops items at random.
const raceEnabled = true
