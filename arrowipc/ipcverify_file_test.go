package arrowipc_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/arrowipc"
)

// craftedFile is an IPC file whose footer (atOpen) or first record batch
// message arrow-go v18.8.0 decodes unchecked.
type craftedFile struct {
	name   string
	data   []byte
	atOpen bool // refused when opened, else by RecordBatch(0)
}

func craftedFiles() []craftedFile {
	huge := func(n uint32) func([]byte, uoff) {
		return func(fin []byte, batches uoff) { patch32(fin, pos(fin, batches), n) }
	}
	viewHuge := batch(with(viewBatch, func(s *batchSpec) { s.variadic[0] = 1 << 33 }), 0)
	validFile := fileOf(intSchema, nil, []ipcMsg{batch(intBatch, 8)}, nil)
	return []craftedFile{
		{name: "footer_batches_length_2pow28", data: fileOf(intSchema, nil, []ipcMsg{batch(intBatch, 8)}, huge(1<<28)), atOpen: true},
		{name: "footer_schema_metadata_length_2pow30", data: fileOf(kvLengthSchema(1<<30), nil, nil, nil), atOpen: true},
		{name: "footer_children_shared_2pow40", data: fileOf(sharedChildren(40), nil, nil, nil), atOpen: true},
		{name: "footer_strings_shared_1GiB", data: fileOf(sharedStrings(16<<10, 32<<10), nil, nil, nil), atOpen: true},
		{name: "footer_length_beyond_file", data: func() []byte {
			b := bytes.Clone(validFile)
			patch32(b, len(b)-10, uint32(len(b)))
			return b
		}(), atOpen: true},
		{name: "footer_length_zero", data: func() []byte {
			b := bytes.Clone(validFile)
			patch32(b, len(b)-10, 0)
			return b
		}(), atOpen: true},
		{name: "no_magic", data: validFile[:len(validFile)-1], atOpen: true},
		{name: "dictionary_variadic_count_2pow33", data: fileOf(dictViewSchema, []ipcMsg{dictBatch(with(viewBatch, func(s *batchSpec) { s.variadic[0] = 1 << 33 }), 0)}, nil, nil), atOpen: true},
		{name: "dictionary_block_holds_record_batch", data: fileOf(dictViewSchema, []ipcMsg{batch(viewBatch, 0)}, nil, nil), atOpen: true},
		{name: "batch_variadic_count_2pow33", data: fileOf(viewSchema, nil, []ipcMsg{viewHuge}, nil)},
		{name: "batch_variadic_counts_short", data: fileOf(viewSchema, nil, []ipcMsg{batch(with(viewBatch, func(s *batchSpec) { s.variadic = []int64{} }), 0)}, nil)},
		{name: "batch_nodes_short", data: fileOf(intSchema, nil, []ipcMsg{batch(with(intBatch, func(s *batchSpec) { s.nodes = nil }), 8)}, nil)},
		{name: "batch_buffer_outside_body", data: fileOf(intSchema, nil, []ipcMsg{batch(with(intBatch, func(s *batchSpec) { s.buffers[1][0] = 8 }), 8)}, nil)},
		{name: "batch_block_holds_schema", data: fileOf(intSchema, nil, []ipcMsg{schemaMsg(intSchema)}, nil)},
		{name: "batch_block_holds_tensor", data: fileOf(intSchema, nil, []ipcMsg{tensorMsg()}, nil)},
		{name: "batch_block_outside_file", data: func() []byte {
			b := bytes.Clone(validFile)
			// The block offset is the first int64 of the footer's record
			// batch vector: find it by its value, the batch's offset.
			off := bytes.LastIndex(b, binary.LittleEndian.AppendUint64(nil, uint64(bytes.Index(b, batch(intBatch, 8).framed()))))
			binary.LittleEndian.PutUint64(b[off:], 1<<40)
			return b
		}()},
	}
}

// openCrafted opens data with the plain reader or, through a file, the
// mapped one.
func openCrafted(t *testing.T, data []byte, mapped bool, mem arrowipc.Option) (*arrowipc.FileReader, error) {
	if !mapped {
		return arrowipc.NewIPCFileReader(bytes.NewReader(data), mem, arrowipc.WithBodySizeLimit(craftLimit))
	}
	path := filepath.Join(t.TempDir(), "crafted.arrow")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return arrowipc.OpenMappedIPCFile(path, mem, arrowipc.WithBodySizeLimit(craftLimit))
}

