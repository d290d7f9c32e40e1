package tensorio_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/parquetconv"
	"github.com/fstensor/fstensor/tensorio"
)

// parquetGroups writes ids 0..n-1 and tensors to a Parquet file of row
// groups of rg rows.
func parquetGroups(t *testing.T, n, rg int) string {
	t.Helper()
	id := ids(0, n)
	ten := tensors(t, metadata.MustNew([]int{2, 3}, nil, nil), n, 0, nil)
	rec := batch(id, ten)
	defer release([]arrow.RecordBatch{rec})
	id.Release()
	ten.Release()
	path := filepath.Join(t.TempDir(), "groups.parquet")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := parquetconv.NewWriter(f, rec.Schema(), parquetconv.WithRowGroupRows(rg))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestSplit(t *testing.T) {
	arrowFile := threeBatches(t, tensorio.IPCFile)
	stream := threeBatches(t, tensorio.IPCStream)
	pq := parquetGroups(t, 25, 10)
	rows := func(rs []tensorio.RowRange) [][2]int64 {
		var out [][2]int64
		for _, r := range rs {
			out = append(out, [2]int64{r.Offset, r.Rows})
		}
		return out
	}
	for _, tt := range []struct {
		name   string
		path   string
		target int64
		want   [][2]int64
	}{
		{"arrow per batch", arrowFile, 0, [][2]int64{{0, 4}, {4, 4}, {8, 2}}},
		{"arrow joined", arrowFile, 1 << 40, [][2]int64{{0, 10}}},
		{"arrow target of one byte", arrowFile, 1, [][2]int64{{0, 4}, {4, 4}, {8, 2}}},
		{"parquet per row group", pq, 0, [][2]int64{{0, 10}, {10, 10}, {20, 5}}},
		{"parquet joined", pq, 1 << 40, [][2]int64{{0, 25}}},
		{"stream whole", stream, 0, [][2]int64{{0, 10}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			mem := checked(t)
			f, err := os.Open(tt.path)
			if err != nil {
				t.Fatal(err)
			}
			got, err := tensorio.Split(f, tt.path, tt.target, tensorio.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, rows(got)); diff != "" {
				t.Fatalf("ranges (-want +got):\n%s", diff)
			}
			for _, r := range got {
				if r.Bytes <= 0 {
					t.Errorf("range %+v has no bytes", r)
				}
				// Each range read back by offset and limit holds its ids.
				rd, err := tensorio.Open(tt.path, tensorio.WithAllocator(mem), tensorio.WithOffset(r.Offset), tensorio.WithLimit(r.Rows))
				if err != nil {
					t.Fatal(err)
				}
				want := r.Offset
				for rd.Next() {
					for _, v := range rd.RecordBatch().Column(0).(*array.Int64).Int64Values() {
						if v != want {
							t.Fatalf("range %+v: id %d, want %d", r, v, want)
						}
						want++
					}
				}
				if err := rd.Err(); err != nil {
					t.Fatal(err)
				}
				rd.Release()
				if want != r.Offset+r.Rows {
					t.Errorf("range %+v read %d rows", r, want-r.Offset)
				}
			}
		})
	}
}

func TestSplitInvalid(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.parquet")
	if err := os.WriteFile(path, []byte("PAR1 not a footer PAR1"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tensorio.Split(f, path, 0); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("Split of a bad footer: %v, want ErrInvalid", err)
	}
}
