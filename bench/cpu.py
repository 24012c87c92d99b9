"""CPU time spent by the processes of a benchmark run (Linux ``/proc``), to say per unit of
work where the machine's time went: the workers, the web server, the database's backends.

A ``CpuMeter`` samples user + system time of some processes at two moments; processes that
appear between the two count from zero, those that exit in between are lost (short-lived
children; the benchmark's processes live through the window).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # the command name (field 2) is in parentheses and may hold spaces
    return text[text.rindex(")") + 2 :].split()


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of one process so far (0 once it is gone)."""
    fields = _stat(pid)
    if fields is None:
        return 0.0
    # after the name: state(3) ppid(4) pgrp(5) ... utime(14) stime(15), counted from field 3
    return (int(fields[11]) + int(fields[12])) / TICKS


def group_members(group: int) -> list[int]:
    """Every live process whose process group is ``group``."""
    members = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            if fields is not None and int(fields[2]) == group:
                members.append(int(entry.name))
    return members


@dataclass
class CpuMeter:
    """CPU seconds of named sets of processes between ``start()`` and ``stop()``.

    ``sources`` maps a name to a function listing that set's pids at the time of the call.
    """

    sources: dict[str, Callable[[], Iterable[int]]]
    _before: dict[str, dict[int, float]] = field(default_factory=dict)

    def _sample(self) -> dict[str, dict[int, float]]:
        return {
            name: {pid: cpu_seconds(pid) for pid in pids()} for name, pids in self.sources.items()
        }

    def start(self) -> None:
        self._before = self._sample()

    def stop(self) -> dict[str, float]:
        """CPU seconds of each set since ``start()``."""
        after = self._sample()
        return {
            name: sum(t - self._before.get(name, {}).get(pid, 0.0) for pid, t in pids.items())
            for name, pids in after.items()
        }
