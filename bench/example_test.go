package bench_test

import (
	"fmt"

	"github.com/fstensor/fstensor/bench"
)

func ExampleCases() {
	for _, c := range bench.Cases(bench.Large)[:3] {
		fmt.Printf("%s  %s  %s\n", c.Name(), c.Expr, c.NumPy)
	}
	// Output:
	// op=transpose/dtype=float32/shape=8192x64x64  x.T  np.ascontiguousarray(a.transpose(0, 2, 1))
	// op=transpose/dtype=float32/shape=32x1024x1024  x.T  np.ascontiguousarray(a.transpose(0, 2, 1))
	// op=nchw-nhwc/dtype=float32/shape=222x3x224x224  x.transpose(1, 2, 0)  np.ascontiguousarray(a.transpose(0, 2, 3, 1))
}

func ExampleParseSize() {
	sizes, err := bench.ParseSize("all")
	fmt.Println(sizes, err)
	_, err = bench.ParseSize("huge")
	fmt.Println(err)
	// Output:
	// [small large] <nil>
	// bench: size "huge" is not small, large or all
}

func ExamplePattern() {
	fmt.Println(bench.Pattern(0), bench.Pattern(65520), bench.Pattern(65521), bench.Pattern(65522))
	// Output: 0 65520 0 1
}
