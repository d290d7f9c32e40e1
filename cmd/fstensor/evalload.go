package main

import (
	"fmt"
	"os"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/codec/npy"
	"github.com/fstensor/fstensor/expr"
)

// maxLoadBytes bounds the data of one constant of load("W.npy").
const maxLoadBytes = 256 << 20

// loadNPY reads the constant of load(name) in an expression: the .npy
// file name (relative to the working directory), one array of any shape
// and numeric type, of at most maxLoadBytes of data. Its errors wrap
// arrow.ErrInvalid.
func loadNPY(name string) (expr.Const, error) {
	f, err := os.Open(name)
	if err != nil {
		return expr.Const{}, fmt.Errorf("%w: %w", arrow.ErrInvalid, err)
	}
	defer f.Close()
	c, err := npy.ReadConst(f, npy.WithAllocator(mem), npy.WithMaxDataSize(maxLoadBytes))
	if err != nil {
		return expr.Const{}, fmt.Errorf("%w: %s: %w", arrow.ErrInvalid, name, err)
	}
	return c, nil
}
