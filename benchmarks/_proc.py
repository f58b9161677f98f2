"""What a process has used so far, read from Linux's /proc (the classroom benchmarks)."""

from __future__ import annotations

import os

MIB = 1024 * 1024


def peak_mib(pid: int) -> float:
    """The process's own peak resident memory (``VmHWM``: a high-water mark, not a sample)."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmHWM for process {pid}")


def cpu_seconds(pid: int, children: bool = True) -> float:
    """utime + stime of ``pid``, plus cutime + cstime (the children it has waited for, and
    theirs) unless ``children`` is false."""
    with open(f"/proc/{pid}/stat") as f:
        stat = f.read()
    parts = stat[stat.rindex(")") + 2:].split()  # the command name may contain spaces
    ticks = sum(int(parts[i]) for i in ((11, 12, 13, 14) if children else (11, 12)))
    return ticks / os.sysconf("SC_CLK_TCK")
