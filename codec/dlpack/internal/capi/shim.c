//go:build cgo

#include <stdlib.h>
#include <string.h>
#include "dlpack.h"
#include "_cgo_export.h"

DLManagedTensorVersioned *fst_new_versioned(int32_t ndim, uintptr_t ctx) {
	size_t n = ndim > 0 ? (size_t)ndim : 0;
	DLManagedTensorVersioned *m = calloc(1, sizeof(*m) + 2 * n * sizeof(int64_t));
	if (m == NULL) return NULL;
	int64_t *dims = (int64_t *)(m + 1);
	m->version.major = FST_DLPACK_MAJOR;
	m->version.minor = FST_DLPACK_MINOR;
	m->manager_ctx = (void *)ctx;
	m->deleter = fst_delete_versioned;
	m->flags = FST_FLAG_READ_ONLY;
	m->dl_tensor.ndim = ndim;
	m->dl_tensor.shape = dims;
	m->dl_tensor.strides = dims + n;
	return m;
}

DLManagedTensor *fst_new_legacy(int32_t ndim, uintptr_t ctx) {
	size_t n = ndim > 0 ? (size_t)ndim : 0;
	DLManagedTensor *m = calloc(1, sizeof(*m) + 2 * n * sizeof(int64_t));
	if (m == NULL) return NULL;
	int64_t *dims = (int64_t *)(m + 1);
	m->manager_ctx = (void *)ctx;
	m->deleter = fst_delete_legacy;
	m->dl_tensor.ndim = ndim;
	m->dl_tensor.shape = dims;
	m->dl_tensor.strides = dims + n;
	return m;
}

void fst_delete_versioned(DLManagedTensorVersioned *m) {
	if (m == NULL) return;
	fstDLPackRelease((uintptr_t)m->manager_ctx);
	free(m);
}

void fst_delete_legacy(DLManagedTensor *m) {
	if (m == NULL) return;
	fstDLPackRelease((uintptr_t)m->manager_ctx);
	free(m);
}

void fst_call_versioned(DLManagedTensorVersioned *m) {
	if (m != NULL && m->deleter != NULL) m->deleter(m);
}

void fst_call_legacy(DLManagedTensor *m) {
	if (m != NULL && m->deleter != NULL) m->deleter(m);
}

static int64_t synthetic_deletes;

static void synthetic_delete(DLManagedTensorVersioned *m) {
	__atomic_add_fetch(&synthetic_deletes, 1, __ATOMIC_SEQ_CST);
	free(m->manager_ctx);
	free(m);
}

static void synthetic_delete_legacy(DLManagedTensor *m) {
	__atomic_add_fetch(&synthetic_deletes, 1, __ATOMIC_SEQ_CST);
	free(m->manager_ctx);
	free(m);
}

DLManagedTensorVersioned *fst_new_synthetic(int32_t ndim, int strides, size_t data_bytes) {
	size_t n = ndim > 0 ? (size_t)ndim : 0;
	DLManagedTensorVersioned *m = calloc(1, sizeof(*m) + 2 * n * sizeof(int64_t));
	if (m == NULL) return NULL;
	int64_t *dims = (int64_t *)(m + 1);
	m->version.major = FST_DLPACK_MAJOR;
	m->version.minor = FST_DLPACK_MINOR;
	m->manager_ctx = calloc(1, data_bytes > 0 ? data_bytes : 1);
	m->deleter = synthetic_delete;
	m->dl_tensor.data = m->manager_ctx;
	m->dl_tensor.device.device_type = 1;
	m->dl_tensor.ndim = ndim;
	m->dl_tensor.shape = dims;
	m->dl_tensor.strides = strides ? dims + n : NULL;
	return m;
}

DLManagedTensor *fst_new_synthetic_legacy(int32_t ndim, int strides, size_t data_bytes) {
	size_t n = ndim > 0 ? (size_t)ndim : 0;
	DLManagedTensor *m = calloc(1, sizeof(*m) + 2 * n * sizeof(int64_t));
	if (m == NULL) return NULL;
	int64_t *dims = (int64_t *)(m + 1);
	m->manager_ctx = calloc(1, data_bytes > 0 ? data_bytes : 1);
	m->deleter = synthetic_delete_legacy;
	m->dl_tensor.data = m->manager_ctx;
	m->dl_tensor.device.device_type = 1;
	m->dl_tensor.ndim = ndim;
	m->dl_tensor.shape = dims;
	m->dl_tensor.strides = strides ? dims + n : NULL;
	return m;
}

int64_t fst_synthetic_deletes(void) {
	return __atomic_load_n(&synthetic_deletes, __ATOMIC_SEQ_CST);
}
