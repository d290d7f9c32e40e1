package tensorio

import (
	"os"

	"github.com/fstensor/fstensor/arrowconv"
	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/parquetconv"
)

// RowRange is a range of rows of a file: Rows rows from row Offset
// (counted from 0 over the file's batches), taking about Bytes bytes.
type RowRange struct {
	Offset, Rows, Bytes int64
}

// Split cuts the open file f into ranges of rows along the units a reader
// can skip without decoding: the record batches of an IPC file (read
// from its footer through a mapping), the row groups of a Parquet file
// (read from its footer). Consecutive units are joined until a range
// holds target bytes or more (IPC: the batches' buffers; Parquet: the
// row groups' compressed column chunks); target 0 or below makes a range
// of every unit. The ranges cover the file in order; a file of no rows
// has none. Other formats have no such units: Split reads them whole and
// returns one range of all their rows.
//
// A range serves as WithOffset(Offset) and WithLimit(Rows), which read
// only its units. Split takes ownership of f, as OpenFile does; name
// stands for it in errors and tells the format unless WithFormat is
// given. Errors are Open's.
func Split(f *os.File, name string, target int64, opts ...Option) ([]RowRange, error) {
	c, err := newConfig(opts)
	if err != nil {
		f.Close()
		return nil, err
	}
	format, err := c.formatOf(name)
	if err != nil {
		f.Close()
		return nil, err
	}
	var units []RowRange
	switch format {
	case IPCFile:
		units, err = ipcUnits(f, c)
	case Parquet:
		units, err = parquetUnits(f, c)
	default:
		units, err = scanUnits(f, name, opts)
	}
	if err != nil {
		return nil, withPath(name, err)
	}
	return joinUnits(units, target), nil
}

// ipcUnits returns the record batches of the IPC file f, and closes f.
// A file truncated meanwhile fails it with an error.
func ipcUnits(f *os.File, c *config) (_ []RowRange, err error) {
	defer guardFaults(f.Name())(&err)
	fr, err := arrowipc.MapIPCFile(f, arrowipc.WithAllocator(c.mem))
	f.Close()
	if err != nil {
		return nil, err
	}
	defer fr.Close()
	units := make([]RowRange, 0, fr.NumRecords())
	var at int64
	for i := range fr.NumRecords() {
		rec, err := fr.RecordBatch(i)
		if err != nil {
			return nil, err
		}
		n := rec.NumRows()
		units = append(units, RowRange{Offset: at, Rows: n, Bytes: arrowconv.RecordBytes(rec)})
		rec.Release()
		at += n
	}
	return units, nil
}

// parquetUnits returns the row groups of the Parquet file f, and closes
// f.
func parquetUnits(f *os.File, c *config) ([]RowRange, error) {
	defer f.Close()
	groups, err := parquetconv.RowGroups(f, parquetconv.WithAllocator(c.mem))
	if err != nil {
		return nil, err
	}
	units := make([]RowRange, len(groups))
	var at int64
	for i, g := range groups {
		units[i] = RowRange{Offset: at, Rows: g.Rows, Bytes: g.Bytes}
		at += g.Rows
	}
	return units, nil
}

// scanUnits reads the file f whole and returns one unit of all its rows
// (none when it has none).
func scanUnits(f *os.File, name string, opts []Option) ([]RowRange, error) {
	var size int64
	if fi, err := f.Stat(); err == nil {
		size = fi.Size()
	}
	r, err := OpenFile(f, name, opts...)
	if err != nil {
		return nil, err
	}
	defer r.Release()
	var n int64
	for r.Next() {
		n += r.RecordBatch().NumRows()
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, nil
	}
	return []RowRange{{Rows: n, Bytes: size}}, nil
}

// joinUnits joins consecutive units until each range holds target bytes
// or more; units of no rows are dropped.
func joinUnits(units []RowRange, target int64) []RowRange {
	var out []RowRange
	for _, u := range units {
		if u.Rows == 0 {
			continue
		}
		if k := len(out) - 1; k >= 0 && target > 0 && out[k].Bytes < target {
			out[k].Rows += u.Rows
			out[k].Bytes += u.Bytes
			continue
		}
		out = append(out, u)
	}
	return out
}
