"""Execute one notebook through Jupyter with the GoNB kernel, cell by cell.

Run by the course tool (cmd/course) with a Python that has nbclient, such as
Debian's /usr/bin/python3. It writes the executed notebook and a JSON report
of each code cell's status and wall time; the tool decides what failed.

Exit status: 0 when every code cell ran (failed or not: that is the tool's
call), 3 when Jupyter or the gonb kernel is missing, 1 on other errors.
"""

import argparse
import json
import os
import re
import shutil
import signal
import sys
import time


def quick_failure(cell):
    """Whether a cell's outputs show a failure, so that execution stops there.

    The course tool classifies failures itself; this only avoids running the
    cells after a broken one."""
    for out in cell.get("outputs", []):
        if out.get("output_type") == "error":
            return True
        if out.get("output_type") == "stream" and out.get("name") == "stderr":
            text = out.get("text", "")
            if isinstance(text, list):
                text = "".join(text)
            if "panic:" in text or re.search(r"(?m)^(exit status \d+|signal: [a-z ]+)$", text):
                return True
    return False


def descendants(pid):
    """Process ids of pid's children, grandchildren, ... (Linux /proc)."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        # The command name, in parentheses, may hold spaces: ppid follows it.
        ppid = int(stat[stat.rindex(")") + 2 :].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out


def kill_kernel_tree(client):
    """SIGKILL everything the kernel started: the Go program still running
    and gopls, which GoNB starts in a session of its own, so that the
    kernel's process group does not reach it."""
    try:
        pid = client.km.provisioner.pid
    except AttributeError:
        return
    if not pid or not os.path.isdir("/proc"):
        return
    for p in descendants(pid):
        try:
            os.kill(p, signal.SIGKILL)
        except OSError:
            pass


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--in", dest="inp", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--report", required=True)
    p.add_argument("--cwd", required=True, help="folder the kernel starts in (GONB_DIR)")
    p.add_argument("--kernel-log", required=True)
    p.add_argument("--timeout", type=int, default=300, help="seconds per cell")
    p.add_argument("--startup-timeout", type=int, default=120)
    p.add_argument("--keep-going", action="store_true")
    a = p.parse_args()

    try:
        import nbformat
        from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel
        from nbclient import NotebookClient
        from nbclient.exceptions import CellTimeoutError, DeadKernelError
    except ImportError as e:
        print(f"{sys.executable} lacks Jupyter's nbclient ({e}): run scripts/install.sh --apt", file=sys.stderr)
        return 3
    try:
        spec = KernelSpecManager().get_kernel_spec("gonb")
    except NoSuchKernel:
        print("the gonb Jupyter kernel is not registered: run scripts/install.sh --gonb", file=sys.stderr)
        return 3
    if not os.path.exists(spec.argv[0]):
        print(f"the gonb kernel points to {spec.argv[0]}, which is missing: run scripts/install.sh --gonb", file=sys.stderr)
        return 3

    nb = nbformat.read(a.inp, as_version=4)
    client = NotebookClient(
        nb,
        kernel_name="gonb",
        timeout=a.timeout,
        startup_timeout=a.startup_timeout,
        allow_errors=True,
        record_timing=False,
        interrupt_on_timeout=False,
        resources={"metadata": {"path": a.cwd}},
    )
    report = {"cells": [], "startup_seconds": 0.0, "seconds": 0.0, "kernel_log": a.kernel_log}
    start = time.monotonic()
    try:
        with open(a.kernel_log, "wb") as log:
            with client.setup_kernel(stdout=log, stderr=log):
                report["startup_seconds"] = round(time.monotonic() - start, 3)
                # The kernel's language_info, which Jupyter's front ends
                # store in the notebook when they connect: committed as is,
                # opening the notebook changes nothing.
                info = client.wait_for_reply(client.kc.kernel_info())
                if info is not None and "language_info" in info["content"]:
                    nb.metadata["language_info"] = info["content"]["language_info"]
                for i, cell in enumerate(nb.cells):
                    if cell.cell_type != "code":
                        continue
                    t0 = time.monotonic()
                    status = "ok"
                    try:
                        client.execute_cell(cell, i)
                    except CellTimeoutError:
                        status = "timeout"
                    except DeadKernelError:
                        status = "dead"
                    report["cells"].append({"index": i, "seconds": round(time.monotonic() - t0, 3), "status": status})
                    if status != "ok":
                        # Kill the kernel and all it started, the Go
                        # program still running included.
                        kill_kernel_tree(client)
                        client.shutdown_kernel = "immediate"
                        break
                    if quick_failure(cell) and not a.keep_going:
                        break
    except Exception as e:  # kernel failed to start, zmq trouble, ...
        report["error"] = f"{type(e).__name__}: {e}"
    report["seconds"] = round(time.monotonic() - start, 3)
    if client.shutdown_kernel == "immediate":
        # GoNB removes its work folder only when shut down gracefully.
        try:
            with open(a.kernel_log, errors="replace") as f:
                for m in re.finditer(r'tmp Go code in "(/[^"]*/gonb_[0-9a-f]+)"', f.read()):
                    shutil.rmtree(m.group(1), ignore_errors=True)
        except OSError:
            pass
    nbformat.write(nb, a.out)
    with open(a.report, "w") as f:
        json.dump(report, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
