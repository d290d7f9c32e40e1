// Package expr describes new tensor columns as lazy NumPy-style
// expressions over the columns of a record batch (crops, channels,
// transposed layouts, reshaped views, element-wise arithmetic,
// comparisons, reductions, matmul, several columns) and evaluates them in
// one pass at memory speed.
//
// # Entry points
//
// Compile (text) and CompileExpr (an Expr built in Go) compile an
// expression for the columns of an Arrow schema into a Program, the way
// to evaluate record batches and columns, fixed-shape, variable-shape or
// plain, and the one entry point of the command's eval and of the Flight
// server:
//
//	p, err := expr.Compile("norm(emb, axis=-1)", schema, expr.WithName("norms"))
//	p.Schema()          // the result's schema, before any data
//	p.Eval(rec)         // a record batch of that schema
//	p.EvalColumn(col)   // one column
//
// In the text, x is the column of WithInput (or the only tensor column),
// any other identifier names a column, col("a name") any column; a column
// may be fixed-shape, variable-shape or plain numeric (one number per row,
// read as a 0-D tensor). Options: WithInput, WithName, WithLoad,
// WithResultType, WithAllocator, WithWorkers, WithRelabel. Fuse makes
// several programs of one schema one program that reads each column once.
//
// Besides Compile and Program, the API is:
//
//   - Parse (MustParse) and the constructors (Subscript, Transpose,
//     Reshape, Astype, Arith, Reduce, Similarity, X, Col, Binary, Call,
//     ...) build an Expr; Check, Equal and String examine it.
//   - CompilePlan (MustCompilePlan) lowers a chain over one fixed-shape
//     input to a Plan, for a Go caller holding one column or tensor who
//     wants the strided-view primitives: Plan.ResultType (the result
//     type before data), Plan.Eval (a new column), Plan.EvalInto (into a
//     caller's buffer, reused across batches), Apply (one
//     fixedshape.Tensor), Plan.Metadata, Plan.Relabel, Plan.Scalar.
//
// Compile runs every expression in the engine, which evaluates blocks of
// rows with every intermediate in cache: views through the layout
// kernels a Plan uses, element-wise work and reductions in SIMD kernels
// (over variable-shape columns, one engine program per combination of
// row shapes). Two cases go through a Plan: a view that only relabels
// its column's elements, with WithRelabel (the Plan shares the column's
// buffers); and views of a column of decimals or other elements the
// engine does not compute on (moved as bytes).
//
// # Overview
//
// An Expr is an immutable chain over an input tensor type (or a graph,
// see Graph expressions): Subscript (NumPy
// basic indexing: Slice, Index, new axes, ellipsis), Transpose and Reshape.
// Constructors infer the result's logical shape, dimension names and
// element type at once, without data; an invalid argument makes an
// expression whose Check reports it in NumPy's words. The text form
//
//	x[:, 1:3, ::-1]   x[..., 0]   x[None]   x.T   x.transpose(2, 0, 1)   x.reshape(4, -1)
//
// and chains of these are read by Parse and written by String, which is
// canonical and parses back to an Equal expression.
//
// In Go, the items of a subscript are All (`:`), At (`i`), From (`a:`), To
// (`:b`), Range (`a:b`), Step (`::c`), Item.By for a step on any of these
// (From(2).By(2) is `2::2`), NewAxis and Ellipsis; Span takes all three
// places with Omit for an empty one. So x[4:-4, :, ::-1] is
//
//	expr.Subscript(x, expr.Range(4, -4), expr.All(), expr.Step(-1))
//
// Before any data, Expr.Metadata gives the result's logical shape and
// names, and Plan.ResultType the result column's type, for an output
// schema.
//
// CompilePlan lowers an expression to a Plan, in the manner of regexp/syntax:
// every chain of slices, indexes, transposes and new axes becomes one
// strided view over the input's physical elements, the input's own
// permutation included; a reshape joins the view when NumPy's no-copy rule
// allows it and otherwise ends a stage. Plan.Eval materializes a whole
// column, Plan.EvalInto writes into a caller's buffer, Apply evaluates one
// fixedshape.Tensor.
//
// # Computing
//
// After its views an expression may compute, element by element and then
// with at most one reduction (and element-wise operations on the reduced
// values):
//
//	x.astype(float32)           Astype: NumPy's conversion (see below)
//	x / 255 - [0.5, 0.25, 0.1]  Arith, ArithLeft: + - * / with a Python
//	                            scalar (Int, Float) or a constant tensor
//	                            (Floats, Ints, Array; `float32([...])`)
//	                            broadcast by NumPy's rules
//	x.clip(0, 1)  abs(x)  sqrt(x)              Clip, Abs, Sqrt
//	x.sum(axis=(0, 1), keepdims=True)          Reduce: sum, mean, min,
//	x.mean()  x.argmax(axis=1)  norm(x, axis=-1)  max, argmax, argmin, norm,
//	x.var()  x.std(axis=0, ddof=1)                var, std (ReduceDdof)
//	dot(x, c)  cosine(x, c)  l2(x, c)  sqeuclidean(x, c)  Similarity to a
//	                            constant by a search.Metric; l2sq(x, c)
//	                            is read as sqeuclidean(x, c)
//
// Reductions also read as functions (`sum(x, axis=1)`, `np.max(x)`). Axis
// numbers are logical axes of one tensor; the row axis is not addressable.
// A chain built in Go on Input refuses a view operation after a computing
// one and a second reduction (its Check fails); the text, and graphs built
// on X and Col, take them (see Graph expressions).
//
// Result element types are NumPy 2's (NEP 50): a Python scalar is weak,
// so uint8 * 2 stays uint8 (wrapping around) and a Python integer out of
// the tensor type's range is an error, while a Python float with an
// integer tensor gives float64; a constant tensor promotes as an array
// (a list of floats is float64, so float32 - [0.5] is float64; write
// float32([0.5]) to stay in float32); division of integers gives float64;
// sqrt of 8-bit integers float16, of 16-bit ones float32. Sum gives int64
// or uint64 for integers, Mean, Norm, Var and Std float64; ArgMax and
// ArgMin int64;
// Similarity float64 unless x and the constant promote to a float type,
// except Dot of integers, which is NumPy's (x * c).sum(): products wrap
// around in the promoted integer type and the sum is int64 or uint64.
//
// Astype converts as NumPy does (integers wrap around, floats round to
// nearest even), and defines what NumPy leaves to the platform: a float
// to an integer type truncates toward zero, NaN gives 0, and values
// beyond the type's range (infinities included) saturate to its smallest
// or largest value.
//
// Floats are computed as float64 rounded to the result type after every
// operation, which for + - * / and sqrt is exactly float32 (or float16)
// arithmetic. Sums accumulate floats in float64 (float16 and float32
// inputs too) and pairwise along the innermost axis, at least as accurate
// as NumPy; similarities (dot, cosine, l2, sqeuclidean) accumulate the
// way package search's do, with its kernels and formulas: a float32
// similarity sums in float32 (32 partial sums, as FAISS and BLAS do) and
// gives the bits the search command gives (Similarity); min and max
// propagate NaN, argmax and argmin return the first NaN (or the first
// of equal extremes); an empty sum is 0 and an empty mean NaN, and an
// empty min, max, argmax or argmin fails Check in NumPy's words. Clip is
// NumPy's minimum(maximum(x, lo), hi), so a NaN element or a NaN bound
// gives NaN (float64 for an integer tensor, as
// a float bound promotes it). Norm is numpy.linalg.norm with its default
// ord: over all axes (axis=None) the L2 norm of the flattened tensor,
// over one axis the vector norm, over two the Frobenius norm (the L2
// norm of those elements); more axes, or none (axis=()), fail Check with
// NumPy's "Improper number of dimensions to norm.". Var and Std are
// numpy.var and numpy.std: sum(|x - mean|^2) / (N - ddof) and its square
// root, with ddof= (an integer >= 0, default 0) in the text form; they
// accumulate in float64 the count, mean and squared deviations of the
// elements shifted by the first one (two passes over each contiguous run,
// Welford's update element by element, runs merged by Chan's formula),
// as accurate as NumPy's two passes also far from 0 (1e8 + noise). NaN
// propagates, an empty reduction is NaN, and N - ddof <= 0 gives NaN (or
// +Inf when the deviations are not all 0), NumPy's values without its
// warning.
//
// A computing plan reads each element of its view once, through the
// view's strides (no intermediate column), in the source's memory order
// for a reduction. Plan.Eval returns the result: a tensor column, or a
// plain Arrow array (*array.Float64, *array.Int64...) when a reduction
// leaves no axes (Plan.Scalar); Plan.ResultType (Program.Schema) gives
// its type before any data. Plan.EvalInto takes computing plans too;
// Apply takes view plans only.
//
// # Variable-shape columns
//
// An expression over a variable-shape column (package varshape) compiles
// one engine program per distinct row shape (per combination, over
// several such columns): each row evaluates the expression on an input
// of its own shape, names and permutation, so `x[:224, :224]` crops every
// row and `x[17]` fails on the rows with 17 rows or fewer. The Program's
// result type is decided from the expression and the column type alone,
// before any row is seen (a writer's schema is fixed before its first
// batch): a *fixedshape.Type when the result shape is the same for every
// input shape the type allows, and a *varshape.Type otherwise, whose
// uniform shape fixes the result axes that do not depend on the input's
// free sizes. An axis of the result is fixed when it comes from a fixed
// axis of the type's uniform shape (sliced, indexed or moved), from a new
// axis, or from a reshape that names its size; an axis sliced from a free
// one is not, whatever the slice (`x[:224, :224]` of images of any size
// has fewer rows for a smaller image), and neither is the -1 of a reshape
// of an input with a free size (the type is found by typing the
// expression on probe row shapes: large, small, empty, and of the sizes
// of its constants). Results of no element make a variable-shape type.
// WithResultType replaces that type by the caller's (a fixed shape known
// to hold for every row).
//
// Computing expressions work there too: a result with no axes left (x.mean(), dot(x, c)) is
// a plain column of one value per row; x.astype(float32).mean(axis=(0,
// 1)) of images of any height and width is a fixed-shape (3) column (a
// constant broadcast against the tensor keeps the tensor's axes, with the
// constant's size on the axes where it has one other than 1); an
// element-wise result keeps the rows' shapes. Every batch is evaluated
// into the result type; a row that does not fit it, or whose shape the
// expression fails on (the max of an empty row, a constant that does not
// broadcast against it), fails the call, naming the row and its shape.
// Null rows are null (zero-filled in a fixed-shape or plain result, empty
// in a variable-shape one).
//
// Compile takes graphs over variable-shape columns too (expressions
// beyond one chain, several columns): see Graph expressions.
//
// # Graph expressions
//
// The text reads any sub-expression any number of times and combines
// expressions of one or several columns, with Python's precedence:
//
//	a + b  a - b  a * b  a / b  a // b  a % b  a ** b  -a  a @ b
//	a < b  a <= b  a > b  a >= b  a == b  a != b      (bool tensors)
//	a & b  a | b  a ^ b  ~a                           (integers and bool)
//	where(c, a, b)  minimum(a, b)  maximum(a, b)
//	exp log log1p expm1 tanh floor ceil round sign square isnan isfinite abs sqrt
//	a.any()  a.all(axis=0)  and the reductions above, anywhere and nested
//	dot(a, b)  cosine(a, b)  l2(a, b)  sqeuclidean(a, b)
//	concatenate((a, b), axis=k)  stack((a, b), axis=k)  einsum("ij,jk->ik", a, b)
//	(a * 2).T[0]  a.reshape(2, -1)  a.astype(float32)  a.astype(bool)  views after computing
//	load("W.npy")                                      a constant of WithLoad
//
// with NumPy's broadcasting between the tensors of one row, per-row
// numbers (plain columns) and constants. Types follow NumPy 2: a Python
// scalar is weak (NEP 50, as above), while tensors, constant tensors and
// plain columns (0-D arrays, not weak) promote as arrays (int8 with uint8
// gives int16, int64 with uint64 float64, float16 with int16 float32);
// comparisons give bool; / of integers float64; & | ^ ~ take integers
// and bool only; bool + bool is logical or, bool * bool logical and, and
// bool - bool NumPy's error; exp and the other float functions of
// integers compute in the smallest float that holds them; floor, ceil and
// round keep integers. Matmul follows numpy.matmul (1-D operands promoted
// and their axis removed, batch axes broadcast; integers wrap around);
// einsum takes two operands with explicit or implicit output subscripts
// and ellipses, and sums in the operands' promoted type. Similarities
// between two tensors take tensors of one shape (or shapes that
// broadcast), with the result types of Similarity.
//
// In Go, X (the input column) and Col (a column by name) start graph
// expressions, which Binary, Call, Where, MatMul, Concatenate, Stack,
// Einsum, SimilarityOf, Lit (a constant operand), Load and every
// constructor above (Subscript, Transpose, Reshape, Astype, Clip, Abs,
// Sqrt, Reduce, Similarity, Arith) extend; their String parses back to an
// Equal expression (Parse with a nil x). A graph is typed by Compile
// (CompileExpr) against the schema: before that its Metadata is the zero
// Metadata and its ElemType nil. Compile decides every NumPy rule before
// data (promotion, broadcast shapes, axes, index arithmetic, the matmul
// and einsum rules) and fails with NumPy's words at the offending
// operator: "operands could not be broadcast together with shapes (3,4)
// (5,)", "matmul: Input operand 1 has a mismatch in its core dimension
// 0, ...".
//
// Graphs read fixed-shape tensor columns (a permuted layout is read
// through its permutation, no copy), variable-shape ones (see below) and
// plain numeric or bool columns. A row is null in the result when any
// column the graph reads is null there. A graph result names its axes as
// a chain would: names follow their axes through views and reductions,
// element-wise operations keep the names their operands agree on (an
// axis two operands name differently, or that only constants and
// unnamed columns give, is unnamed: ""), a matrix product keeps the
// batch axes', the left operand's rows' and the right operand's columns'
// names, concatenate and stack those their operands agree on (stack's new
// axis unnamed); einsum results are unnamed, and a result with no named
// axis has no names (variable-shape results have none). A result with no axes is a plain column (one value per row) when the
// graph reduces, computes a similarity, multiplies matrices or reads a
// plain column, and a 0-D tensor column otherwise, as a chain's.
// Program.Eval evaluates a graph over a record batch; EvalColumn takes
// graphs that read one column. Program.Graph tells a graph program from
// a chain; Fuse makes several graph programs of one schema the roots of
// one engine program, which reads each column once per batch and
// computes their common sub-expressions once (fstensor eval fuses its
// -e NAME=EXPR outputs so).
//
// A graph reading variable-shape columns (each row its own shape: two
// such columns, one with fixed-shape and plain columns and constants) is
// compiled to one engine program per combination of the row shapes of
// those columns, the 64 most recently used kept per Program, and each
// run of consecutive rows of one combination goes through its program,
// which writes into the result's buffers. Compile decides the result
// type before data by lowering the graph on probe row shapes (two large
// sizes for every free size, sizes 1 to 3, and the sizes of the graph's
// constants and fixed-shape columns): a result with no axis is a plain
// column; one whose every axis has one size on every probe where the
// graph is valid is a fixed-shape column (x.sum(axis=(0, 1)) of images
// whose channel axis is uniform, x @ W of vectors); any other is a
// variable-shape column with the number of dimensions the graph gives
// and a uniform shape of the axes of one size. A bool result whose shape
// varies (x > 0, isnan(x), x[:, 1:] == 0) is a variable-shape column of
// bool elements, bit-packed in its list<bool> data, each row from the bit
// after the previous one's; a variable-shape bool column is read the same
// way, so its views (m.T, m[::-1]) run in the engine too, not through a
// Plan per row shape. A graph
// valid on no probe fails with the error of the first, naming its
// shapes. NumPy's rules are checked per combination: a
// row whose shapes do not broadcast against each other (or against a
// constant or a fixed-shape column), that an index or an empty reduction
// fails on, or whose result does not fit the type decided before data
// fails Eval with an error naming the row and its columns' shapes, in
// NumPy's words. Fuse takes such programs; the roots of a fused program
// that read different columns run apart, each with its own null rows.
//
// # Layout
//
// Axis numbers and sizes in expressions are logical. Results are dense
// row-major (no permutation); with WithRelabel a result that only relabels
// the input's elements (a transpose, a reshape of a dense layout) is
// returned as the input's buffers under a type whose permutation describes
// them.
//
// # Memory
//
// Expressions and plans hold no Arrow memory. Eval allocates the result's
// values and validity from the allocator given by WithAllocator; the
// caller releases the result. Without WithAllocator, buffers come from
// memory.DefaultAllocator, except the values of a result of 256 KiB or
// more (reuse.MinSize): those reuse the memory of results released before, which the
// evaluation overwrites whole, so that a loop that releases each result
// before the next pays neither the page faults of fresh memory nor Go's
// zeroing of freed memory (a result as large as its 614 MB input took
// about three times as long to compute into fresh memory). The memory waiting
// for reuse is Go memory in a sync.Pool: the garbage collector reclaims
// what stays unused, and a result never released is collected as any Go
// value. With WithAllocator, the values of such results reuse memory the
// same way when the allocator is a memory.GoAllocator, and when it offers
// a recycled variant of itself (a hugepage.Allocator keeps freed
// mappings for them, its Recycled); any other allocator (a checked one)
// allocates them. A relabelled result shares the input's buffers and holds its own
// references to them.
// Copies split rows across up to GOMAXPROCS goroutines (WithWorkers) and
// allocate nothing per tensor; computing plans allocate per-worker
// scratch of a few KiB per call. Null tensors stay null (their results
// too) and their slots are zero-filled. Results of 1 MiB or more are
// written with non-temporal stores where the kernels allow.
//
// # Errors
//
// Every error wraps arrow.ErrInvalid (an *Error), except that evaluating
// into a type fixedshape cannot represent (a size-0 dimension) fails with
// fixedshape's error wrapping arrow.ErrNotImplemented. Parse never panics
// and limits its input (MaxText, MaxOps, MaxInt). An invalid option value
// (WithAllocator(nil), WithWorkers below 1) fails the evaluation before it
// starts with an *Error wrapping fstensor.ErrOption too.
package expr
