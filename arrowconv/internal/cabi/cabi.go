//go:build cgo

// Package cabi holds the few C Data Interface struct manipulations that
// arrow-go's cdata package does not offer. It is the only place of
// arrowconv that uses unsafe, and it needs cgo.
package cabi

/*
#include <stdint.h>
#include <stddef.h>

struct ArrowSchema {
  const char* format;
  const char* name;
  const char* metadata;
  int64_t flags;
  int64_t n_children;
  struct ArrowSchema** children;
  struct ArrowSchema* dictionary;
  void (*release)(struct ArrowSchema*);
  void* private_data;
};

// move_child moves child i of parent into out, as the C Data Interface
// allows: the child's struct is copied and marked released in place, so
// releasing the parent no longer touches it. Returns 0, or -1 when i is
// out of range or the child is already released.
static int move_child(struct ArrowSchema* parent, int64_t i, struct ArrowSchema* out) {
  if (parent == NULL || parent->release == NULL || i < 0 || i >= parent->n_children) return -1;
  struct ArrowSchema* c = parent->children[i];
  if (c == NULL || c->release == NULL) return -1;
  *out = *c;
  c->release = NULL;
  return 0;
}
*/
import "C"

import (
	"errors"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/cdata"
)

// MoveChild moves child i of the exported schema parent into out (the
// caller then releases parent, and out's consumer releases out). out
// must not hold a live schema.
func MoveChild(parent *cdata.CArrowSchema, i int, out *cdata.CArrowSchema) error {
	p := (*C.struct_ArrowSchema)(unsafe.Pointer(parent))
	o := (*C.struct_ArrowSchema)(unsafe.Pointer(out))
	if C.move_child(p, C.int64_t(i), o) != 0 {
		return errors.New("cabi: no live child schema to move")
	}
	return nil
}

// Released reports whether a C Data schema struct has been released (or
// moved): its release callback is NULL.
func Released(s *cdata.CArrowSchema) bool {
	return (*C.struct_ArrowSchema)(unsafe.Pointer(s)).release == nil
}

// ArrayReleased reports whether a C Data array struct has been released
// (or moved).
func ArrayReleased(a *cdata.CArrowArray) bool {
	// The release callback follows 5 int64 fields and 4 pointers.
	type arrowArray struct {
		length, nullCount, offset, nBuffers, nChildren int64
		buffers, children, dictionary                  unsafe.Pointer
		release                                        unsafe.Pointer
		privateData                                    unsafe.Pointer
	}
	return (*arrowArray)(unsafe.Pointer(a)).release == nil
}

// BufferAddress returns the address of buffer j of the exported array a,
// so that a test can check that an export shares a Go array's memory; 0
// when a has no such buffer.
func BufferAddress(a *cdata.CArrowArray, j int) uintptr {
	type arrowArray struct {
		length, nullCount, offset, nBuffers, nChildren int64
		buffers                                        *unsafe.Pointer
	}
	aa := (*arrowArray)(unsafe.Pointer(a))
	if j < 0 || int64(j) >= aa.nBuffers || aa.buffers == nil {
		return 0
	}
	return uintptr(unsafe.Slice(aa.buffers, aa.nBuffers)[j])
}

// ChildArray returns child i of the exported array a, or nil.
func ChildArray(a *cdata.CArrowArray, i int) *cdata.CArrowArray {
	type arrowArray struct {
		length, nullCount, offset, nBuffers, nChildren int64
		buffers                                        unsafe.Pointer
		children                                       **cdata.CArrowArray
	}
	aa := (*arrowArray)(unsafe.Pointer(a))
	if i < 0 || int64(i) >= aa.nChildren || aa.children == nil {
		return nil
	}
	return unsafe.Slice(aa.children, aa.nChildren)[i]
}

// SliceAddress returns the address of b's first byte, 0 for an empty b.
func SliceAddress(b []byte) uintptr {
	if len(b) == 0 {
		return 0
	}
	return uintptr(unsafe.Pointer(unsafe.SliceData(b)))
}
