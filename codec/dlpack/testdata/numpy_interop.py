# Exchanges DLPack tensors between NumPy and package dlpack, through the C
# shared library built from capi/ (its path is argv[1]). TestNumpyDLPack
# sends the cases as JSON on stdin and checks the facts printed as JSON on
# stdout; this script reports, the Go test judges.
#
# Export cases: Go builds and exports a column or tensor; the pointer is
# wrapped in a PyCapsule ("dltensor_versioned" or "dltensor") and handed to
# np.from_dlpack through an object with __dlpack__/__dlpack_device__.
# Import cases: NumPy exports an array (x.__dlpack__), the capsule is
# consumed as DLPack says (renamed "used_..."), and Go imports the pointer.
import ctypes
import gc
import json
import sys
import weakref

import numpy as np

lib = ctypes.CDLL(sys.argv[1])
lib.fstExport.argtypes = [ctypes.c_char_p]
lib.fstExport.restype = ctypes.c_void_p
lib.fstImport.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
lib.fstImport.restype = ctypes.c_void_p
lib.fstFree.argtypes = [ctypes.c_void_p]
lib.fstFree.restype = None
lib.fstOutstanding.restype = ctypes.c_longlong
lib.fstAllocated.restype = ctypes.c_longlong
lib.fstRelease.argtypes = [ctypes.c_int]
lib.fstRelease.restype = ctypes.c_int

api = ctypes.pythonapi
api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
api.PyCapsule_New.restype = ctypes.py_object
api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
api.PyCapsule_GetPointer.restype = ctypes.c_void_p
api.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]
api.PyCapsule_SetName.restype = ctypes.c_int
api.PyCapsule_IsValid.argtypes = [ctypes.py_object, ctypes.c_char_p]
api.PyCapsule_IsValid.restype = ctypes.c_int

# A capsule keeps a pointer to its name: these live as long as the module.
VERSIONED, LEGACY = b"dltensor_versioned", b"dltensor"
USED = {VERSIONED: b"used_dltensor_versioned", LEGACY: b"used_dltensor"}


def call(fn, *args):
    p = fn(*args)
    try:
        return json.loads(ctypes.string_at(p))
    finally:
        lib.fstFree(p)


class Producer:
    """A DLPack producer over a Go export: what np.from_dlpack consumes."""

    def __init__(self, ptr, legacy):
        self.ptr, self.legacy = ptr, legacy
        self.max_versions = []
        self.capsule = None

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        self.max_versions.append(list(max_version) if max_version is not None else None)
        if self.capsule is not None:
            raise BufferError("exported twice")
        name = LEGACY if self.legacy else VERSIONED
        if not self.legacy and (max_version is None or max_version[0] < 1):
            raise BufferError("consumer does not accept DLPack 1.x")
        # No destructor: a capsule nobody consumes leaks the export, which
        # the Go test sees as Outstanding() != 0.
        self.capsule = api.PyCapsule_New(self.ptr, name, None)
        return self.capsule

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU


def export_case(c):
    r = {"name": c["name"]}
    rep = call(lib.fstExport, json.dumps(c["request"]).encode())
    if rep.get("error"):
        r["error"] = rep["error"]
        return r
    r["outstanding_exported"] = lib.fstOutstanding()
    p = Producer(rep["ptr"], c["request"].get("legacy", False))
    try:
        got = np.from_dlpack(p)
    except Exception as e:  # reported, judged by the Go test
        r["error"] = "np.from_dlpack: %r" % (e,)
        return r
    name = LEGACY if p.legacy else VERSIONED
    r["consumed"] = (api.PyCapsule_IsValid(p.capsule, USED[name]) == 1)
    p.capsule = None
    r["max_versions"] = p.max_versions
    r["dtype"] = got.dtype.str
    r["shape"] = list(got.shape)
    r["strides"] = list(got.strides)
    r["values"] = [float(v) for v in got.ravel()]
    r["same_data"] = got.size == 0 or got.ctypes.data == rep["data"]
    r["writeable"] = bool(got.flags.writeable)
    r["outstanding_held"] = lib.fstOutstanding()
    del got, p
    gc.collect()
    r["outstanding_after"] = lib.fstOutstanding()
    r["allocated_after"] = lib.fstAllocated()
    return r


def import_case(c):
    r = {"name": c["name"]}
    x = eval(c["expr"], {"np": np})
    r["want_values"] = [float(v) for v in x.ravel()]
    r["want_shape"] = list(x.shape)
    xdata = x.ctypes.data
    ref = weakref.ref(x)
    legacy = c.get("legacy", False)
    try:
        cap = x.__dlpack__() if legacy else x.__dlpack__(max_version=(1, 0))
    except Exception as e:
        r["export_error"] = "x.__dlpack__: %r" % (e,)
        return r
    name = LEGACY if legacy else VERSIONED
    r["capsule_named"] = api.PyCapsule_IsValid(cap, name) == 1
    if not r["capsule_named"]:
        return r
    ptr = api.PyCapsule_GetPointer(cap, name)
    api.PyCapsule_SetName(cap, USED[name])  # consumed: Go owns the struct
    del cap, x
    gc.collect()
    r["alive_before"] = ref() is not None
    req = {"legacy": legacy, "column": c.get("column", False), "allow_copy": c.get("allow_copy", False)}
    rep = call(lib.fstImport, ptr, json.dumps(req).encode())
    if rep.get("error"):
        r["error"], r["invalid"] = rep["error"], rep.get("invalid", False)
    else:
        r["len"], r["shape"], r["perm"], r["values"] = rep["len"], rep["shape"], rep["perm"], rep["values"]
        r["same_data"] = rep["data"] == xdata
        gc.collect()
        r["alive_held"] = ref() is not None
        r["release"] = lib.fstRelease(rep["id"])
    gc.collect()
    r["alive_after"] = ref() is not None
    r["allocated_after"] = lib.fstAllocated()
    return r


cases = json.load(sys.stdin)
out = {
    "numpy": np.__version__,
    "export": [export_case(c) for c in cases["export"]],
    "import": [import_case(c) for c in cases["import"]],
}
json.dump(out, sys.stdout)
