package parquetconv_test

// Encoders of the RLE/bit-packed hybrid for crafted level and index
// streams.

// hyRLE returns an RLE run of n copies of v, width bits each.
func hyRLE(n int, v uint64, width int) []byte {
	b := hyUvarint(nil, uint64(n)<<1)
	for i := range (width + 7) / 8 {
		b = append(b, byte(v>>(8*i)))
	}
	return b
}

// hyPacked returns a bit-packed run of vals (padded with zeros to a
// multiple of 8), width bits each.
func hyPacked(vals []uint64, width int) []byte {
	groups := (len(vals) + 7) / 8
	b := hyUvarint(nil, uint64(groups)<<1|1)
	packed := make([]byte, groups*width)
	for i, v := range vals {
		for k := range width {
			if v>>k&1 != 0 {
				bit := i*width + k
				packed[bit/8] |= 1 << (bit % 8)
			}
		}
	}
	return append(b, packed...)
}

func hyUvarint(b []byte, x uint64) []byte {
	for x >= 0x80 {
		b = append(b, byte(x)|0x80)
		x >>= 7
	}
	return append(b, byte(x))
}

// hyCat concatenates runs.
func hyCat(runs ...[]byte) []byte {
	var b []byte
	for _, r := range runs {
		b = append(b, r...)
	}
	return b
}

// hyRep returns the repetition levels of rows rows of n elements.
func hyRep(rows, n int) []uint64 {
	var v []uint64
	for range rows {
		v = append(v, 0)
		for range n - 1 {
			v = append(v, 1)
		}
	}
	return v
}
