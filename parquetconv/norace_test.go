//go:build !race

package parquetconv_test

// corruptStride is the step between the bytes the corruption tests
// change (see race_test.go).
const corruptStride = 1
