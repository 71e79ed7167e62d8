#!/usr/bin/env python3
# The pagefault probe's cost per fault (docs/performance.md, "pagefault"): a process faulting in
# PAGES fresh anonymous pages (one write each), alone, under `bpflens-cli record --direct --probe
# pagefault` (every fault; with the default user stack copy and with stackBytes=0) and under its
# peer `perf record -e minor-faults -c 1 -g`, in the same run, REPS times each in turn (medians).
# The faulting loop measures its own CPU time (getrusage around it: the fault handling and the
# BPF program or perf's sample both run in the faulting task), so the recorder's own work and
# the process's start are left out; the recorder's CPU is reported on its own.
#   bench/pagefault-cost.py BUILD_DIR [PAGES] [REPS]      (as root)
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time

WORKLOAD = r"""
import ctypes, json, mmap, resource, sys
ctypes.CDLL(None).prctl(15, b"bench-faults", 0, 0, 0)  # PR_SET_NAME: the probe's comm filter
pages = int(sys.argv[1])
m = mmap.mmap(-1, pages * 4096)
m.madvise(mmap.MADV_NOHUGEPAGE)
before = resource.getrusage(resource.RUSAGE_SELF)
for i in range(0, pages * 4096, 4096):
    m[i] = 1
after = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"cpu": (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime),
                  "faults": after.ru_minflt - before.ru_minflt}))
"""


def irq_work_interrupts():
    """Every CPU's IRQ work interrupts (IWI in /proc/interrupts): bpf_find_vma raises one each
    time it runs with interrupts off, as a perf event program does."""
    for line in open("/proc/interrupts"):
        if line.strip().startswith("IWI:"):
            return sum(int(f) for f in line.split()[1:] if f.isdigit())
    return 0


def workload(pages, prefix=()):
    out = subprocess.run(list(prefix) + [sys.executable, "-c", WORKLOAD, str(pages)],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def pagefault_progs():
    """The ids of the pagefault programs loaded now (bpftool)."""
    progs = json.loads(subprocess.run(["bpftool", "-j", "prog", "show"], check=True,
                                      capture_output=True, text=True).stdout)
    return {p["id"] for p in progs if p.get("name", "").startswith("pagefault_")}


def wait_attached(log, proc, before, timeout=60):
    """Until the recorder's programs are loaded (it prints nothing when not on a terminal), and
    a moment more for the perf events of every CPU to be attached."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if proc.poll() is not None:
            raise SystemExit("the recorder exited: " + open(log).read()[-2000:])
        if pagefault_progs() - before:
            time.sleep(1)
            return
        time.sleep(0.1)
    raise SystemExit("the recorder did not attach in %d s" % timeout)


def under_bpflens(cli, work, pages, options):
    session = os.path.join(work, "s.bpflens")
    log = os.path.join(work, "record.log")
    spec = "pagefault:comm=bench-faults" + ("," + options if options else "")
    before = pagefault_progs()
    with open(log, "w") as err:
        proc = subprocess.Popen([cli, "record", "--direct", "--probe", spec, "--duration", "5m",
                                 "--force", "-o", session], stdout=err, stderr=err)
    try:
        wait_attached(log, proc, before)
        iwi = irq_work_interrupts()
        r = workload(pages)
        r["iwi"] = irq_work_interrupts() - iwi
        time.sleep(1.5)  # the last drain
    finally:
        proc.send_signal(signal.SIGINT)
    _, status, ru = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit("the recorder failed: " + open(log).read()[-2000:])
    show = subprocess.run([cli, "show", session, "--probe", "pagefault"], check=True,
                          capture_output=True, text=True).stdout
    m = re.search(r"pagefault\s+events (\d+), lost (\d+), BPF runs (\d+) costing ([\d.]+) ms",
                  show)
    if not m:
        raise SystemExit("no pagefault line in show:\n" + show)
    r["kept"], r["lost"], r["runs"] = int(m.group(1)), int(m.group(2)), int(m.group(3))
    r["bpf_ms"] = float(m.group(4))
    r["recorder_cpu"] = ru.ru_utime + ru.ru_stime
    return r


def under_perf(work, pages):
    data = os.path.join(work, "perf.data")
    r = workload(pages, ["perf", "record", "-q", "-e", "minor-faults", "-c", "1", "-g", "-o",
                         data, "--"])
    report = subprocess.run(["perf", "report", "-i", data, "--stats"], capture_output=True,
                            text=True).stdout
    m = re.search(r"SAMPLE events:\s+(\d+)", report)
    r["kept"] = int(m.group(1)) if m else -1
    m = re.search(r"LOST events:\s+(\d+)", report)
    r["lost"] = int(m.group(1)) if m else 0
    return r


def main():
    if len(sys.argv) < 2:
        raise SystemExit("usage: bench/pagefault-cost.py BUILD_DIR [PAGES] [REPS]")
    cli = os.path.join(sys.argv[1], "bin", "bpflens-cli")
    pages = int(sys.argv[2]) if len(sys.argv) > 2 else 51200
    reps = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    runs = {"alone": [], "pagefault": [], "pagefault stackBytes=0": [], "perf -g": []}
    with tempfile.TemporaryDirectory(prefix="bpflens-pagefault-bench.") as work:
        for _ in range(reps):
            runs["alone"].append(workload(pages))
            runs["pagefault"].append(under_bpflens(cli, work, pages, ""))
            runs["pagefault stackBytes=0"].append(under_bpflens(cli, work, pages, "stackBytes=0"))
            runs["perf -g"].append(under_perf(work, pages))
    alone = statistics.median(r["cpu"] for r in runs["alone"])
    print("%d pages, %d runs each, medians; us/fault = (CPU - alone) / faults" % (pages, reps))
    print("| run | faults | loop CPU s | us/fault added | BPF runs | BPF ms | IRQ works | kept | "
          "lost | recorder CPU s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, rs in runs.items():
        med = lambda k: statistics.median(r[k] for r in rs) if k in rs[0] else None
        cpu, faults = med("cpu"), med("faults")
        bpf = med("bpf_ms")
        rec = med("recorder_cpu")
        print("| %s | %d | %.3f | %.2f | %s | %s | %s | %s | %s | %s |" % (
            name, faults, cpu, (cpu - alone) * 1e6 / faults,
            "-" if bpf is None else "%d" % med("runs"), "-" if bpf is None else "%.1f" % bpf,
            "-" if bpf is None else "%d" % med("iwi"),
            "-" if med("kept") is None else "%d" % med("kept"),
            "-" if med("lost") is None else "%d" % med("lost"),
            "-" if rec is None else "%.2f" % rec))


if __name__ == "__main__":
    main()
