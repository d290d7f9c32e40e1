//go:build cgo

package capi_test

import (
	"errors"
	"math"
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/codec/dlpack/internal/capi"
	"github.com/fstensor/fstensor/codec/dlpack/internal/dltype"
	"github.com/fstensor/fstensor/codec/internal/codectest"
	"github.com/google/go-cmp/cmp"
)

var (
	f32 = dltype.DataType{Code: 2, Bits: 32, Lanes: 1}
	cpu = dltype.Device{Type: 1}
)

// owner counts its releases.
type owner struct{ released int }

func (o *owner) Release() { o.released++ }

// TestNew exports descriptions as both struct kinds and checks every
// field, the pin-free data pointer, Outstanding and that the deleter
// releases the owner once.
func TestNew(t *testing.T) {
	data := make([]byte, 4*24)
	tests := []struct {
		name string
		d    capi.Desc
	}{
		{name: "0-D", d: capi.Desc{Data: data[:4], Device: cpu, DataType: f32}},
		{name: "non-square", d: capi.Desc{Data: data[:48], Device: cpu, DataType: f32, Shape: []int64{3, 4}, Strides: []int64{4, 1}}},
		{name: "3-cycle column", d: capi.Desc{Data: data, Device: cpu, DataType: f32, Shape: []int64{1, 2, 3, 4}, Strides: []int64{24, 1, 8, 2}}},
		{name: "size-0 dimension, no data", d: capi.Desc{Device: dltype.Device{Type: 1, ID: 3}, DataType: f32, Shape: []int64{0, 2}, Strides: []int64{2, 1}}},
	}
	for _, tt := range tests {
		for _, legacy := range []bool{false, true} {
			name := tt.name
			if legacy {
				name += "/legacy"
			}
			t.Run(name, func(t *testing.T) {
				o := &owner{}
				before := capi.Outstanding()
				var l dltype.Layout
				var ptr unsafe.Pointer
				var del func()
				if legacy {
					m, err := capi.NewLegacy(tt.d, o)
					if err != nil {
						t.Fatal(err)
					}
					l, ptr, del = m.Layout(), m.Data(), m.Delete
				} else {
					m, err := capi.NewVersioned(tt.d, o)
					if err != nil {
						t.Fatal(err)
					}
					if major, minor := m.Version(); major != capi.VersionMajor || minor != 1 || m.Flags() != 1 {
						t.Errorf("version %d.%d, flags %b; want 1.1, READ_ONLY", major, minor, m.Flags())
					}
					l, ptr, del = m.Layout(), m.Data(), m.Delete
				}
				if d := capi.Outstanding() - before; d != 1 {
					t.Errorf("Outstanding grew by %d, want 1", d)
				}
				want := dltype.Layout{Device: tt.d.Device, DataType: f32, Shape: tt.d.Shape, Strides: tt.d.Strides}
				if want.Shape == nil {
					want.Shape, want.Strides = []int64{}, []int64{}
				}
				if diff := cmp.Diff(want, l); diff != "" {
					t.Errorf("layout (-want +got):\n%s", diff)
				}
				if wantPtr := unsafe.Pointer(unsafe.SliceData(tt.d.Data)); len(tt.d.Data) == 0 && ptr != nil || len(tt.d.Data) > 0 && ptr != wantPtr {
					t.Errorf("data pointer %p, want %p", ptr, wantPtr)
				}
				if o.released != 0 {
					t.Errorf("owner released %d times before the deleter", o.released)
				}
				del()
				if o.released != 1 || capi.Outstanding() != before {
					t.Errorf("after the deleter: owner released %d times, Outstanding %d; want 1, %d", o.released, capi.Outstanding(), before)
				}
			})
		}
	}
}

func TestNewErrors(t *testing.T) {
	before := capi.Outstanding()
	o := &owner{}
	shape := make([]int64, capi.MaxNDim+1)
	if _, err := capi.NewVersioned(capi.Desc{DataType: f32, Shape: shape, Strides: shape}, o); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("%d dimensions: error = %v, want arrow.ErrInvalid", len(shape), err)
	}
	if o.released != 1 || capi.Outstanding() != before {
		t.Errorf("after a failed export: owner released %d times, Outstanding %d; want 1, %d", o.released, capi.Outstanding(), before)
	}
	defer func() {
		if recover() == nil {
			t.Error("NewLegacy with 2 strides for 1 dimension did not panic")
		}
	}()
	_, _ = capi.NewLegacy(capi.Desc{DataType: f32, Shape: []int64{2}, Strides: []int64{1, 1}}, o)
}

