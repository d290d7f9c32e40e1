package parquetconv_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/parquetconv"
)

// TestReadReusedChunkBuffers reads, with the default allocator (whose
// large chunk buffers are reused without being cleared), a file of
// float32 [1024] tensors without nulls and then files of the same size
// with every third tensor null, over and over: the null tensors' slots
// hold zeros, not what the buffer held before, and the values are the
// file's. Row groups of 512 rows make 2 MiB chunks, above the size from
// which buffers are reused.
func TestReadReusedChunkBuffers(t *testing.T) {
	mem := memory.DefaultAllocator
	m := metadata.MustNew([]int{1024}, nil, nil)
	full := buildRecord(t, mem, 1024, colSpec{"t", arrow.PrimitiveTypes.Float32, m, nil})
	defer full.Release()
	holes := buildRecord(t, mem, 1024, colSpec{"t", arrow.PrimitiveTypes.Float32, m, everyThird})
	defer holes.Release()
	files := map[string][]byte{}
	for name, rec := range map[string]arrow.RecordBatch{"full": full, "holes": holes} {
		files[name] = writeFile(t, rec.Schema(), []arrow.RecordBatch{rec}, parquetconv.WithRowGroupRows(512))
	}
	for round := range 4 {
		for _, name := range []string{"full", "holes"} {
			t.Run(fmt.Sprintf("round=%d/file=%s", round, name), func(t *testing.T) {
				want := full
				if name == "holes" {
					want = holes
				}
				r, err := parquetconv.NewReader(bytes.NewReader(files[name]), parquetconv.WithBatchRows(512))
				if err != nil {
					t.Fatal(err)
				}
				defer r.Release()
				row := 0
				for r.Next() {
					rec := r.RecordBatch()
					a := rec.Column(rec.Schema().FieldIndices("t")[0]).(*fixedshape.Array)
					vals := a.ValueBytes()
					rowBytes := len(vals) / a.Len()
					for i := range a.Len() {
						if everyThird(row+i) && name == "holes" {
							if !a.IsNull(i) || !bytes.Equal(vals[i*rowBytes:(i+1)*rowBytes], make([]byte, rowBytes)) {
								t.Fatalf("row %d: null %v, want a null tensor of zeros", row+i, a.IsNull(i))
							}
						}
					}
					w := want.Column(want.Schema().FieldIndices("t")[0]).(*fixedshape.Array).ValueBytes()[row*rowBytes : (row+a.Len())*rowBytes]
					if name == "full" && !bytes.Equal(vals, w) {
						t.Fatalf("rows %d to %d differ from the file's", row, row+a.Len())
					}
					row += a.Len()
				}
				if err := r.Err(); err != nil || row != 1024 {
					t.Fatalf("read %d rows (%v), want 1024", row, err)
				}
			})
		}
	}
}
