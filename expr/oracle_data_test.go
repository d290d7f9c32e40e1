package expr_test

import (
	"encoding/base64"
	"encoding/binary"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/stride"
)

// oracleCol is one input column of an oracle case: a fixed-shape tensor
// column (or a plain column, one number per row) of a NumPy dtype whose
// values are drawn from a generator seeded by the case's name.
type oracleCol struct {
	name    string
	dtype   string // NumPy's name: "float32", "uint8", "bool"...
	shape   []int  // the logical shape of a row's tensor
	plain   bool   // a plain column: one number per row
	perm    []int  // the tensor type's permutation; nil for none
	nulls   []int  // the null rows; nil for the default (see oracleCase)
	lo, hi  float64
	full    bool // integers: random bits over the whole range of the type
	special bool // floats: NaN, +Inf, -Inf, +0 and -0 among the values
}

// tcol is a tensor column of the given logical shape, values in the
// default range of its dtype: integers in [-20, 20] ([0, 40] unsigned),
// floats in [-4, 4).
func tcol(name, dtype string, shape ...int) oracleCol {
	c := oracleCol{name: name, dtype: dtype, shape: shape, lo: -4, hi: 4}
	switch {
	case strings.HasPrefix(dtype, "int"):
		c.lo, c.hi = -20, 20
	case strings.HasPrefix(dtype, "uint"):
		c.lo, c.hi = 0, 40
	}
	if shape == nil {
		c.shape = []int{}
	}
	return c
}

// pcol is a plain column of dtype, one number per row.
func pcol(name, dtype string) oracleCol {
	c := tcol(name, dtype)
	c.plain = true
	return c
}

func (c oracleCol) permuted(perm ...int) oracleCol { c.perm = perm; return c }
func (c oracleCol) nullAt(rows ...int) oracleCol   { c.nulls = append([]int{}, rows...); return c }
func (c oracleCol) in(lo, hi float64) oracleCol    { c.lo, c.hi = lo, hi; return c }
func (c oracleCol) wide() oracleCol                { c.full = true; return c }
func (c oracleCol) specials() oracleCol            { c.special = true; return c }

// oracleCase is an expression over input columns. Unless a column names
// its null rows, row 2 of the first column is null. NumPy failing on the
// text means Compile must fail in NumPy's words (evalErr: Compile or
// Eval, NumPy's failure depending on a value; ownWords: Compile, in
// words of its own, as for an unknown name). loose compares any float
// result that is not bit-exact as an accumulation is (a random
// expression may compute after an exp).
type oracleCase struct {
	name     string
	text     string
	cols     []oracleCol
	rows     int // 0 means 4
	evalErr  bool
	ownWords bool
	loose    bool
}

// oracleInput is one column of a request to numpy_eval.py.
type oracleInput struct {
	Name  string `json:"name"`
	DType string `json:"dtype"`
	Shape []int  `json:"shape"`
	Data  string `json:"data"`
	Nulls []int  `json:"nulls"`
}

// oracleRequest is one case of a request to numpy_eval.py.
type oracleRequest struct {
	Text string        `json:"text"`
	Rows int           `json:"rows"`
	Dir  string        `json:"dir"`
	Cols []oracleInput `json:"cols"`
}

// oracleAnswer is NumPy's result of one case.
type oracleAnswer struct {
	Error  *string   `json:"error"`
	Kind   string    `json:"kind"`
	DType  string    `json:"dtype"`
	Shape  []int     `json:"shape"`
	Rows   []*string `json:"rows"`
	Scales []float64 `json:"scales"`
}

// oracleData is a case's generated input: per column, the logical
// elements of every row as little-endian bytes (bool one byte each).
type oracleData struct {
	rows  int
	cols  []oracleCol
	bytes [][]byte
	nulls [][]int
}

// oracleWidth is the byte width of a NumPy dtype's element (bool: 1).
func oracleWidth(dtype string) int {
	switch dtype {
	case "bool", "int8", "uint8":
		return 1
	case "int16", "uint16", "float16":
		return 2
	case "int32", "uint32", "float32":
		return 4
	}
	return 8
}

// oracleArrowType is the Arrow element type of a NumPy dtype.
func oracleArrowType(dtype string) arrow.DataType {
	switch dtype {
	case "bool":
		return arrow.FixedWidthTypes.Boolean
	case "float16":
		return arrow.FixedWidthTypes.Float16
	case "float32":
		return arrow.PrimitiveTypes.Float32
	case "float64":
		return arrow.PrimitiveTypes.Float64
	case "int8":
		return arrow.PrimitiveTypes.Int8
	case "int16":
		return arrow.PrimitiveTypes.Int16
	case "int32":
		return arrow.PrimitiveTypes.Int32
	case "int64":
		return arrow.PrimitiveTypes.Int64
	case "uint8":
		return arrow.PrimitiveTypes.Uint8
	case "uint16":
		return arrow.PrimitiveTypes.Uint16
	case "uint32":
		return arrow.PrimitiveTypes.Uint32
	case "uint64":
		return arrow.PrimitiveTypes.Uint64
	}
	panic("oracle: unknown dtype " + dtype)
}

