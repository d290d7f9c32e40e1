package parquetconv

import (
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/schema"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/parquetconv/internal/format"
)

// planTensor returns the fast-path plan of field f (index i, manifest
// entry sf) or nil when it is not a tensor column stored as a 3-level
// LIST of one primitive leaf whose physical type matches the element
// type; such columns are read by pqarrow.
func planTensor(md *metadata.FileMetaData, f arrow.Field, i int, sf *pqarrow.SchemaField) *tensorLeaf {
	typ, ok := f.Type.(*fixedshape.Type)
	if !ok || len(sf.Children) != 1 || !sf.Children[0].IsLeaf() {
		return nil
	}
	leaf := sf.Children[0].ColIndex
	if leaf < 0 || leaf >= md.Schema.NumColumns() {
		return nil
	}
	col := md.Schema.Column(leaf)
	if col.MaxRepetitionLevel() != 1 {
		return nil
	}
	elem := col.SchemaNode()
	list, _ := elem.Parent().(*schema.GroupNode)
	if list == nil || elem.RepetitionType() == parquet.Repetitions.Repeated ||
		list.RepetitionType() != parquet.Repetitions.Repeated || list.NumFields() != 1 {
		return nil
	}
	outer, _ := list.Parent().(*schema.GroupNode)
	if outer == nil || outer.NumFields() != 1 || outer.RepetitionType() == parquet.Repetitions.Repeated ||
		outer.Parent() == nil || outer.Parent().Parent() != nil {
		return nil
	}
	var listDef int16
	if outer.RepetitionType() == parquet.Repetitions.Optional {
		listDef = 1
	}
	maxDef := listDef + 1
	if elem.RepetitionType() == parquet.Repetitions.Optional {
		maxDef++
	}
	if col.MaxDefinitionLevel() != maxDef {
		return nil
	}
	codec, ok := elemCodecOf(typ.ElemType(), col)
	if !ok {
		return nil
	}
	return &tensorLeaf{field: i, leaf: leaf, typ: typ, n: typ.ListSize(), codec: codec, maxDef: maxDef, listDef: listDef}
}

// elemCodecOf returns how the physical values of col become elements of
// type dt, and false when the fast path does not take that pair.
func elemCodecOf(dt arrow.DataType, col *schema.Column) (elemCodec, bool) {
	pt := col.PhysicalType()
	switch dt.ID() {
	case arrow.FLOAT32:
		return elemCodec{pw: 4, w: 4}, pt == parquet.Types.Float
	case arrow.FLOAT64:
		return elemCodec{pw: 8, w: 8}, pt == parquet.Types.Double
	case arrow.INT32, arrow.UINT32:
		return elemCodec{pw: 4, w: 4}, pt == parquet.Types.Int32
	case arrow.INT64, arrow.UINT64:
		return elemCodec{pw: 8, w: 8}, pt == parquet.Types.Int64
	case arrow.INT8:
		return elemCodec{pw: 4, w: 1, narrow: rangeInt8}, pt == parquet.Types.Int32
	case arrow.UINT8:
		return elemCodec{pw: 4, w: 1, narrow: rangeUint8}, pt == parquet.Types.Int32
	case arrow.INT16:
		return elemCodec{pw: 4, w: 2, narrow: rangeInt16}, pt == parquet.Types.Int32
	case arrow.UINT16:
		return elemCodec{pw: 4, w: 2, narrow: rangeUint16}, pt == parquet.Types.Int32
	case arrow.FLOAT16:
		return elemCodec{pw: 2, w: 2}, pt == parquet.Types.FixedLenByteArray && col.TypeLength() == 2
	}
	return elemCodec{}, false
}

// scanPages checks the page headers of a column chunk before pqarrow
// reads it: each header parses, each page lies in the chunk and is
// within the page limit, and the pages hold no more levels than the
// chunk states. arrow-go allocates each page at its stated size.
func scanPages(r io.ReaderAt, cc *metadata.ColumnChunkMetaData, dataEnd int64, cfg *config, rows int64) error {
	start, n, err := chunkBounds(cc, dataEnd, cfg.maxChunkBytes)
	if err != nil {
		return err
	}
	prefetch(r, start, n) // for pqarrow's read of the chunk too
	c := pageCursor{r: r, start: start, n: n}
	var levels int64
	for !c.done() {
		h, _, err := c.next(cfg.maxPageBytes, false)
		if err != nil {
			return err
		}
		if h.Type == format.PageData || h.Type == format.PageDataV2 {
			levels += int64(h.NumValues)
			if levels > cc.NumValues() {
				return errorf("pages hold more than the %d values their column chunk states", cc.NumValues())
			}
		}
	}
	if cc.NumValues() < rows && rows > 0 {
		return errorf("column chunk of %d values for %d rows", cc.NumValues(), rows)
	}
	return nil
}
