package expr

import "strconv"

// appendText appends the canonical text of n: `x`, then one suffix per
// operation: `[a, b:c, ::-1, None, ...]`, `[()]` for an empty index,
// `.T`, `.transpose(2, 0, 1)`, `.reshape(4, -1)`, `.reshape(())`.
func (n *node) appendText(b []byte) []byte {
	if n.x == nil {
		return append(b, 'x')
	}
	b = n.x.appendText(b)
	switch n.op {
	case opIndex:
		if len(n.items) == 0 {
			return append(b, "[()]"...)
		}
		b = append(b, '[')
		for i, it := range n.items {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = it.appendText(b)
		}
		return append(b, ']')
	case opTranspose:
		if n.ints == nil {
			return append(b, ".T"...)
		}
		return appendInts(append(b, ".transpose("...), n.ints)
	default:
		if len(n.ints) == 0 {
			return append(b, ".reshape(())"...)
		}
		return appendInts(append(b, ".reshape("...), n.ints)
	}
}

func appendInts(b []byte, xs []int) []byte {
	for i, v := range xs {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = strconv.AppendInt(b, int64(v), 10)
	}
	return append(b, ')')
}
