package stride_test

import (
	"fmt"

	"github.com/fstensor/fstensor/stride"
)

// The element strides of a permuted tensor, and the permutation recovered
// from strides as NumPy or DLPack report them.
func Example() {
	logical := []int{2, 3, 4}
	perm := []int{2, 0, 1}
	fmt.Println("physical shape:", stride.PhysicalShape(nil, logical, perm))
	strides := stride.Logical(nil, logical, perm)
	fmt.Println("element strides:", strides)

	p, ok := stride.Dense(logical, strides)
	fmt.Println("dense:", ok, "permutation:", p)

	_, ok = stride.Dense([]int{3, 4}, []int{8, 1}) // every other row
	fmt.Println("gapped rows dense:", ok)
	// Output:
	// physical shape: [3 4 2]
	// element strides: [1 8 2]
	// dense: true permutation: [2 0 1]
	// gapped rows dense: false
}
