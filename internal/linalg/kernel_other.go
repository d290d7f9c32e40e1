//go:build !amd64 || purego

package linalg

// The pure-Go build never calls these: useAsm is false.

func kern6x16F32(a *float32, lda int, b *float32, ldb int, kc int, c *float32, ldc int, acc bool) {
	panic("linalg: no assembly")
}

func kern6x8F64(a *float64, lda int, b *float64, ldb int, kc int, c *float64, ldc int, acc bool) {
	panic("linalg: no assembly")
}

func kern6x32F32Z(a *float32, lda int, b *float32, ldb int, kc int, c *float32, ldc int, acc bool) {
	panic("linalg: no assembly")
}

func kern6x16F64Z(a *float64, lda int, b *float64, ldb int, kc int, c *float64, ldc int, acc bool) {
	panic("linalg: no assembly")
}
