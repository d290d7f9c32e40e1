package mmap_test

import (
	"fmt"
	"os"
	"testing"
)

// BenchmarkLeaseBreak measures how long a writer waits to truncate a
// leased, mapped file (in the page cache, on tmpfs where there is one):
// the time the mapping takes to become a copy. copy is a copy() of the
// same bytes into new memory.
func BenchmarkLeaseBreak(b *testing.B) {
	for _, mib := range []int{16, 256} {
		data := pattern(mib << 20)
		b.Run(fmt.Sprintf("size=%dMiB/op=break", mib), func(b *testing.B) {
			dir := shmDir(b)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				m, path := leased(b, dir, data)
				b.StartTimer()
				if err := os.Truncate(path, 0); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				m.Close()
				os.Remove(path)
				b.StartTimer()
			}
		})
		b.Run(fmt.Sprintf("size=%dMiB/op=copy", mib), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				dst := make([]byte, len(data))
				copy(dst, data)
			}
		})
	}
}
