package expr

import (
	"errors"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/varshape"
)

// WithInput names the column of the schema that x stands for in
// [Compile] and [CompileExpr]. Without it, x is the schema's only tensor
// column (fixed- or variable-shape) when it has exactly one. Evaluation
// functions ignore it.
func WithInput(column string) Option {
	return func(o *options) { o.input, o.inputSet = column, true }
}

// WithName names the column a [Program] writes (its Schema's field).
// Without it, the name is the input column's when the expression reads
// x, and "result" when it names its column. Evaluation functions ignore
// it.
func WithName(name string) Option {
	return func(o *options) { o.name, o.nameSet = name, true }
}

// WithLoad gives Compile the constants of `load("name")` in the text
// (Load in Go): load(name) returns the constant named name, a tensor of
// any shape (Array), read for example from a .npy file (the command
// reads them relative to its working directory). Its error fails
// Compile, wrapped in an *Error that places it in the text (errors.Is
// sees through it). Without the option, a text that loads fails
// Compile. Evaluation functions ignore it.
func WithLoad(load func(name string) (Const, error)) Option {
	return func(o *options) { o.load = load }
}

// WithResultType makes t the type of the result of a Program that reads
// a variable-shape column, in place of the one Compile decides from the
// columns' types before any data (a *varshape.Type whenever a result
// axis depends on a size that varies between rows): typically a
// *fixedshape.Type when the caller knows that every row's result has one
// shape. Schema reports t, and every evaluation writes its rows into it,
// in the engine: a fixed-shape t (dense row-major, no permutation) fails
// on the first row whose result has another shape, naming the row; a
// variable-shape t must have the result's element type and number of
// dimensions (and no permutation), and its uniform shape is checked per
// row the same way; t may also be the type Compile decides. Compile fails
// with an error wrapping arrow.ErrInvalid when the expression reads no
// variable-shape column or t is not such a type. Evaluation functions
// ignore it.
func WithResultType(t arrow.DataType) Option {
	return func(o *options) {
		if t == nil {
			o.invalid("WithResultType", nil, "want a type")
			return
		}
		o.resultType = t
	}
}

// quoted parses a string literal in double or single quotes, in which a
// backslash escapes the next byte.
func (p *parser) quoted() (string, error) {
	q := p.peek()
	if q != '"' && q != '\'' {
		return "", p.errorf(`col takes a column name in quotes: col("a name")`)
	}
	var s strings.Builder
	for i := p.pos + 1; i < len(p.text); i++ {
		c := p.text[i]
		switch {
		case c == '\\' && i+1 < len(p.text):
			i++
			s.WriteByte(p.text[i])
		case c == q:
			p.pos = i + 1
			return s.String(), nil
		default:
			s.WriteByte(c)
		}
	}
	return "", p.errorf("unterminated string")
}

// columnList lists the names of the schema's columns for an error.
func columnList(s *arrow.Schema) string {
	if s.NumFields() == 0 {
		return "no column"
	}
	names := make([]string, s.NumFields())
	for i, f := range s.Fields() {
		names[i] = fmt.Sprintf("%q", f.Name)
	}
	const most = 16
	if len(names) > most {
		names = append(names[:most], fmt.Sprintf("and %d more", len(names)-most))
	}
	return "columns " + strings.Join(names, ", ")
}

// inputOfField returns the input expression of a column: its tensors
// for a fixed-shape column, one 0-D tensor a row for a plain numeric
// column, and an error for a variable-shape column, whose input is one
// row shape at a time.
func inputOfField(f arrow.Field) (Expr, error) {
	if _, ok := varshape.TypeOf(f.Type); ok {
		return nil, errors.New("is variable-shape")
	}
	if t, ok := fixedshape.TypeOf(f.Type); ok {
		return Input(t), nil
	}
	if u, ok := fixedshape.UnsupportedOf(f.Type); ok {
		return nil, u.Reason()
	}
	if t, ok := scalarType(f.Type); ok {
		return Input(t), nil
	}
	return nil, fmt.Errorf("is %v: not a tensor or numeric column", f.Type)
}

// scalarType returns the type of 0-D tensors of a plain numeric type.
func scalarType(dt arrow.DataType) (*fixedshape.Type, bool) {
	if !arrow.IsInteger(dt.ID()) && !arrow.IsFloating(dt.ID()) {
		return nil, false
	}
	t, err := fixedshape.NewType(dt, metadata.MustNew([]int{}, nil, nil))
	return t, err == nil
}

// isTensorField reports whether f is a fixed- or variable-shape tensor
// column.
func isTensorField(f arrow.Field) bool {
	if _, ok := varshape.TypeOf(f.Type); ok {
		return true
	}
	_, ok := fixedshape.TypeOf(f.Type)
	return ok
}

// inputColumn returns the column x stands for under o: WithInput's, or
// the only tensor column; -1 when there is none.
func inputColumn(schema *arrow.Schema, o options) (int, error) {
	if o.inputSet {
		ix := schema.FieldIndices(o.input)
		if len(ix) == 0 {
			return -1, errorf("input column %q is not in the schema, which has %s", o.input, columnList(schema))
		}
		return ix[0], nil
	}
	x := -1
	for i, f := range schema.Fields() {
		if isTensorField(f) {
			if x >= 0 {
				return -1, nil
			}
			x = i
		}
	}
	return x, nil
}
