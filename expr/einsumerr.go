package expr

import (
	"slices"
	"strconv"
	"strings"

	"github.com/fstensor/fstensor/expr/internal/engine"
	"github.com/fstensor/fstensor/metadata"
)

// einsumBroadcastMsg is NumPy's error for einsum operands whose sizes of
// one subscript differ (neither 1): the shape of each operand and its
// shape remapped to the iteration axes, the output's subscripts then the
// summed ones in character order, each missing subscript a newaxis and
// the leading ones dropped, as NumPy's iterator prints them. ins are the
// subscripts of the operands ns, out the output's.
func einsumBroadcastMsg(ins []string, out string, ns []*engine.Node) string {
	var summed []byte
	for _, s := range ins {
		for _, c := range []byte(s) {
			if !strings.ContainsRune(out, rune(c)) && !slices.Contains(summed, c) {
				summed = append(summed, c)
			}
		}
	}
	slices.Sort(summed)
	iter := out + string(summed)
	var b strings.Builder
	b.WriteString("operands could not be broadcast together with remapped shapes [original->remapped]: ")
	for i, s := range ins {
		shape := ns[i].Shape
		b.WriteString(metadata.FormatShape(shape))
		b.WriteString("->(")
		started := false
		for _, c := range []byte(iter) {
			j := strings.IndexByte(s, c)
			if j < 0 && !started {
				continue
			}
			if started {
				b.WriteByte(',')
			}
			started = true
			if j < 0 {
				b.WriteString("newaxis")
			} else {
				b.WriteString(strconv.Itoa(shape[j]))
			}
		}
		b.WriteString(") ")
	}
	return b.String()
}
