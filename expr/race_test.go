//go:build race

package expr_test

// raceEnabled reports a build with the race detector, under which
// sync.Pool drops items at random: allocation counts mean nothing there.
const raceEnabled = true
