//go:build !purego

package numeric

import "unsafe"

// Implemented in binary_amd64.s: each handles n elements, a multiple of
// 8, n > 0.
//
//go:noescape
func addF32x8to(d, a, b unsafe.Pointer, n int)

//go:noescape
func subF32x8to(d, a, b unsafe.Pointer, n int)

//go:noescape
func mulF32x8to(d, a, b unsafe.Pointer, n int)

//go:noescape
func divF32x8to(d, a, b unsafe.Pointer, n int)

//go:noescape
func rsubF32x8to(d, a, b unsafe.Pointer, n int)

//go:noescape
func rdivF32x8to(d, a, b unsafe.Pointer, n int)

//go:noescape
func maxF32x8to(d, a, b unsafe.Pointer, n int)

//go:noescape
func minF32x8to(d, a, b unsafe.Pointer, n int)

//go:noescape
func addScalarF32x8to(d, a unsafe.Pointer, n int, c float32)

//go:noescape
func subScalarF32x8to(d, a unsafe.Pointer, n int, c float32)

//go:noescape
func mulScalarF32x8to(d, a unsafe.Pointer, n int, c float32)

//go:noescape
func divScalarF32x8to(d, a unsafe.Pointer, n int, c float32)

//go:noescape
func rsubScalarF32x8to(d, a unsafe.Pointer, n int, c float32)

//go:noescape
func rdivScalarF32x8to(d, a unsafe.Pointer, n int, c float32)

//go:noescape
func maxScalarF32x8to(d, a unsafe.Pointer, n int, c float32)

//go:noescape
func minScalarF32x8to(d, a unsafe.Pointer, n int, c float32)

//go:noescape
func addF32x8nt(d, a, b unsafe.Pointer, n int)

//go:noescape
func subF32x8nt(d, a, b unsafe.Pointer, n int)

//go:noescape
func mulF32x8nt(d, a, b unsafe.Pointer, n int)

//go:noescape
func divF32x8nt(d, a, b unsafe.Pointer, n int)

//go:noescape
func rsubF32x8nt(d, a, b unsafe.Pointer, n int)

//go:noescape
func rdivF32x8nt(d, a, b unsafe.Pointer, n int)

//go:noescape
func addScalarF32x8nt(d, a unsafe.Pointer, n int, c float32)

//go:noescape
func subScalarF32x8nt(d, a unsafe.Pointer, n int, c float32)

//go:noescape
func mulScalarF32x8nt(d, a unsafe.Pointer, n int, c float32)

//go:noescape
func divScalarF32x8nt(d, a unsafe.Pointer, n int, c float32)

//go:noescape
func rsubScalarF32x8nt(d, a unsafe.Pointer, n int, c float32)

//go:noescape
func rdivScalarF32x8nt(d, a unsafe.Pointer, n int, c float32)

var binaryNTKernels = [...]func(d, a, b unsafe.Pointer, n int){
	Add: addF32x8nt, Sub: subF32x8nt, Mul: mulF32x8nt, Div: divF32x8nt, RSub: rsubF32x8nt, RDiv: rdivF32x8nt,
}

var binaryScalarNTKernels = [...]func(d, a unsafe.Pointer, n int, c float32){
	Add: addScalarF32x8nt, Sub: subScalarF32x8nt, Mul: mulScalarF32x8nt, Div: divScalarF32x8nt,
	RSub: rsubScalarF32x8nt, RDiv: rdivScalarF32x8nt,
}

var binaryKernels = [...]func(d, a, b unsafe.Pointer, n int){
	Add: addF32x8to, Sub: subF32x8to, Mul: mulF32x8to, Div: divF32x8to,
	RSub: rsubF32x8to, RDiv: rdivF32x8to, Max: maxF32x8to, Min: minF32x8to,
}

var binaryScalarKernels = [...]func(d, a unsafe.Pointer, n int, c float32){
	Add: addScalarF32x8to, Sub: subScalarF32x8to, Mul: mulScalarF32x8to, Div: divScalarF32x8to,
	RSub: rsubScalarF32x8to, RDiv: rdivScalarF32x8to, Max: maxScalarF32x8to, Min: minScalarF32x8to,
}

// aligned32 reports whether d starts on a 32-byte boundary, as the
// non-temporal stores need.
func aligned32(d []float32) bool { return uintptr(unsafe.Pointer(&d[0]))&31 == 0 }

func binaryF32(op Op, d, a, b []float32, stream bool) int {
	n := len(d) &^ 7
	if !useAVX2 || n == 0 || int(op) >= len(binaryKernels) {
		return 0
	}
	k := binaryKernels[op]
	if stream && int(op) < len(binaryNTKernels) && aligned32(d) {
		k = binaryNTKernels[op]
	}
	k(unsafe.Pointer(&d[0]), unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0]), n)
	return n
}

func binaryScalarF32(op Op, d, a []float32, c float32, stream bool) int {
	n := len(d) &^ 7
	if !useAVX2 || n == 0 || int(op) >= len(binaryScalarKernels) {
		return 0
	}
	k := binaryScalarKernels[op]
	if stream && int(op) < len(binaryScalarNTKernels) && aligned32(d) {
		k = binaryScalarNTKernels[op]
	}
	k(unsafe.Pointer(&d[0]), unsafe.Pointer(&a[0]), n, c)
	return n
}
