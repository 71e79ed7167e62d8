#!/usr/bin/env python3
# The memleak probe's cost per allocation (docs/performance.md, "memleak"): bench-malloc
# (bench/workloads/mallocstorm.cpp) allocates and frees COUNT blocks, then keeps 1000 of 4000
# bytes, alone, under `bpflens-cli record --direct --probe memleak:pid=PID` (every allocation,
# with and without the user-stack copy; and sampled), and under its peer, a bpftrace script doing what BCC's memleak does
# (bench/bpftrace/memleak.bt; Debian packages no libbpf-tools memleak, and BCC's needs kernel
# headers this machine lacks), in the same run, REPS times each in turn (medians). The churn
# times itself (its wall and CPU time), so start-up and attaching are left out; the recorder's
# CPU and peak memory are reported on their own, and each recording's outstanding bytes are
# checked against the 4 000 000 bytes kept. With LIBBPF_TOOLS_MEMLEAK=PATH (a libbpf-tools
# memleak built from BCC's sources, which Debian does not package) that tool is measured too, as
# `memleak -p PID` (its defaults: every allocation, frame-pointer stacks by stack id).
#   bench/memleak-cost.py BUILD_DIR [COUNT] [REPS] [RATE]   (as root; BUILD_DIR has bench/ built)
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time

LEAKS = 1000
LEAK_SIZE = 4000


def libc_of(pid):
    for line in open("/proc/%d/maps" % pid):
        path = line.split()[-1]
        if re.search(r"/libc\.so\.6$|/libc-[\d.]+\.so$", path):
            return path
    raise SystemExit("process %d maps no libc" % pid)


