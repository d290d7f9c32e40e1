//go:build cgo

// The structs of dmlc/dlpack include/dlpack/dlpack.h v1.1 (7f393bb), with
// the same layout; fstensor's deleters and helpers are declared below.
#ifndef FSTENSOR_DLPACK_H
#define FSTENSOR_DLPACK_H

#include <stdint.h>
#include <stddef.h>

typedef struct { uint32_t major; uint32_t minor; } DLPackVersion;
typedef struct { int32_t device_type; int32_t device_id; } DLDevice;
typedef struct { uint8_t code; uint8_t bits; uint16_t lanes; } DLDataType;
typedef struct {
	void *data;
	DLDevice device;
	int32_t ndim;
	DLDataType dtype;
	int64_t *shape;
	int64_t *strides;
	uint64_t byte_offset;
} DLTensor;
typedef struct DLManagedTensor {
	DLTensor dl_tensor;
	void *manager_ctx;
	void (*deleter)(struct DLManagedTensor *self);
} DLManagedTensor;
typedef struct DLManagedTensorVersioned {
	DLPackVersion version;
	void *manager_ctx;
	void (*deleter)(struct DLManagedTensorVersioned *self);
	uint64_t flags;
	DLTensor dl_tensor;
} DLManagedTensorVersioned;

#define FST_DLPACK_MAJOR 1
#define FST_DLPACK_MINOR 1
#define FST_FLAG_READ_ONLY ((uint64_t)1 << 0)
#define FST_FLAG_IS_COPIED ((uint64_t)1 << 1)

// Allocation of an exported tensor: the struct, then shape and strides.
DLManagedTensorVersioned *fst_new_versioned(int32_t ndim, uintptr_t ctx);
DLManagedTensor *fst_new_legacy(int32_t ndim, uintptr_t ctx);
// The deleters of exported tensors: release the Go handle, free the block.
void fst_delete_versioned(DLManagedTensorVersioned *m);
void fst_delete_legacy(DLManagedTensor *m);
// Call a producer's deleter, if any.
void fst_call_versioned(DLManagedTensorVersioned *m);
void fst_call_legacy(DLManagedTensor *m);
// Synthetic tensors for tests: freed by a deleter that counts its calls.
DLManagedTensorVersioned *fst_new_synthetic(int32_t ndim, int strides, size_t data_bytes);
DLManagedTensor *fst_new_synthetic_legacy(int32_t ndim, int strides, size_t data_bytes);
int64_t fst_synthetic_deletes(void);

#endif
