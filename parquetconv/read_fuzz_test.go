package parquetconv_test

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/parquetconv"
)

// FuzzReader feeds arbitrary bytes to the reader under small limits: it
// must return errors wrapping arrow.ErrInvalid, never panic, hand out
// only valid tensor columns, and leave nothing allocated. Seeds: small
// files of the writer (plain, v2 with zstd and null tensors, byte stream
// split with snappy), plus testdata/fuzz/FuzzReader (pyarrow files with
// dictionary pages). Fuzz with -fuzzminimizetime 1x (see README's
// Fuzzing): minimizing inputs of kilobytes stalls the fuzzer.
func FuzzReader(f *testing.F) {
	rec := testRecord(f, memory.NewGoAllocator(), 4, true)
	defer rec.Release()
	for _, opts := range [][]parquetconv.Option{
		nil,
		{parquetconv.WithDataPageV2(), parquetconv.WithCompression(parquetconv.ZSTD), parquetconv.WithRowGroupRows(2)},
		{parquetconv.WithByteStreamSplit(), parquetconv.WithCompression(parquetconv.Snappy)},
	} {
		f.Add(writeFile(f, rec.Schema(), []arrow.RecordBatch{rec}, opts...))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		err := readAll(mem, data, parquetconv.WithMaxPageBytes(1<<20), parquetconv.WithMaxChunkBytes(1<<20), parquetconv.WithWorkers(2), parquetconv.WithBatchRows(3))
		if err != nil && !errors.Is(err, arrow.ErrInvalid) {
			t.Fatalf("error does not wrap arrow.ErrInvalid: %v", err)
		}
	})
}

// TestReadFuzzSeeds reads the pyarrow seeds of FuzzReader: they must
// stay valid files, on the fast path.
func TestReadFuzzSeeds(t *testing.T) {
	paths, err := filepath.Glob("testdata/fuzz/FuzzReader/pyarrow_*")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no seeds: %v", err)
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			raw, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
			lit := strings.TrimSuffix(strings.TrimPrefix(lines[len(lines)-1], "[]byte("), ")")
			data, err := strconv.Unquote(lit)
			if err != nil {
				t.Fatal(err)
			}
			mem := checkedMem(t)
			before := parquetconv.TensorFallbacks()
			if err := readAll(mem, []byte(data)); err != nil {
				t.Fatal(err)
			}
			if n := parquetconv.TensorFallbacks() - before; n != 0 {
				t.Errorf("%d tensor column chunks left the fast path", n)
			}
		})
	}
}