def start_workload(bench, count, rate):
    return subprocess.Popen([bench, "--count", str(count), "--leak", str(LEAKS), "--rate",
                             str(rate)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def run_workload(proc):
    """Starts the churn, reads its timing, leaves it holding its kept blocks."""
    proc.stdin.write("g")
    proc.stdin.flush()
    r = json.loads(proc.stdout.readline())
    time.sleep(0.5)  # the kept blocks allocated
    return r


def end_workload(proc):
    proc.stdin.close()
    proc.wait(30)


def progs(prefix):
    out = subprocess.run(["bpftool", "-j", "prog", "show"], check=True, capture_output=True,
                         text=True).stdout
    return {p["id"] for p in json.loads(out) if p.get("name", "").startswith(prefix)}


def wait_loaded(proc, before, prefix, log, timeout=60):
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if proc.poll() is not None:
            raise SystemExit("the recorder exited: " + open(log).read()[-2000:])
        if progs(prefix) - before:
            time.sleep(1)
            return
        time.sleep(0.1)
    raise SystemExit("the recorder did not attach in %d s" % timeout)


def peak_rss_kb(pid):
    for line in open("/proc/%d/status" % pid):
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def alone(bench, count, rate):
    w = start_workload(bench, count, rate)
    try:
        return run_workload(w)
    finally:
        end_workload(w)


def under_bpflens(cli, bench, work, count, rate, options):
    w = start_workload(bench, count, rate)
    session = os.path.join(work, "s.bpflens")
    log = os.path.join(work, "record.log")
    spec = "memleak:pid=%d" % w.pid + ("," + options if options else "")
    before = progs("memleak_")
    with open(log, "w") as err:
        rec = subprocess.Popen([cli, "record", "--direct", "--probe", spec, "--duration", "10m",
                                "--force", "-o", session], stdout=err, stderr=err)
    try:
        wait_loaded(rec, before, "memleak_", log)
        r = run_workload(w)
        time.sleep(1.5)  # the last drain
        r["rss_kb"] = peak_rss_kb(rec.pid)
    finally:
        rec.send_signal(signal.SIGINT)
    _, status, ru = os.wait4(rec.pid, 0)
    end_workload(w)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit("the recorder failed: " + open(log).read()[-2000:])
    r["recorder_cpu"] = ru.ru_utime + ru.ru_stime
    q = subprocess.run([cli, "query", session, "--format", "csv",
                        "SELECT count(*), coalesce(sum(size * weight), 0) FROM memleak "
                        'WHERE "end" != \'freed\''], check=True, capture_output=True,
                       text=True).stdout.strip().splitlines()
    blocks, held = q[-1].split(",")
    r["outstanding"] = int(held)
    q = subprocess.run([cli, "query", session, "--format", "csv",
                        "SELECT count(*) FROM memleak"], check=True, capture_output=True,
                       text=True).stdout.strip().splitlines()
    r["kept"] = int(q[-1])
    return r


def under_bpftrace(script, bench, work, count, rate):
    w = start_workload(bench, count, rate)
    log = os.path.join(work, "bt.log")
    before = progs("")
    with open(log, "w") as out:
        bt = subprocess.Popen(["bpftrace", script, libc_of(w.pid), str(w.pid)], stdout=out,
                              stderr=subprocess.STDOUT)
    try:
        t0 = time.monotonic()
        while "Attaching" not in open(log).read() and time.monotonic() - t0 < 60:
            if bt.poll() is not None:
                raise SystemExit("bpftrace exited: " + open(log).read()[-2000:])
            time.sleep(0.1)
        time.sleep(1)
        r = run_workload(w)
        r["rss_kb"] = peak_rss_kb(bt.pid)
    finally:
        bt.send_signal(signal.SIGINT)
    _, status, ru = os.wait4(bt.pid, 0)
    end_workload(w)
    r["recorder_cpu"] = ru.ru_utime + ru.ru_stime
    # @live[address]: size, one line per block still held
    held = [int(m.group(1)) for m in re.finditer(r"^@live\[\d+\]: (\d+)$", open(log).read(),
                                                 re.M)]
    r["outstanding"] = sum(held)
    del before
    return r


def under_libbpf_tools(tool, bench, work, count, rate):
    w = start_workload(bench, count, rate)
    log = os.path.join(work, "memleak.log")
    before = progs("malloc_exit")
    with open(log, "w") as out:
        # One report, at the end (SIGINT ends its sleep); every stack, not the top 10.
        ml = subprocess.Popen([tool, "-p", str(w.pid), "-T", "1000000", "3600", "1"], stdout=out,
                              stderr=subprocess.STDOUT)
    try:
        wait_loaded(ml, before, "malloc_exit", log)
        r = run_workload(w)
        r["rss_kb"] = peak_rss_kb(ml.pid)
    finally:
        ml.send_signal(signal.SIGINT)
    _, status, ru = os.wait4(ml.pid, 0)
    end_workload(w)
    r["recorder_cpu"] = ru.ru_utime + ru.ru_stime
    text = open(log).read()
    r["outstanding"] = sum(int(m.group(1)) for m in re.finditer(
        r"^(\d+) bytes in \d+ allocations from stack", text, re.M))
    return r


def main():
    if len(sys.argv) < 2:
        raise SystemExit("usage: bench/memleak-cost.py BUILD_DIR [COUNT] [REPS] [RATE]")
    build = sys.argv[1]
    cli = os.path.join(build, "bin", "bpflens-cli")
    bench = os.path.join(build, "bench", "bench-malloc")
    if not os.path.exists(bench):
        bench = os.path.join(build, "bin", "bench-malloc")
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bpftrace", "memleak.bt")
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 200000
    reps = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    rate = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    peer = os.environ.get("LIBBPF_TOOLS_MEMLEAK")
    runs = {"alone": [], "memleak": [], "memleak stackBytes=0": [],
            "memleak sampleEvery=1000": [], "bpftrace": []}
    if peer:
        runs["libbpf-tools memleak"] = []
    with tempfile.TemporaryDirectory(prefix="bpflens-memleak-bench.") as work:
        for _ in range(reps):
            runs["alone"].append(alone(bench, count, rate))
            runs["memleak"].append(under_bpflens(cli, bench, work, count, rate, ""))
            runs["memleak stackBytes=0"].append(
                under_bpflens(cli, bench, work, count, rate, "stackBytes=0"))
            runs["memleak sampleEvery=1000"].append(
                under_bpflens(cli, bench, work, count, rate, "sampleEvery=1000"))
            runs["bpftrace"].append(under_bpftrace(script, bench, work, count, rate))
            if peer:
                runs["libbpf-tools memleak"].append(
                    under_libbpf_tools(peer, bench, work, count, rate))
    base = statistics.median(r["wall_s"] for r in runs["alone"])
    print("%d allocations%s, %d runs each, medians; us/alloc = (wall - alone) / allocations; "
          "outstanding: bytes held at the end (%d expected)" % (
              count, " at %d/s" % rate if rate else "", reps, LEAKS * LEAK_SIZE))
    print("| run | churn wall s | x alone | us/alloc added | churn CPU s | events kept | "
          "outstanding bytes | recorder CPU s | recorder peak RSS MiB |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, rs in runs.items():
        med = lambda k: statistics.median(r[k] for r in rs) if k in rs[0] else None
        wall = med("wall_s")
        fmt = lambda v, f: "-" if v is None else f % v
        print("| %s | %.3f | %.2f | %.2f | %.3f | %s | %s | %s | %s |" % (
            name, wall, wall / base, (wall - base) * 1e6 / count, med("cpu_s"),
            fmt(med("kept"), "%d"), fmt(med("outstanding"), "%d"),
            fmt(med("recorder_cpu"), "%.2f"),
            fmt(None if med("rss_kb") is None else med("rss_kb") / 1024, "%.1f")))


if __name__ == "__main__":
    main()
