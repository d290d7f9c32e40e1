package dlpack

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/codec/dlpack/internal/dltype"
)

// Code is a DLDataTypeCode of dlpack.h v1.1.
type Code = dltype.Code

// The type codes of dlpack.h v1.1.
const (
	CodeInt               Code = 0
	CodeUInt              Code = 1
	CodeFloat             Code = 2
	CodeOpaqueHandle      Code = 3
	CodeBfloat            Code = 4
	CodeComplex           Code = 5
	CodeBool              Code = 6
	CodeFloat8E3M4        Code = 7
	CodeFloat8E4M3        Code = 8
	CodeFloat8E4M3B11FNUZ Code = 9
	CodeFloat8E4M3FN      Code = 10
	CodeFloat8E4M3FNUZ    Code = 11
	CodeFloat8E5M2        Code = 12
	CodeFloat8E5M2FNUZ    Code = 13
	CodeFloat8E8M0FNU     Code = 14
	CodeFloat6E2M3FN      Code = 15
	CodeFloat6E3M2FN      Code = 16
	CodeFloat4E2M1FN      Code = 17
)

// DataType is a DLDataType: a type code, the bits of one lane and the
// number of lanes. Its wire form is 4 bytes: code, bits, lanes as a
// little-endian uint16 on little-endian hosts.
//
// Its methods:
//
//   - AppendBinary(dst []byte) ([]byte, error) appends the 4-byte
//     in-memory form of d (little-endian lanes, as on every little-endian
//     host) to dst; the error is always nil.
//   - String() string returns the form "code=2 bits=32 lanes=1".
//   - ArrowType() (arrow.DataType, error) returns the fstensor element
//     type of d. It fails with an error wrapping arrow.ErrInvalid when
//     lanes != 1 or when the code and bits are not an fstensor element
//     type (bool, bfloat16, complex, the float8/6/4 formats and opaque
//     handles are refused).
type DataType = dltype.DataType

// DataTypeOf returns the DLPack type of an fstensor element type
// (int8..int64, uint8..uint64, float16, float32, float64; one lane). It
// fails with an error wrapping arrow.ErrInvalid for any other type.
func DataTypeOf(dt arrow.DataType) (DataType, error) {
	if dt == nil {
		return DataType{}, errorf("nil element type")
	}
	var c Code
	switch dt.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64:
		c = CodeInt
	case arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64:
		c = CodeUInt
	case arrow.FLOAT16, arrow.FLOAT32, arrow.FLOAT64:
		c = CodeFloat
	default:
		return DataType{}, errorf("element type %v has no DLPack type", dt)
	}
	return DataType{Code: c, Bits: uint8(dt.(arrow.FixedWidthDataType).BitWidth()), Lanes: 1}, nil
}

// DeviceType is a DLDeviceType.
type DeviceType = dltype.DeviceType

// CPU is kDLCPU, the only device this package exchanges.
const CPU DeviceType = 1

// Device is a DLDevice: fields Type (a [DeviceType]) and ID (int32).
type Device = dltype.Device

// Error is the error type of the package. It wraps arrow.ErrInvalid:
// its Unwrap() []error method returns arrow.ErrInvalid and the cause, if
// any, and its Error() string method returns the message prefixed with
// "dlpack: ".
type Error = dltype.Error

func errorf(format string, args ...any) error { return dltype.Errorf(format, args...) }

// wrapf returns an *Error that also wraps err.
func wrapf(err error, format string, args ...any) error { return dltype.Wrapf(err, format, args...) }
