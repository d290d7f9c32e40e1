package parquetconv

import (
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/fstensor/fstensor/arrowconv"
)

// schemaPlan is the Arrow schema of a file and the plan of its fields,
// which depend on the footer's schema list and key-value metadata only
// (pqarrow derives the Arrow schema from these): every file of a dataset
// written at once has the same. Its values are not changed once made.
type schemaPlan struct {
	key     string        // see schemaKey
	full    *arrow.Schema // every field, tensor columns as such
	tensors []*tensorLeaf // per field: the fast path, or nil: pqarrow
	leaves  [][]int       // per field: its Parquet leaf columns
}

// lastPlan is the plan of the last file opened, for the next file: the
// stored Arrow schema is checked, and the schema derived (pqarrow's
// manifest, the IPC schema it stores, the tensor types' JSON), once for
// the files of a dataset rather than once a file.
var lastPlan atomic.Pointer[schemaPlan]

// schemaKey returns what the schema plan of the file of rd depends on:
// the bytes of its footer's schema list and its key-value metadata, or
// "" when the footer was not read by format.ReadFooter.
func (rd *reader) schemaKey() string {
	if rd.footerSchema == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString(strconv.Itoa(len(rd.footerSchema)))
	b.WriteByte(':')
	b.Write(rd.footerSchema)
	if kv := rd.pf.MetaData().KeyValueMetadata(); kv != nil {
		for i, k := range kv.Keys() {
			v := kv.Values()[i]
			b.WriteString(strconv.Itoa(len(k)) + ":" + k + strconv.Itoa(len(v)) + ":" + v)
		}
	}
	return b.String()
}

// planSchema returns the schema plan of rd's file: the last file's when
// its key is the same, or else one made from the footer, after the
// stored Arrow schema is checked; a file reader (see fileReader) is
// built then.
func (rd *reader) planSchema() (*schemaPlan, error) {
	key := rd.schemaKey()
	if p := lastPlan.Load(); key != "" && p != nil && p.key == key {
		return p, nil
	}
	md := rd.pf.MetaData()
	if err := checkStoredSchema(md); err != nil {
		return nil, err
	}
	fr, err := rd.fileReader()
	if err != nil {
		return nil, err
	}
	asc, err := fr.Schema()
	if err != nil {
		return nil, errorf("%w", err)
	}
	full, err := arrowconv.TensorSchema(dropUnsetFieldIDs(asc))
	if err != nil {
		return nil, err
	}
	if len(fr.Manifest.Fields) != full.NumFields() {
		return nil, errorf("schema of %d fields, manifest of %d", full.NumFields(), len(fr.Manifest.Fields))
	}
	p := &schemaPlan{key: key, full: full, tensors: make([]*tensorLeaf, full.NumFields()), leaves: make([][]int, full.NumFields())}
	for i, f := range full.Fields() {
		sf := &fr.Manifest.Fields[i]
		p.tensors[i], p.leaves[i] = planTensor(md, f, i, sf), leavesOf(sf, nil)
	}
	if key != "" {
		lastPlan.Store(p)
	}
	return p, nil
}

// fileReader returns the pqarrow reader of the file, built at its first
// call: the columns pqarrow decodes need it, those of the fast path of a
// file with a known plan do not.
func (rd *reader) fileReader() (*pqarrow.FileReader, error) {
	rd.frOnce.Do(func() {
		fr, err := pqarrow.NewFileReader(rd.pf, pqarrow.ArrowReadProperties{BatchSize: int64(rd.cfg.batchRows)}, rd.cfg.mem)
		if err != nil {
			rd.frErr = errorf("%w", err)
			return
		}
		rd.fr = fr
	})
	return rd.fr, rd.frErr
}