// oracleDTypeName is NumPy's name of an Arrow element type.
func oracleDTypeName(t arrow.DataType) string {
	if t.ID() == arrow.BOOL {
		return "bool"
	}
	return t.String()
}

// oracleSize is the number of elements of shape.
func oracleSize(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// oracleGenerate draws the columns' values from a generator seeded by
// seed.
func oracleGenerate(seed string, cols []oracleCol, rows int) oracleData {
	h := fnv.New64a()
	h.Write([]byte(seed))
	r := rand.New(rand.NewPCG(h.Sum64(), 25))
	d := oracleData{rows: rows, cols: cols}
	for k, c := range cols {
		n := rows * oracleSize(c.shape)
		w := oracleWidth(c.dtype)
		b := make([]byte, n*w)
		for j := range n {
			oraclePut(b[j*w:], c, r)
		}
		d.bytes = append(d.bytes, b)
		nulls := c.nulls
		if nulls == nil && k == 0 && rows > 2 && !slices.ContainsFunc(cols, func(c oracleCol) bool { return c.nulls != nil }) {
			nulls = []int{2}
		}
		d.nulls = append(d.nulls, nulls)
	}
	return d
}

// oracleSpecials are the values a column with specials draws one time
// in four.
var oracleSpecials = []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1)}

// oraclePut writes one random element of c's dtype to b.
func oraclePut(b []byte, c oracleCol, r *rand.Rand) {
	f := c.lo + r.Float64()*(c.hi-c.lo)
	if c.special && r.IntN(4) == 0 {
		f = oracleSpecials[r.IntN(len(oracleSpecials))]
	}
	i := uint64(int64(math.Floor(c.lo + r.Float64()*(c.hi-c.lo+1))))
	if c.full {
		i = r.Uint64()
	}
	switch c.dtype {
	case "bool":
		b[0] = byte(r.IntN(2))
	case "float16":
		binary.LittleEndian.PutUint16(b, float16.New(float32(f)).Uint16())
	case "float32":
		binary.LittleEndian.PutUint32(b, math.Float32bits(float32(f)))
	case "float64":
		binary.LittleEndian.PutUint64(b, math.Float64bits(f))
	default:
		var w [8]byte
		binary.LittleEndian.PutUint64(w[:], i)
		copy(b[:oracleWidth(c.dtype)], w[:])
	}
}

// request is the case's NumPy request.
func (d oracleData) request(text, dir string) oracleRequest {
	q := oracleRequest{Text: text, Rows: d.rows, Dir: dir}
	for k, c := range d.cols {
		q.Cols = append(q.Cols, oracleInput{Name: c.name, DType: c.dtype, Shape: c.shape, Data: base64.StdEncoding.EncodeToString(d.bytes[k]), Nulls: d.nulls[k]})
	}
	return q
}

// record returns the columns as a record batch (and its schema): the
// elements of a permuted tensor column are scattered to their physical
// places, a null row's slot is zero-filled.
func (d oracleData) record(t testing.TB) arrow.RecordBatch {
	var fields []arrow.Field
	var arrs []arrow.Array
	for k, c := range d.cols {
		a := oracleColumn(t, c, d.rows, d.bytes[k], d.nulls[k])
		defer a.Release()
		fields = append(fields, arrow.Field{Name: c.name, Type: a.DataType(), Nullable: true})
		arrs = append(arrs, a)
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, int64(d.rows))
}

// oracleColumn builds one column from the logical elements of its rows.
func oracleColumn(t testing.TB, c oracleCol, rows int, logical []byte, nulls []int) arrow.Array {
	elem := oracleArrowType(c.dtype)
	w := oracleWidth(c.dtype)
	size := oracleSize(c.shape)
	valid := make([]byte, (rows+7)/8)
	for i := range rows {
		if !slices.Contains(nulls, i) {
			valid[i/8] |= 1 << (i % 8)
		}
	}
	phys := make([]byte, len(logical))
	m, err := metadata.New(c.shape, nil, c.perm)
	if err != nil {
		t.Fatal(err)
	}
	strides := m.ElemStrides()
	for i := range rows {
		if !slices.Contains(nulls, i) {
			j := 0
			for off := range stride.Offsets(c.shape, strides) {
				copy(phys[(i*size+off)*w:(i*size+off+1)*w], logical[(i*size+j)*w:])
				j++
			}
		}
	}
	if c.dtype == "bool" {
		bits := make([]byte, (len(phys)+7)/8)
		for j, v := range phys {
			if v != 0 {
				bits[j/8] |= 1 << (j % 8)
			}
		}
		phys = bits
	}
	vb := memory.NewBufferBytes(phys)
	vd := memory.NewBufferBytes(valid)
	if c.plain {
		data := array.NewData(elem, rows, []*memory.Buffer{vd, vb}, nil, len(nulls), 0)
		defer data.Release()
		return array.MakeFromData(data)
	}
	typ, err := fixedshape.NewType(elem, m)
	if err != nil {
		t.Fatal(err)
	}
	child := array.NewData(elem, rows*size, []*memory.Buffer{nil, vb}, nil, 0, 0)
	defer child.Release()
	data := array.NewData(typ, rows, []*memory.Buffer{vd}, []arrow.ArrayData{child}, len(nulls), 0)
	defer data.Release()
	return array.MakeFromData(data)
}
