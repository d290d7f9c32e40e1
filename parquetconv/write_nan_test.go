package parquetconv_test

import (
	"encoding/binary"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/parquetconv"
)

// nanColumns returns a float32 and a float64 column of NaNs with distinct
// payloads (quiet and signalling) and both signs, infinities and -0.
func nanColumns(t testing.TB, mem memory.Allocator, n int) (*fixedshape.Array, *fixedshape.Array) {
	t.Helper()
	m := metadata.MustNew([]int{2, 2}, nil, nil)
	b32 := make([]byte, 4*4*n)
	b64 := make([]byte, 8*4*n)
	for i := range 4 * n {
		k := uint32(i)
		var x32 uint32
		var x64 uint64
		switch i % 6 {
		case 0:
			x32, x64 = 0x7fc00000|k, 0x7ff8000000000000|uint64(k)<<20|uint64(k)
		case 1:
			x32, x64 = 0xffc00000|k, 0xfff8000000000000|uint64(k)
		case 2:
			x32, x64 = 0x7f800001+k, 0x7ff0000000000001+uint64(k)
		case 3:
			x32, x64 = 0xff800001+k, 0xfff0000000000001+uint64(k)<<32
		case 4:
			x32, x64 = 0x80000000, 0x8000000000000000
		case 5:
			x32, x64 = 0xff800000, 0x7ff0000000000000
		}
		binary.LittleEndian.PutUint32(b32[4*i:], x32)
		binary.LittleEndian.PutUint64(b64[8*i:], x64)
	}
	return bytesColumn(t, mem, fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, m), b32),
		bytesColumn(t, mem, fixedshape.MustNewType(arrow.PrimitiveTypes.Float64, m), b64)
}

// TestParquetNaNPayloads checks that NaN payloads and signs survive bit
// for bit under every encoding and codec.
func TestParquetNaNPayloads(t *testing.T) {
	mem := checkedMem(t)
	a32, a64 := nanColumns(t, mem, 40)
	defer a32.Release()
	defer a64.Release()
	syn := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "f32", Type: a32.DataType(), Nullable: true}, {Name: "f64", Type: a64.DataType(), Nullable: true}}, nil), []arrow.Array{a32, a64}, 40)
	defer syn.Release()

	fr, err := arrowipc.OpenIPCFile("testdata/parquet_nan_payload_float64.arrow", arrowipc.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	repro, err := fr.RecordBatch(0)
	fr.Close()
	if err != nil {
		t.Fatal(err)
	}
	defer repro.Release()

	for _, tc := range []struct {
		name string
		opts []parquetconv.Option
	}{
		{"plain", nil},
		{"bss zstd", []parquetconv.Option{parquetconv.WithByteStreamSplit(), parquetconv.WithCompression(parquetconv.ZSTD)}},
		{"v2 gzip", []parquetconv.Option{parquetconv.WithDataPageV2(), parquetconv.WithCompression(parquetconv.Gzip)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			roundTrip(t, mem, syn, tc.opts...)
			roundTrip(t, mem, repro, tc.opts...)
		})
	}
}
