package dltype

import (
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/internal/errs"
)

// Code is a DLDataTypeCode of dlpack.h v1.1. Package dlpack declares the
// named codes.
type Code uint8

// The codes ArrowType accepts (dlpack.h kDLInt, kDLUInt, kDLFloat).
const (
	codeInt   Code = 0
	codeUInt  Code = 1
	codeFloat Code = 2
)

// DataType is a DLDataType: a type code, the bits of one lane and the
// number of lanes. Its wire form is 4 bytes: code, bits, lanes as a
// little-endian uint16 on little-endian hosts.
type DataType struct {
	Code  Code
	Bits  uint8
	Lanes uint16
}

// AppendBinary appends the 4-byte in-memory form of d (little-endian
// lanes, as on every little-endian host) to dst.
func (d DataType) AppendBinary(dst []byte) ([]byte, error) {
	dst = append(dst, byte(d.Code), d.Bits)
	return binary.LittleEndian.AppendUint16(dst, d.Lanes), nil
}

// String returns the form "code=2 bits=32 lanes=1".
func (d DataType) String() string {
	return fmt.Sprintf("code=%d bits=%d lanes=%d", d.Code, d.Bits, d.Lanes)
}

// ArrowType returns the fstensor element type of d. It fails with an
// error wrapping arrow.ErrInvalid when lanes != 1 or when the code and
// bits are not an fstensor element type (bool, bfloat16, complex, the
// float8/6/4 formats and opaque handles are refused).
func (d DataType) ArrowType() (arrow.DataType, error) {
	if d.Lanes != 1 {
		return nil, Errorf("dtype %v: %d lanes (want 1)", d, d.Lanes)
	}
	switch d.Code {
	case codeInt:
		switch d.Bits {
		case 8:
			return arrow.PrimitiveTypes.Int8, nil
		case 16:
			return arrow.PrimitiveTypes.Int16, nil
		case 32:
			return arrow.PrimitiveTypes.Int32, nil
		case 64:
			return arrow.PrimitiveTypes.Int64, nil
		}
	case codeUInt:
		switch d.Bits {
		case 8:
			return arrow.PrimitiveTypes.Uint8, nil
		case 16:
			return arrow.PrimitiveTypes.Uint16, nil
		case 32:
			return arrow.PrimitiveTypes.Uint32, nil
		case 64:
			return arrow.PrimitiveTypes.Uint64, nil
		}
	case codeFloat:
		switch d.Bits {
		case 16:
			return arrow.FixedWidthTypes.Float16, nil
		case 32:
			return arrow.PrimitiveTypes.Float32, nil
		case 64:
			return arrow.PrimitiveTypes.Float64, nil
		}
	}
	return nil, Errorf("dtype %v is not an fstensor element type", d)
}

// DeviceType is a DLDeviceType. Package dlpack declares CPU.
type DeviceType int32

// Device is a DLDevice.
type Device struct {
	Type DeviceType
	ID   int32
}

// Layout is a DLTensor's description without its data pointer: what the
// importer validates. Shape and Strides are in elements; nil Strides
// means compact row-major.
type Layout struct {
	Device     Device
	DataType   DataType
	Shape      []int64
	Strides    []int64
	ByteOffset uint64
}

type base = errs.Base

// Error is the error type of package dlpack. It matches arrow.ErrInvalid
// and its causes under errors.Is; its message starts with "dlpack: ".
type Error struct{ base }

// Errorf returns an *Error with the formatted message (without the
// "dlpack: " prefix, which it adds); a %w argument becomes a cause.
func Errorf(format string, args ...any) error {
	return &Error{errs.Make("dlpack", format, args...)}
}

// Wrapf returns an *Error with the formatted message that also wraps err.
func Wrapf(err error, format string, args ...any) error {
	return &Error{errs.Make("dlpack", format+": %w", append(args, err)...)}
}

// Kindf returns an *Error with the formatted message that also matches
// kind, a sentinel, without printing it.
func Kindf(kind error, format string, args ...any) error {
	return &Error{errs.Kind(kind, "dlpack", format, args...)}
}

// Optionf returns the *Error of an invalid option value (see
// errs.Option): it also matches fstensor.ErrOption.
func Optionf(name string, value any, why string) error {
	return &Error{errs.Option("dlpack", name, value, why)}
}
