package hugepage_test

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/fstensor/fstensor/hugepage"
)

// Large Arrow buffers built on the allocator live on huge pages; small
// ones come from Go's heap as usual.
func ExampleNewAllocator() {
	mem, err := hugepage.NewAllocator()
	if err != nil {
		panic(err)
	}
	b := array.NewFloat32Builder(mem)
	defer b.Release()
	for i := range 2 << 20 { // 8 MiB of values
		b.Append(float32(i))
	}
	arr := b.NewFloat32Array()
	fmt.Println(arr.Len(), arr.Value(arr.Len()-1))
	arr.Release() // gives the mapping back to the system
	n, _ := mem.Mapped()
	fmt.Println("mapped after release:", n)
	// Output:
	// 2097152 2.097151e+06
	// mapped after release: 0
}
