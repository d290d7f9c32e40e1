package engine

import "github.com/fstensor/fstensor/search"

// DType is an element type.
type DType uint8

// The element types. Bool values are one byte (0 or 1) in the engine's
// buffers and constants, and one bit in Columns.
const (
	Invalid DType = iota
	Bool
	Int8
	Int16
	Int32
	Int64
	Uint8
	Uint16
	Uint32
	Uint64
	Float16
	Float32
	Float64
)

// Op is what a node computes.
type Op uint8

const (
	// OpInput reads input Input of Compile: per row a dense row-major
	// tensor of the input's Shape (its physical layout; a permuted
	// tensor column is an Input under a View). A plain numeric column is
	// an input of Shape [] (one value per row).
	OpInput Op = iota + 1
	// OpConst is the same tensor for every row: Data holds its values,
	// dense row-major, little-endian, in DType (Bool: one byte each).
	OpConst
	// OpView reads Args[0] through Offset and Strides (in elements of
	// Args[0]'s dense row-major layout, one stride per axis of Shape, 0
	// on a broadcast axis): index, slice, transpose, new axes, reshape
	// of a dense operand, broadcast_to. DType is Args[0]'s.
	OpView
	// OpCast converts Args[0] to DType (NumPy's astype; a float to an
	// integer truncates toward zero, NaN gives 0, values beyond the range
	// saturate). A Cast to the operand's own DType materializes it dense.
	OpCast
	// OpUnary applies Fn element by element; DType is the operand's
	// except for the predicates (IsNaN, IsFinite: Bool).
	OpUnary
	// OpBinary applies Fn to Args[0] and Args[1], whose shapes broadcast
	// by NumPy's rules to Shape and whose DTypes are equal; DType is
	// theirs, Bool for the comparisons.
	OpBinary
	// OpWhere selects Args[1] where Args[0] (Bool) is true and Args[2]
	// elsewhere; the three shapes broadcast to Shape, Args[1] and Args[2]
	// have the node's DType.
	OpWhere
	// OpReduce reduces Args[0] over Axes (sorted, distinct axes of
	// Args[0]; all of them for NumPy's axis=None) by Fn, keeping them as
	// size-1 axes when Keep. Ddof is Var and Std's delta degrees of
	// freedom. DType is the result's (NumPy's: int64 sums of integers,
	// float64 means of integers, int64 argmax...).
	OpReduce
	// OpSimilarity reduces Args[0] and Args[1] (same Shape and DType)
	// over all their axes by Metric, as package search computes it; Shape
	// is []. DType is the result's.
	OpSimilarity
	// OpMatMul multiplies matrices: Args[0] of shape (..., m, k) by
	// Args[1] of shape (..., k, n), the batch axes (...) equal (the
	// front end broadcasts them with views and promotes 1-D operands);
	// Shape is (..., m, n); the DTypes are equal. Floats accumulate in
	// their own type (float16 in float32), integers wrap around.
	OpMatMul
	// OpConcat joins Args (same DType, shapes equal but on Axis) along
	// Axis.
	OpConcat
)

// Fn is the function of a Unary, Binary or Reduce node.
type Fn uint8

// Unary functions (NumPy's ufuncs of the same names; Not is ~, logical
// for Bool and bitwise for integers; Round is numpy.round, half to even).
const (
	Neg Fn = iota + 1
	Abs
	Sqrt
	Square
	Exp
	Log
	Log1p
	Expm1
	Tanh
	Floor
	Ceil
	Round
	Sign
	IsNaN
	IsFinite
	Not
)

// Binary functions (NumPy's: FloorDiv is floor_divide, Mod is remainder
// with the divisor's sign, integer division or remainder by 0 gives 0,
// Pow of integers to a negative integer power is an error; Minimum and
// Maximum propagate NaN; And, Or, Xor are bitwise for integers and
// logical for Bool).
const (
	Add Fn = iota + 32
	Sub
	Mul
	Div
	FloorDiv
	Mod
	Pow
	Minimum
	Maximum
	Less
	LessEqual
	Greater
	GreaterEqual
	Equal
	NotEqual
	And
	Or
	Xor
)

// Reductions (NumPy's; Norm is numpy.linalg.norm's L2 norm of the reduced
// elements; ArgMax and ArgMin take one axis or all, as flat indices).
const (
	Sum Fn = iota + 64
	Mean
	Min
	Max
	ArgMax
	ArgMin
	Norm
	Var
	Std
	Any
	All
)

// Node is one node of a graph. Nodes are immutable once given to Compile
// and may be shared between roots and between graphs.
type Node struct {
	Op    Op
	Fn    Fn
	Args  []*Node
	DType DType
	Shape []int // one row's result shape

	Input   int           // OpInput: the index of the input
	Data    []byte        // OpConst
	Offset  int           // OpView
	Strides []int         // OpView
	Axes    []int         // OpReduce
	Keep    bool          // OpReduce
	Ddof    int           // OpReduce: Var, Std
	Metric  search.Metric // OpSimilarity
	Axis    int           // OpConcat
}

// Input describes one input column of a graph: per row a dense row-major
// tensor of Shape of DType.
type Input struct {
	DType DType
	Shape []int
}

// Column is one column's buffers as Run reads or writes them. Values
// holds the rows dense, row after row, each row the product of its
// shape's sizes of elements, starting at the first row Run reads or
// writes (a caller slices the buffer); Bool values are packed eight to a
// byte, least significant bit first as Arrow packs them, from bit BitOffset.
// Valid is the validity bitmap (one bit per row, 1 valid) from bit
// ValidOffset; nil on an input means no nulls.
type Column struct {
	Values      []byte
	BitOffset   int
	Valid       []byte
	ValidOffset int
}