func TestCheckedLayout(t *testing.T) {
	l := dltype.Layout{Device: cpu, DataType: f32, Shape: []int64{2, 3}, Strides: []int64{1, 2}, ByteOffset: 8}
	tests := []struct {
		name    string
		corrupt func(*capi.ManagedTensorVersioned)
		want    dltype.Layout
		wantErr bool
	}{
		{name: "well-formed", corrupt: func(*capi.ManagedTensorVersioned) {}, want: l},
		{name: "0-D", corrupt: func(m *capi.ManagedTensorVersioned) { capi.SetNDim(m, 0) },
			want: dltype.Layout{Device: cpu, DataType: f32, Shape: []int64{}, Strides: []int64{}, ByteOffset: 8}},
		{name: "negative ndim", corrupt: func(m *capi.ManagedTensorVersioned) { capi.SetNDim(m, -1) }, wantErr: true},
		{name: "ndim above MaxNDim", corrupt: func(m *capi.ManagedTensorVersioned) { capi.SetNDim(m, capi.MaxNDim+1) }, wantErr: true},
		{name: "huge ndim", corrupt: func(m *capi.ManagedTensorVersioned) { capi.SetNDim(m, math.MaxInt32) }, wantErr: true},
		{name: "NULL shape", corrupt: capi.SetNullShape, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := capi.NewSynthetic(l, 64, nil)
			defer m.Delete()
			tt.corrupt(m)
			got, err := capi.VersionedTensor(m).CheckedLayout()
			if codectest.WantInvalid(t, "CheckedLayout", err, tt.wantErr) {
				return
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("layout (-want +got):\n%s", diff)
			}
		})
	}
	legacy := capi.NewSyntheticLegacy(dltype.Layout{Device: cpu, DataType: f32, Shape: []int64{4}}, 16, nil)
	defer legacy.Delete()
	got, err := capi.LegacyTensor(legacy).CheckedLayout()
	if diff := cmp.Diff(dltype.Layout{Device: cpu, DataType: f32, Shape: []int64{4}}, got); diff != "" || err != nil {
		t.Errorf("legacy layout (-want +got), error %v:\n%s", err, diff)
	}
}

func TestBytes(t *testing.T) {
	fill := []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}
	tests := []struct {
		name       string
		byteOffset uint64
		nullData   bool
		off, n     int
		want       []byte
		wantErr    bool
	}{
		{name: "whole", off: 0, n: 16, want: fill},
		{name: "byte offset", byteOffset: 4, off: 0, n: 8, want: fill[4:12]},
		{name: "negative strides reach below byte offset", byteOffset: 12, off: -8, n: 8, want: fill[4:12]},
		{name: "empty", n: 0, want: nil},
		{name: "empty with NULL data", nullData: true, n: 0, want: nil},
		{name: "negative length", n: -1, wantErr: true},
		{name: "NULL data", nullData: true, n: 4, wantErr: true},
		{name: "byte offset above int", byteOffset: math.MaxInt64 + 1, n: 4, wantErr: true},
		{name: "byte offset + off overflows", byteOffset: math.MaxInt64, off: 1, n: 4, wantErr: true},
		{name: "below address 0", off: math.MinInt64, n: 4, wantErr: true},
		{name: "span wraps", byteOffset: math.MaxInt64, n: math.MaxInt, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := capi.NewSynthetic(dltype.Layout{Device: cpu, DataType: dltype.DataType{Code: 1, Bits: 8, Lanes: 1},
				Shape: []int64{16}, ByteOffset: tt.byteOffset}, len(fill), fill)
			defer m.Delete()
			if tt.nullData {
				capi.SetNullData(m)
			}
			tn := capi.VersionedTensor(m)
			if tn.HasData() == tt.nullData {
				t.Errorf("HasData = %v with NULL data %v", tn.HasData(), tt.nullData)
			}
			got, err := tn.Bytes(tt.off, tt.n)
			if codectest.WantInvalid(t, "Bytes", err, tt.wantErr) {
				return
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("bytes (-want +got):\n%s", diff)
			}
			if len(got) > 0 && unsafe.Pointer(&got[0]) != unsafe.Add(m.Data(), int(tt.byteOffset)+tt.off) {
				t.Errorf("bytes at %p do not alias the producer's data %p", &got[0], m.Data())
			}
		})
	}
}

// FuzzBytes checks Tensor.Bytes on any byte_offset, offset and length:
// never a panic, errors wrap arrow.ErrInvalid, and a success is exactly
// the n bytes at data + byte_offset + off (no byte is read).
func FuzzBytes(f *testing.F) {
	f.Add(uint64(0), 0, 16)
	f.Add(uint64(12), -8, 8)
	f.Add(uint64(math.MaxInt64), 1, 4)
	f.Add(uint64(0), math.MinInt64, 1)
	f.Add(uint64(1<<63), 0, -1)
	f.Fuzz(func(t *testing.T, byteOffset uint64, off, n int) {
		s := capi.NewSynthetic(dltype.Layout{Device: cpu, DataType: f32, Shape: []int64{4}, ByteOffset: byteOffset}, 16, nil)
		defer s.Delete()
		b, err := capi.VersionedTensor(s).Bytes(off, n)
		if err != nil {
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("error %v does not wrap arrow.ErrInvalid", err)
			}
			return
		}
		if n < 0 || len(b) != n || cap(b) != n {
			t.Fatalf("Bytes(%d, %d) = %d bytes (cap %d)", off, n, len(b), cap(b))
		}
		if n > 0 {
			want := uintptr(s.Data()) + uintptr(byteOffset) + uintptr(off)
			if got := uintptr(unsafe.Pointer(unsafe.SliceData(b))); got != want {
				t.Fatalf("Bytes(%d, %d) at %#x, want %#x", off, n, got, want)
			}
		}
	})
}
