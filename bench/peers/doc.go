// Package peers benchmarks fstensor against the Go libraries a user could
// pick instead (gonum.org/v1/gonum/mat, gorgonia.org/tensor) on the cases of
// package bench. It is a separate module so that the library's go.mod stays
// lean.
package peers
