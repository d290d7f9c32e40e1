# Evaluates fstensor expression texts with NumPy 2, row by row, for the
# oracle tests of package expr (oracle_test.go, oracle_fuzz_test.go).
# With the argument "lines" it reads one case a line and answers each on a
# line of its own, for a fuzz target that asks case by case.
#
# stdin: a JSON list of cases {"text", "rows", "dir", "cols": [{"name",
# "dtype", "shape", "data" (base64 of the logical elements, row-major,
# little-endian; bool as one byte), "nulls" (row numbers)}]}.
# stdout: a JSON list, one entry per case: {"error": NumPy's message or
# null, "kind": the exception's class, "dtype", "shape", "rows": [base64
# of the result's elements, or null for a row where an input is null],
# "scales": [per row, see scale]}.
#
# The text is evaluated as Python with each column's name bound to that
# row's tensor (a 0-D array for a plain column), the functions of the
# text form bound to NumPy's, and dot, cosine, l2 and sqeuclidean as
# expr/doc.go defines them. Warnings are silenced: NumPy's integer
# division by 0 gives 0 with a warning.
import base64, json, os, sys, warnings
import numpy as np

warnings.simplefilter("ignore")
np.seterr(all="ignore")


def promoted(x, c):
    return np.result_type(x, c if isinstance(c, (int, float)) else np.asarray(c))


def simtype(x, c):
    t = promoted(x, c)
    return t if t.kind == "f" else np.dtype(np.float64)


def dot(x, c):
    if promoted(x, c).kind in "iub":
        return np.asarray((x * c).sum())
    return np.asarray(np.sum(np.asarray(x, np.float64) * np.asarray(c, np.float64))).astype(simtype(x, c))


def cosine(x, c):
    x64 = np.asarray(x, np.float64)
    c64 = np.broadcast_to(np.asarray(c, np.float64), x64.shape)
    s = np.sum(x64 * c64) / (np.sqrt(np.sum(x64 * x64)) * np.sqrt(np.sum(c64 * c64)))
    return np.asarray(s).astype(simtype(x, c))


def sqeuclidean(x, c):
    d = np.asarray(x, np.float64) - np.asarray(c, np.float64)
    return np.asarray(np.sum(d * d)).astype(simtype(x, c))


def l2(x, c):
    return np.sqrt(sqeuclidean(x, c).astype(np.float64)).astype(simtype(x, c))


NS = {
    "np": np, "inf": np.inf, "nan": np.nan, "None": None, "True": True, "False": False,
    "abs": np.abs, "sqrt": np.sqrt, "sum": np.sum, "mean": np.mean, "min": np.min, "max": np.max,
    "argmax": np.argmax, "argmin": np.argmin, "norm": np.linalg.norm, "var": np.var, "std": np.std,
    "any": np.any, "all": np.all, "where": np.where, "minimum": np.minimum, "maximum": np.maximum,
    "exp": np.exp, "log": np.log, "log1p": np.log1p, "expm1": np.expm1, "tanh": np.tanh,
    "floor": np.floor, "ceil": np.ceil, "round": np.round, "sign": np.sign, "square": np.square,
    "isnan": np.isnan, "isfinite": np.isfinite, "matmul": np.matmul, "einsum": np.einsum,
    "concatenate": np.concatenate, "stack": np.stack, "clip": np.clip,
    "dot": dot, "cosine": cosine, "l2": l2, "sqeuclidean": sqeuclidean, "l2sq": sqeuclidean,
}
for t in ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64"]:
    NS[t] = getattr(np, t) if t != "bool" else np.bool_


def column(c, rows):
    dt = np.dtype(c["dtype"]).newbyteorder("<")
    raw = base64.b64decode(c["data"])
    if c["dtype"] == "bool":
        a = np.frombuffer(raw, dtype=np.uint8).astype(np.bool_)
    else:
        a = np.frombuffer(raw, dtype=dt).astype(dt.newbyteorder("="))
    return a.reshape([rows] + c["shape"])


def scale(text, row, ns):
    """The largest finite magnitude of the expression over the magnitudes
    of the row's tensors in float64 (for dot(a, b), sum(|a * b|)): the
    scale of an accumulation's rounding errors. 0 when that fails."""
    try:
        with np.errstate(all="ignore"):
            ns = dict(ns, **{k: np.abs(v).astype(np.float64) for k, v in row.items()})
            y = np.abs(np.asarray(eval(text, ns), dtype=np.float64))
        y = y[np.isfinite(y)]
        return float(y.max()) if y.size else 0.0
    except Exception:
        return 0.0


def evaluate(case):
    rows = case["rows"]
    cols = {c["name"]: column(c, rows) for c in case["cols"]}
    # A row is null when a column the text reads is null there.
    try:
        names = compile(case["text"], "<text>", "eval").co_names
    except SyntaxError:
        names = [c["name"] for c in case["cols"]]
    nulls = set()
    for c in case["cols"]:
        n = c["name"]
        if n in names or '"%s"' % n in case["text"] or "'%s'" % n in case["text"]:
            nulls.update(c.get("nulls") or [])
    d = case.get("dir") or "."
    res = {"error": None, "dtype": None, "shape": None, "rows": [], "scales": []}
    try:
        for i in range(rows):
            if i in nulls:
                res["rows"].append(None)
                res["scales"].append(0)
                continue
            row = {k: v[i, ...] for k, v in cols.items()}
            ns = dict(NS, col=lambda name: row[name], load=lambda f: np.load(os.path.join(d, f)))
            ns.update(row)
            y = np.asarray(eval(case["text"], ns))
            res["scales"].append(scale(case["text"], row, ns))
            res["dtype"] = str(y.dtype)
            res["shape"] = list(y.shape)
            if y.dtype == np.bool_:
                y = y.astype(np.uint8)
            res["rows"].append(base64.b64encode(np.ascontiguousarray(y).astype(y.dtype.newbyteorder("<")).tobytes()).decode())
    except Exception as e:  # NumPy's words are what the Go side checks
        res = {"error": str(e), "kind": type(e).__name__, "dtype": None, "shape": None, "rows": []}
    return res


if sys.argv[1:] == ["lines"]:
    # One case a line, one answer a line, until the end of the input.
    for line in sys.stdin:
        sys.stdout.write(json.dumps(evaluate(json.loads(line))) + "\n")
        sys.stdout.flush()
else:
    json.dump([evaluate(c) for c in json.load(sys.stdin)], sys.stdout)
