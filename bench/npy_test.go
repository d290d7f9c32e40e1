package bench_test

import (
	"bytes"
	"testing"

	"github.com/fstensor/fstensor/codec/npy"
	"github.com/fstensor/fstensor/fixedshape"
)

// BenchmarkNPY times .npy column writes into memory (WriteColumn, one
// Write from the buffer) and reads from memory (ReadColumn copies;
// DecodeColumn is zero-copy over the bytes, so ns/op only), beside a
// copy() of the column's bytes.
func BenchmarkNPY(b *testing.B) {
	for _, s := range sizes(b) {
		rec, n := ioRecord(b, s, 1)
		arr := rec.Column(0).(*fixedshape.Array)
		var buf bytes.Buffer
		must(b, npy.WriteColumn(&buf, arr))
		b.Run(ioName("npy-write", rec)+"/impl=npy", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(n))
			for b.Loop() {
				buf.Reset()
				must(b, npy.WriteColumn(&buf, arr))
			}
		})
		data := bytes.Clone(buf.Bytes())
		buf = bytes.Buffer{}
		b.Run(ioName("npy-read", rec)+"/impl=npy", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(n))
			for b.Loop() {
				out, err := npy.ReadColumn(bytes.NewReader(data))
				must(b, err)
				out.Release()
			}
		})
		b.Run(ioName("npy-decode", rec)+"/impl=npy", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				out, err := npy.DecodeColumn(data)
				must(b, err)
				out.Release()
			}
		})
		copyBaseline(b, ioName("npy", rec), make([]byte, n), arr.ValueBytes(), n)
		rec.Release()
	}
}
