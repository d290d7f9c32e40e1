//go:build race

package parquetconv_test

// corruptStride is the step between the bytes the corruption tests
// change: under the race detector, which runs them 5-10x slower and
// checks concurrency rather than coverage, every seventh byte; the plain
// run changes every byte.
const corruptStride = 7
