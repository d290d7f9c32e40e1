package metadata_test

import (
	"fmt"

	"github.com/fstensor/fstensor/metadata"
)

// The Go API speaks the logical shape; the JSON Arrow stores is physical.
func Example() {
	// Images indexed as (H, W, C), stored channel-planar as (C, H, W).
	m, err := metadata.New([]int{32, 64, 3}, []string{"H", "W", "C"}, []int{1, 2, 0})
	if err != nil {
		panic(err)
	}
	fmt.Println("logical: ", metadata.FormatShape(m.Shape()), m.DimNames())
	fmt.Println("physical:", metadata.FormatShape(m.PhysicalShape()), m.PhysicalDimNames())
	fmt.Println("strides: ", m.ElemStrides())
	fmt.Printf("json:     %s\n", m.AppendJSON(nil))

	back, err := metadata.Parse([]byte(`{"shape":[3,32,64],"dim_names":["C","H","W"],"permutations":[1,2,0]}`))
	fmt.Println("arrow-rs form equal:", err == nil && back.Equal(m))
	// Output:
	// logical:  (32,64,3) [H W C]
	// physical: (3,32,64) [C H W]
	// strides:  [64 1 2048]
	// json:     {"shape":[3,32,64],"permutation":[1,2,0],"dim_names":["C","H","W"]}
	// arrow-rs form equal: true
}

func ExampleParseShape() {
	for _, s := range []string{"(3,4)", "[2, 5]", "(7,)", "()", "(-1,2)"} {
		shape, err := metadata.ParseShape(s)
		fmt.Println(shape, err != nil)
	}
	// Output:
	// [3 4] false
	// [2 5] false
	// [7] false
	// [] false
	// [] true
}
