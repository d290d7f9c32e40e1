// Package expr describes new tensor columns as lazy NumPy-style view
// expressions over an input column (crops, channels, transposed layouts,
// reshaped views) and materializes them in one pass at memory speed.
//
// # Overview
//
// An Expr is an immutable chain over an input tensor type: Subscript (NumPy
// basic indexing: Slice, Index, new axes, ellipsis), Transpose and Reshape.
// Constructors infer the result's logical shape, dimension names and
// element type at once, without data; an invalid argument makes an
// expression whose Check reports it in NumPy's words. The text form
//
//	x[:, 1:3, ::-1]   x[..., 0]   x[None]   x.T   x.transpose(2, 0, 1)   x.reshape(4, -1)
//
// and chains of these are read by Parse and written by String, which is
// canonical and parses back to an Equal expression. Simplify merges and
// drops operations (ndindex's reduced form for indexes).
//
// In Go, the items of a subscript are All (`:`), At (`i`), From (`a:`), To
// (`:b`), Range (`a:b`), Step (`::c`), Item.By for a step on any of these
// (From(2).By(2) is `2::2`), NewAxis and Ellipsis; Span takes all three
// places with Omit for an empty one. So x[4:-4, :, ::-1] is
//
//	expr.Subscript(x, expr.Range(4, -4), expr.All(), expr.Step(-1))
//
// Before any data, Expr.Metadata gives the result's logical shape and
// names, and Plan.Type the result column's type, for an output schema.
//
// Compile lowers an expression to a Plan, in the manner of regexp/syntax:
// every chain of slices, indexes, transposes and new axes becomes one
// strided view over the input's physical elements, the input's own
// permutation included; a reshape joins the view when NumPy's no-copy rule
// allows it and otherwise ends a stage. Plan.Eval materializes a whole
// column, Plan.EvalInto writes into a caller's buffer, Apply evaluates one
// fixedshape.Tensor.
//
// Variable-shape columns (package varshape) take the same text: ParseVar
// and CompileVar return a VarPlan that compiles one Plan per distinct row
// shape, and EvalVar (VarPlan.Eval) returns a fixed-shape column when every
// row's result has one shape and a variable-shape column otherwise; an
// error names the row. A stream whose schema is fixed before its first
// batch takes VarPlan.ResultType (fixed-shape only when no result axis
// depends on a size that varies between rows) and VarPlan.EvalAs, which
// evaluates every batch into that type.
//
// # Layout
//
// Axis numbers and sizes in expressions are logical. Results are dense
// row-major (no permutation); with WithRelabel a result that only relabels
// the input's elements (a transpose, a reshape of a dense layout) is
// returned as the input's buffers under a type whose permutation describes
// them. Stage strides and offsets are in elements.
//
// # Memory
//
// Expressions and plans hold no Arrow memory. Eval allocates the result's
// values and validity from the allocator given by WithAllocator (default
// memory.DefaultAllocator); the caller releases the result. A relabelled
// result shares the input's buffers and holds its own references to them.
// Copies split rows across up to GOMAXPROCS goroutines (WithWorkers) and
// allocate nothing per tensor. Null tensors stay null and their slots are
// zero-filled.
//
// # Errors
//
// Every error wraps arrow.ErrInvalid (an *Error), except that evaluating
// into a type fixedshape cannot represent (a size-0 dimension) fails with
// fixedshape's error wrapping arrow.ErrNotImplemented. Parse never panics
// and limits its input (MaxText, MaxOps, MaxInt).
package expr
