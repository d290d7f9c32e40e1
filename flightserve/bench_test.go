package flightserve_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/flightserve"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/tensorio"
)

// benchFile writes an IPC file of size bytes of float32 (64,64) tensors
// in batches of 1024 (16 MiB) and returns its path.
func benchFile(b *testing.B, dir string, size int) string {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{64, 64}, nil, nil))
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: typ, Nullable: true}}, nil)
	path := filepath.Join(dir, fmt.Sprintf("bench%d.arrow", size))
	w, err := tensorio.Create(path, schema)
	if err != nil {
		b.Fatal(err)
	}
	defer w.Abort()
	const rows = 1024
	data := make([]float32, rows*64*64)
	for i := range data {
		data[i] = float32(i)
	}
	for n := 0; n < size; n += rows * 64 * 64 * 4 {
		a, err := fixedshape.FromSlice(typ, data, nil)
		if err != nil {
			b.Fatal(err)
		}
		rec := array.NewRecordBatch(schema, []arrow.Array{a}, rows)
		a.Release()
		err = w.Write(rec)
		rec.Release()
		if err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}

// drain reads r to its end and returns the bytes of its tensor buffers.
func drain(r array.RecordReader) (int64, error) {
	var n int64
	for r.Next() {
		n += int64(len(r.RecordBatch().Column(0).(*fixedshape.Array).ValueBytes()))
	}
	return n, r.Err()
}

// peakHeap samples the heap in use until stop is closed and returns the
// highest value seen, in bytes.
func peakHeap(stop <-chan struct{}) <-chan uint64 {
	out := make(chan uint64, 1)
	go func() {
		var peak uint64
		var ms runtime.MemStats
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			select {
			case <-stop:
				out <- peak
				return
			case <-t.C:
			}
		}
	}()
	return out
}

// BenchmarkDoGet: 16 clients, each on its own connection, fetch the
// whole file at once over loopback (impl=flight); the same 16 reads
// from the local file with tensorio (impl=local); copy() of the same
// bytes (impl=copy). Bytes are those of all 16 reads.
func BenchmarkDoGet(b *testing.B) {
	clients := 16
	if n, err := strconv.Atoi(os.Getenv("FLIGHT_CLIENTS")); err == nil {
		clients = n
	}
	for _, size := range []int{16 << 20, 256 << 20} {
		dir := b.TempDir()
		path := benchFile(b, dir, size)
		addr := ""
		b.Run(fmt.Sprintf("clients=%d/size=%dMiB/impl=flight", clients, size>>20), func(b *testing.B) {
			if addr == "" {
				addr = benchServe(b, dir)
			}
			cs := make([]*flightserve.Client, clients)
			for i := range cs {
				cs[i] = benchDial(b, addr)
			}
			stop := make(chan struct{})
			peak := peakHeap(stop)
			b.SetBytes(int64(clients) * int64(size))
			b.ReportAllocs()
			for b.Loop() {
				var wg sync.WaitGroup
				var fail atomic.Value
				for _, c := range cs {
					wg.Go(func() {
						r, err := c.Get(context.Background(), flightserve.Ticket{Path: filepath.Base(path)})
						if err == nil {
							_, err = drain(r)
							r.Release()
						}
						if err != nil {
							fail.Store(err)
						}
					})
				}
				wg.Wait()
				if err := fail.Load(); err != nil {
					b.Fatal(err)
				}
			}
			close(stop)
			b.ReportMetric(float64(<-peak)/(1<<20), "peak-heap-MiB")
		})
		b.Run(fmt.Sprintf("clients=%d/size=%dMiB/impl=local", clients, size>>20), func(b *testing.B) {
			b.SetBytes(int64(clients) * int64(size))
			b.ReportAllocs()
			for b.Loop() {
				inParallel(clients, func() {
					r, err := tensorio.Open(path)
					if err != nil {
						b.Error(err)
						return
					}
					if _, err := drain(r); err != nil {
						b.Error(err)
					}
					r.Release()
				})
			}
		})
		b.Run(fmt.Sprintf("clients=%d/size=%dMiB/impl=copy", clients, size>>20), func(b *testing.B) {
			src, dst := make([]byte, 16<<20), make([]byte, 16<<20)
			b.SetBytes(int64(clients) * int64(size))
			b.ReportAllocs()
			for b.Loop() {
				inParallel(clients, func() {
					for n := 0; n < size; n += len(src) {
						copy(dst, src)
					}
				})
			}
		})
		os.Remove(path)
	}
}

// inParallel runs f in n goroutines and waits for them.
func inParallel(n int, f func()) {
	var wg sync.WaitGroup
	for range n {
		wg.Go(f)
	}
	wg.Wait()
}

// BenchmarkSmall: one-row DoGet calls (16 KiB), one client at a time or
// 16 at once; reports the p50 and p99 latency of a call.
func BenchmarkSmall(b *testing.B) {
	dir := b.TempDir()
	path := benchFile(b, dir, 16<<20)
	addr := benchServe(b, dir)
	for _, clients := range []int{1, 16} {
		b.Run(fmt.Sprintf("clients=%d/rows=1/impl=flight", clients), func(b *testing.B) {
			cs := make([]*flightserve.Client, clients)
			for i := range cs {
				cs[i] = benchDial(b, addr)
			}
			var mu sync.Mutex
			var lat []time.Duration
			b.SetBytes(int64(clients) * 64 * 64 * 4)
			b.ReportAllocs()
			i := int64(0)
			for b.Loop() {
				var wg sync.WaitGroup
				for _, c := range cs {
					i++
					tk := flightserve.Ticket{Path: filepath.Base(path), Offset: i % 4096, Limit: 1}
					wg.Go(func() {
						start := time.Now()
						r, err := c.Get(context.Background(), tk)
						if err == nil {
							_, err = drain(r)
							r.Release()
						}
						d := time.Since(start)
						if err != nil {
							b.Error(err)
						}
						mu.Lock()
						lat = append(lat, d)
						mu.Unlock()
					})
				}
				wg.Wait()
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
		})
	}
}

func benchServe(b *testing.B, dir string) string {
	s, err := flightserve.New(flightserve.Config{Dir: dir, Allocator: memory.NewGoAllocator()})
	if err != nil {
		b.Fatal(err)
	}
	lis, err := listenLoopback()
	if err != nil {
		b.Fatal(err)
	}
	go s.Serve(lis)
	b.Cleanup(s.Stop)
	return lis.Addr().String()
}

func benchDial(b *testing.B, addr string) *flightserve.Client {
	c, err := flightserve.Dial(addr)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	return c
}
