package expr

import "github.com/fstensor/fstensor/internal/numeric"

// maxU8Channels bounds the kept inner elements (the channels of an HWC
// image) whose byte sums runBlocked takes in one pass over a tensor's
// run with numeric.SumU8Periodic.
const maxU8Channels = 32

// sumU8Channels sets wi[c] to the exact sum of the bytes of x at
// positions c, c+len(wi), c+2*len(wi), ... (x starting on channel 0;
// len(wi) at most maxU8Channels), the totals runBlocked's chunks leave in
// w.wi for foldWide.
func sumU8Channels(wi []int64, x []uint8) {
	var s [maxU8Channels]uint64
	tot := s[:len(wi)]
	numeric.SumU8Periodic(tot, x)
	for c, v := range tot {
		wi[c] = int64(v)
	}
}
