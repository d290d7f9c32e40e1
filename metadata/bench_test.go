package metadata_test

import (
	"testing"

	"github.com/fstensor/fstensor/metadata"
)

var benchJSON = []byte(`{"shape":[3,224,224],"permutation":[1,2,0],"dim_names":["C","H","W"]}`)

func BenchmarkJSON(b *testing.B) {
	m, err := metadata.Parse(benchJSON)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("op=parse/shape=3x224x224", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(benchJSON)))
		for b.Loop() {
			if _, err := metadata.Parse(benchJSON); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("op=serialize/shape=3x224x224", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(benchJSON)))
		buf := make([]byte, 0, 128)
		for b.Loop() {
			buf = m.AppendJSON(buf[:0])
		}
	})
}