func TestIPCFileRejectsCrafted(t *testing.T) {
	for _, tc := range craftedFiles() {
		for _, mapped := range []bool{false, true} {
			name := tc.name + "/plain"
			if mapped {
				name = tc.name + "/mapped"
			}
			t.Run(name, func(t *testing.T) {
				mem := checkedMem(t)
				var err error
				n := -1
				a := allocated(func() {
					r, oerr := openCrafted(t, tc.data, mapped, arrowipc.WithAllocator(mem))
					if err = oerr; err != nil {
						return
					}
					defer r.Close()
					if tc.atOpen {
						t.Errorf("opened, want an error at open")
					}
					n = r.NumRecords()
					rec, rerr := r.RecordBatch(0)
					if err = rerr; err == nil {
						rec.Release()
					}
				})
				if a > maxCraftAlloc {
					t.Errorf("allocated %d bytes to refuse %d bytes of input", a, len(tc.data))
				}
				if !errors.Is(err, arrow.ErrInvalid) {
					t.Fatalf("error %v, want one wrapping arrow.ErrInvalid", err)
				}
				if !tc.atOpen && n != 1 {
					t.Errorf("NumRecords %d, want 1", n)
				}
			})
		}
	}
}

// TestIPCCraftedControls reads the crafted messages' valid originals:
// the crafted rows above fail for their edit, not for the builder.
func TestIPCCraftedControls(t *testing.T) {
	dictBatchOK := dictBatch(viewBatch, 0)
	tests := []struct {
		name    string
		schema  schemaFunc
		dicts   []ipcMsg
		batches []ipcMsg
		rows    int64
	}{
		{name: "int", schema: intSchema, batches: []ipcMsg{batch(intBatch, 8)}, rows: 1},
		{name: "view", schema: viewSchema, batches: []ipcMsg{batch(viewBatch, 0)}},
		{name: "view_no_variadic_counts", schema: viewSchema, batches: []ipcMsg{batch(with(viewBatch, func(s *batchSpec) { s.variadic = nil }), 0)}},
		{name: "dictionary_view", schema: dictViewSchema, dicts: []ipcMsg{dictBatchOK}, batches: []ipcMsg{batch(batchSpec{nodes: [][2]int64{{0, 0}}, buffers: [][2]int64{{0, 0}, {0, 0}}}, 0)}},
		{name: "schema_only", schema: sharedChildren(3)},
		{name: "depth_64", schema: nestedLists(64)},
		{name: "strings_unshared", schema: sharedStrings(1, 32<<10)},
		{name: "tensor", schema: tensorSchema, batches: []ipcMsg{func() ipcMsg { s, body := tensorBatch(16); return batch(s, body) }()}, rows: 16},
		{name: "tensor_nulls", schema: tensorSchema, batches: []ipcMsg{func() ipcMsg {
			s, body := tensorBatch(16)
			s.nodes[0][1], s.nodes[1][1] = 16, 32 // the body is zeros: every tensor and element null
			s.buffers[0], s.buffers[1] = [2]int64{0, 2}, [2]int64{0, 4}
			return batch(s, body)
		}()}, rows: 16},
	}
	for _, tc := range tests {
		t.Run(tc.name+"/stream", func(t *testing.T) {
			data := streamOf(append(append([]ipcMsg{schemaMsg(tc.schema)}, tc.dicts...), tc.batches...)...)
			mem := checkedMem(t)
			r, err := arrowipc.NewIPCStreamReader(bytes.NewReader(data), arrowipc.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			defer r.Release()
			n := 0
			for r.Next() {
				if got := r.RecordBatch().NumRows(); got != tc.rows {
					t.Errorf("batch %d has %d rows, want %d", n, got, tc.rows)
				}
				n++
			}
			if err := r.Err(); err != nil || n != len(tc.batches) {
				t.Fatalf("read %d batches, error %v; want %d", n, err, len(tc.batches))
			}
		})
		for _, mapped := range []bool{false, true} {
			name := tc.name + "/file"
			if mapped {
				name += "_mapped"
			}
			t.Run(name, func(t *testing.T) {
				mem := checkedMem(t)
				r, err := openCrafted(t, fileOf(tc.schema, tc.dicts, tc.batches, nil), mapped, arrowipc.WithAllocator(mem))
				if mapped && len(tc.dicts) > 0 {
					// arrow-go v18.8.0's NewMappedFileReader leaves its
					// dictionary memo nil and panics on a dictionary.
					if !errors.Is(err, arrow.ErrInvalid) {
						t.Fatalf("error %v, want the arrow-go failure wrapping arrow.ErrInvalid", err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				defer r.Close()
				if r.NumRecords() != len(tc.batches) {
					t.Fatalf("NumRecords %d, want %d", r.NumRecords(), len(tc.batches))
				}
				for i := range r.NumRecords() {
					rec, err := r.RecordBatch(i)
					if err != nil {
						t.Fatal(err)
					}
					if rec.NumRows() != tc.rows {
						t.Errorf("batch %d has %d rows, want %d", i, rec.NumRows(), tc.rows)
					}
					rec.Release()
				}
			})
		}
	}
}
