// Package testsupport holds no code: its sub-packages support the tests
// and are imported by _test.go files and development commands only.
//
// # Overview
//
// They are the only packages under internal/ that import the tensor
// packages (fixedshape, varshape, metadata); the rest of internal/ holds
// leaf helpers and kernels that the tensor packages import. Nothing in a
// library package or in cmd/fstensor may import them.
//
//   - testvec loads the conformance vectors under testdata/ for table
//     tests and builds the columns and records the tests share.
//   - gensamples is the command that writes the sample IPC files of
//     testdata/ (go run ./internal/testsupport/gensamples).
package testsupport
