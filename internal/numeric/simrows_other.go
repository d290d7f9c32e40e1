//go:build !amd64 || purego

package numeric

// The pure-Go build never calls these: useAVX2 is false.

func dotRowsF32x32(x *float32, stride int, q *float32, n, rows int, out *float32) {
	panic("numeric: no assembly")
}

func sqL2RowsF32x32(x *float32, stride int, q *float32, n, rows int, out *float32) {
	panic("numeric: no assembly")
}

func dotRowsF32x32Z(x *float32, stride int, q *float32, n, rows int, out *float32) {
	panic("numeric: no assembly")
}

func sqL2RowsF32x32Z(x *float32, stride int, q *float32, n, rows int, out *float32) {
	panic("numeric: no assembly")
}
