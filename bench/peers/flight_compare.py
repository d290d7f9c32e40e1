"""DoGet throughput of `fstensor serve` beside a pyarrow.flight (Arrow C++)
server serving the same IPC file, same run.

usage: python flight_compare.py FSTENSOR_BIN [MiB] [ROUNDS]

The file (float32 64x64 tensors and an int64 id, batches of 1,024 rows) is
written to /dev/shm. Clients are pyarrow.flight processes that read every
batch and drop it. Two ways to read with K clients:
  whole: each client fetches the whole file (K x the bytes);
  parts: the K clients share the endpoints of GetFlightInfo (fstensor cuts
         the file with --endpoint-mib; the C++ server, written here as
         pyarrow's examples write one, gives one endpoint per K-th of the
         batches so both serve the same parts).
Prints GB/s of batch buffers received (median of ROUNDS) and the ratio, and
the GB served per CPU-second of each server process (the cost of serving,
less sensitive to other load on the machine than the wall clock)."""
import json, multiprocessing as mp, os, shutil, signal, socket, subprocess, sys, tempfile, time
import numpy as np, pyarrow as pa, pyarrow.flight as fl, pyarrow.ipc as ipc

BIN = sys.argv[1]
MIB = int(sys.argv[2]) if len(sys.argv) > 2 else 256
ROUNDS = int(sys.argv[3]) if len(sys.argv) > 3 else 3
NAME = "t.arrow"
# gRPC channels do not survive fork: client processes start fresh.
MP = mp.get_context("spawn")


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


class CppServer(fl.FlightServerBase):
    """Serves the file mapped, by batch ranges: the ticket is JSON with the
    path and optionally offset/limit in rows (whole batches here)."""

    def __init__(self, loc, root):
        super().__init__(loc)
        self.root = root

    def _reader(self, name):
        return ipc.open_file(pa.memory_map(os.path.join(self.root, name)))

    def get_flight_info(self, ctx, desc):
        name = desc.path[0].decode()
        r = self._reader(name)
        n = r.num_record_batches
        rows = [r.get_batch(i).num_rows for i in range(n)]
        k = 8  # parts
        eps, at = [], 0
        for j in range(k):
            lo, hi = j * n // k, (j + 1) * n // k
            cnt = sum(rows[lo:hi])
            t = json.dumps({"path": name, "offset": at, "limit": cnt}).encode()
            eps.append(fl.FlightEndpoint(t, []))
            at += cnt
        return fl.FlightInfo(r.schema, desc, eps, sum(rows), -1)

    def do_get(self, ctx, ticket):
        t = json.loads(ticket.ticket)
        table = self._reader(t["path"]).read_all()
        if "limit" in t:
            table = table.slice(t.get("offset", 0), t["limit"])
        return fl.RecordBatchStream(table)


def run_cpp_server(port, root):
    CppServer(f"grpc://127.0.0.1:{port}", root).serve()


def fetch(port, tickets, ready, go, q):
    c = fl.FlightClient(f"grpc://127.0.0.1:{port}")
    c.wait_for_available()
    ready.put(1)
    go.wait()
    n = 0
    for tk in tickets:
        r = c.do_get(fl.Ticket(tk))
        while True:
            try:
                b = r.read_chunk().data
            except StopIteration:
                break
            n += sum(buf.size for col in b.columns for buf in col.buffers() if buf is not None)
    q.put(n)


def measure(port, clients, parts):
    """GB/s from the moment every client process is up and connected."""
    if parts:
        info = fl.FlightClient(f"grpc://127.0.0.1:{port}").get_flight_info(fl.FlightDescriptor.for_path(NAME))
        eps = [e.ticket.ticket for e in info.endpoints]
        work = [eps[k::clients] for k in range(clients)]
    else:
        work = [[json.dumps({"path": NAME}).encode()]] * clients
    ready, go, q = MP.Queue(), MP.Event(), MP.Queue()
    ps = [MP.Process(target=fetch, args=(port, w, ready, go, q)) for w in work]
    for p in ps:
        p.start()
    for _ in ps:
        ready.get()
    t0 = time.perf_counter()
    go.set()
    total = sum(q.get() for _ in ps)
    wall = time.perf_counter() - t0
    for p in ps:
        p.join()
    return total / wall / 1e9, total


def cpu_seconds(pid):
    """User and system CPU time of process pid, in seconds (Linux)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure_cpu(pid, port, clients, parts):
    """GB/s, and GB per CPU-second of the server process pid."""
    c0 = cpu_seconds(pid)
    gbs, total = measure(port, clients, parts)
    return gbs, total / 1e9 / max(cpu_seconds(pid) - c0, 1e-9)


def wait_port(port):
    for _ in range(300):
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"server on {port} did not start")


def main():
    d = tempfile.mkdtemp(prefix="flightcmp-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    rows = MIB * 1024 * 1024 // (64 * 64 * 4)
    typ = pa.fixed_shape_tensor(pa.float32(), [64, 64])
    vals = np.random.default_rng(1).standard_normal(rows * 4096, dtype=np.float32)
    arr = pa.ExtensionArray.from_storage(typ, pa.FixedSizeListArray.from_arrays(pa.array(vals), 4096))
    tbl = pa.table({"id": pa.array(np.arange(rows, dtype=np.int64)), "x": arr})
    # An explicit sink: ipc.new_file(path) keeps its file open for writing
    # until the writer is garbage-collected, and the server does not map a
    # file that a process holds open for writing (it gets no lease).
    with pa.OSFile(os.path.join(d, NAME), "wb") as sink, ipc.new_file(sink, tbl.schema) as w:
        w.write_table(tbl, max_chunksize=1024)
    del vals, arr, tbl
    pf, pp = free_port(), free_port()
    part_mib = max(MIB // 8, 1)
    fs = subprocess.Popen([BIN, "serve", d, "--addr", f"127.0.0.1:{pf}", "--endpoint-mib", str(part_mib)],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ps = MP.Process(target=run_cpp_server, args=(pp, d))
    ps.start()
    try:
        wait_port(pf)
        wait_port(pp)
        print(f"file: {MIB} MiB in /dev/shm, {rows} rows of float32[64,64], batches of 1024 rows; "
              f"median of {ROUNDS} rounds; {os.cpu_count()} cores")
        print("| clients | read | fstensor serve GB/s | C++ GB/s | ratio | fstensor GB per server CPU-s | C++ GB per CPU-s | ratio |")
        print("|---:|---|---:|---:|---:|---:|---:|---:|")
        for k, parts in ((1, False), (4, False), (2, True), (4, True)):
            a, b = [], []
            for _ in range(ROUNDS):
                a.append(measure_cpu(fs.pid, pf, k, parts))
                b.append(measure_cpu(ps.pid, pp, k, parts))
            ma, mb = float(np.median([x[0] for x in a])), float(np.median([x[0] for x in b]))
            ca, cb = float(np.median([x[1] for x in a])), float(np.median([x[1] for x in b]))
            print(f"| {k} | {'endpoints' if parts else 'whole file'} | {ma:.2f} | {mb:.2f} | {ma / mb:.2f}x "
                  f"| {ca:.2f} | {cb:.2f} | {ca / cb:.2f}x |")
    finally:
        fs.send_signal(signal.SIGTERM)
        fs.wait()
        ps.terminate()
        ps.join()
        shutil.rmtree(d)


if __name__ == "__main__":
    main()
