package arrowipc_test

import (
	"bytes"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/arrowipc"
)

// countingReaderAt counts the bytes read through ReadAt.
type countingReaderAt struct {
	*bytes.Reader
	read atomic.Int64
}

func (r *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := r.Reader.ReadAt(p, off)
	r.read.Add(int64(n))
	return n, err
}

// TestBatchRows reads the row counts of the batches of a file from their
// metadata: the counts match the batches, and reading them reads far
// less than the bodies.
func TestBatchRows(t *testing.T) {
	mem := checkedMem(t)
	rec := testRecord(t, mem, 300, true)
	defer rec.Release()
	var recs []arrow.RecordBatch
	for _, s := range [][2]int64{{0, 100}, {100, 100}, {100, 299}, {299, 300}} { // 100, 0, 199 and 1 rows
		recs = append(recs, rec.NewSlice(s[0], s[1]))
	}
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	for _, cmpr := range []arrowipc.Compression{arrowipc.Uncompressed, arrowipc.ZSTD} {
		t.Run(cmpr.String(), func(t *testing.T) {
			data := writeIPC(t, true, recs, arrowipc.WithCompression(cmpr))
			src := &countingReaderAt{Reader: bytes.NewReader(data)}
			fr, err := arrowipc.NewIPCFileReader(src, arrowipc.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			defer fr.Close()
			opened := src.read.Load()
			var got []int64
			for i := range fr.NumRecords() {
				n, err := fr.BatchRows(i)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, n)
			}
			if diff := cmp.Diff([]int64{100, 0, 199, 1}, got); diff != "" {
				t.Errorf("BatchRows (-want +got):\n%s", diff)
			}
			if read := src.read.Load() - opened; read > 4*1024 {
				t.Errorf("BatchRows of 4 batches read %d bytes of a %d-byte file", read, len(data))
			}
			for _, i := range []int{-1, 4} {
				if _, err := fr.BatchRows(i); !errors.Is(err, arrow.ErrIndex) || !errors.Is(err, arrow.ErrInvalid) {
					t.Errorf("BatchRows(%d) = %v, want an error wrapping arrow.ErrIndex and arrow.ErrInvalid", i, err)
				}
			}
		})
	}
}

// TestBatchRowsCorrupt checks that BatchRows refuses a batch whose
// metadata is broken, as RecordBatch does.
func TestBatchRowsCorrupt(t *testing.T) {
	mem := checkedMem(t)
	rec := testRecord(t, mem, 5, false)
	defer rec.Release()
	data := writeIPC(t, true, []arrow.RecordBatch{rec})
	// The batch's message follows the schema message, 8-byte aligned;
	// the first record batch's metadata sits right after the schema
	// message, at the offset its footer block states. Find it as the
	// second continuation marker.
	marker := []byte{0xff, 0xff, 0xff, 0xff}
	first := bytes.Index(data[8:], marker) + 8
	second := bytes.Index(data[first+4:], marker) + first + 4
	bad := bytes.Clone(data)
	bad[second+4] ^= 0xff // the metadata length
	fr, err := arrowipc.NewIPCFileReader(bytes.NewReader(bad), arrowipc.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer fr.Close()
	_, err = fr.BatchRows(0)
	if !errors.Is(err, arrow.ErrInvalid) {
		t.Fatalf("BatchRows of a corrupt batch = %v, want an error wrapping arrow.ErrInvalid", err)
	}
	if _, rerr := fr.RecordBatch(0); rerr == nil {
		t.Error("RecordBatch of the corrupt batch: no error")
	}
}
