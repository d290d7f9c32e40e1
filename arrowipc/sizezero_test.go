package arrowipc_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/internal/pyrun"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
)

// TestSizeZeroListRefused reads a pyarrow-written stream whose tensor
// column has a size-0 dimension (a FixedSizeList of size 0, which
// arrow-go's type constructor panics on): the reader refuses it with an
// error wrapping arrow.ErrNotImplemented before arrow-go decodes it, and
// allocates nothing.
func TestSizeZeroListRefused(t *testing.T) {
	const script = `
import sys, pyarrow as pa
t = pa.fixed_shape_tensor(pa.float32(), [0, 3])
a = pa.ExtensionArray.from_storage(t, pa.array([[], []], pa.list_(pa.float32(), 0)))
w = pa.ipc.new_stream(sys.stdout.buffer, pa.schema([("x", t), ("y", pa.int32())]))
w.write_batch(pa.record_batch([a, pa.array([1, 2], pa.int32())], names=["x", "y"]))
w.close()
`
	data := pyrun.Run(t, script, nil, []string{"pyarrow"})
	mem := testvec.CheckedMem(t)
	_, err := arrowipc.NewIPCStreamReader(bytes.NewReader(data), arrowipc.WithAllocator(mem))
	if !errors.Is(err, arrow.ErrNotImplemented) || !errors.Is(err, arrow.ErrInvalid) {
		t.Fatalf("err = %v, want arrow.ErrNotImplemented and arrow.ErrInvalid", err)
	}
}
