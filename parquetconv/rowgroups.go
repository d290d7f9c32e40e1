package parquetconv

import (
	"github.com/apache/arrow-go/v18/parquet"
)

// RowGroup describes one row group of a Parquet file as its footer
// states it.
type RowGroup struct {
	// Rows is the row group's row count.
	Rows int64
	// Bytes is the size in the file of its column chunks (compressed).
	Bytes int64
}

// RowGroups reads the footer of the Parquet file r and returns its row
// groups in file order, without reading any data page. The footer is
// checked as a reader checks it (stored schema, row counts, column chunks
// inside the file and within the chunk limit), and errors are the
// reader's, wrapping arrow.ErrInvalid. Options: WithAllocator and
// WithMaxChunkBytes; the others are ignored.
func RowGroups(r parquet.ReaderAtSeeker, opts ...Option) (groups []RowGroup, err error) {
	defer recovered(&err, "read")
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	rd, err := openReader(r, cfg)
	if err != nil {
		return nil, err
	}
	defer rd.pf.Close()
	md := rd.pf.MetaData()
	groups = make([]RowGroup, md.NumRowGroups())
	for g := range groups {
		rg := md.RowGroup(g)
		groups[g].Rows = rg.NumRows()
		for j := range rg.NumColumns() {
			cc, err := rg.ColumnChunk(j)
			if err != nil {
				return nil, errorf("row group %d, column %d: %w", g, j, err)
			}
			_, n, err := chunkBounds(cc, rd.dataEnd, cfg.maxChunkBytes)
			if err != nil {
				return nil, errorf("row group %d, column %d: %w", g, j, err)
			}
			groups[g].Bytes += n
		}
	}
	return groups, nil
}
