package stride_test

import (
	"testing"

	"github.com/fstensor/fstensor/stride"
)

// decodeShape turns fuzz bytes into a small shape and strides: rank up to 6,
// dims 0..5, strides -4..123.
func decodeShape(data []byte) (shape, strides []int) {
	if len(data) == 0 {
		return nil, nil
	}
	rank := int(data[0]) % 7
	data = data[1:]
	for i := 0; i < rank && len(data) >= 2; i++ {
		shape = append(shape, int(data[0])%6)
		strides = append(strides, int(data[1])%128-4)
		data = data[2:]
	}
	return shape, strides
}

// FuzzDense checks the inverse problem: Dense never panics, and when it
// accepts strides they address every element exactly once and agree with
// Logical on the axes that move.
func FuzzDense(f *testing.F) {
	f.Add([]byte{3, 2, 12, 3, 4, 4, 1})  // C order 2x3x4 (strides +4)
	f.Add([]byte{3, 2, 5, 3, 6, 4, 10})  // F order
	f.Add([]byte{3, 2, 5, 3, 12, 4, 6})  // 3-cycle
	f.Add([]byte{2, 3, 10, 0, 4})        // size-0
	f.Add([]byte{3, 3, 8, 1, 200, 4, 5}) // unit axis with an odd stride
	f.Add([]byte{2, 2, 5, 2, 5})         // overlap
	f.Fuzz(func(t *testing.T, data []byte) {
		shape, strides := decodeShape(data)
		perm, ok := stride.Dense(shape, strides)
		if !ok {
			return
		}
		if err := stride.CheckPermutation(perm); err != nil || len(perm) != len(shape) {
			t.Fatalf("Dense(%v, %v) = %v: not a permutation of the axes", shape, strides, perm)
		}
		n, _ := stride.NumElements(shape)
		if n == 0 {
			return
		}
		derived := stride.Logical(nil, shape, perm)
		for i := range shape {
			if shape[i] != 1 && derived[i] != strides[i] {
				t.Fatalf("Dense(%v, %v) = %v, but Logical gives %v", shape, strides, perm, derived)
			}
		}
		if msg := checkBijection(shape, perm); msg != "" {
			t.Fatalf("Dense(%v, %v) = %v: %s", shape, strides, perm, msg)
		}
	})
}

// FuzzBijection checks the bijection property for shapes and permutations
// beyond the exhaustive test's range.
func FuzzBijection(f *testing.F) {
	f.Add([]byte{3, 2, 0, 3, 0, 4, 0}, uint64(5))
	f.Add([]byte{4, 5, 0, 1, 0, 4, 0, 2, 0}, uint64(17))
	f.Add([]byte{0}, uint64(0))
	f.Fuzz(func(t *testing.T, data []byte, seed uint64) {
		shape, _ := decodeShape(data)
		// A permutation from the seed (Lehmer code).
		avail := stride.Identity(nil, len(shape))
		perm := make([]int, 0, len(shape))
		for len(avail) > 0 {
			k := int(seed % uint64(len(avail)))
			seed /= uint64(len(avail))
			perm = append(perm, avail[k])
			avail = append(avail[:k], avail[k+1:]...)
		}
		if msg := checkBijection(shape, perm); msg != "" {
			t.Fatalf("shape %v perm %v: %s", shape, perm, msg)
		}
		phys := stride.PhysicalShape(nil, shape, perm)
		back := stride.LogicalShape(nil, phys, perm)
		for i := range shape {
			if back[i] != shape[i] {
				t.Fatalf("LogicalShape(PhysicalShape(%v, %v)) = %v", shape, perm, back)
			}
		}
	})
}
