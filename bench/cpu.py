"""Where a benchmark's CPU went: each process it started (with its children, e.g. gunicorn's
workers), this process itself (a load generator), and the whole machine, in cores used on
average over a window (1.0 is one core busy all the time).

On a shared machine the rest, ``elsewhere``, is the database, Redis and whatever else runs:
when ``machine`` is close to the number of cores, the figures were measured CPU-starved.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import psutil


def cpu_seconds(pid: int) -> float:
    """CPU (user + system) used so far by ``pid`` and its living descendants."""
    try:
        root = psutil.Process(pid)
        family = [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return 0.0
    total = 0.0
    for process in family:
        try:
            times = process.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total


def machine_busy_seconds() -> float:
    """CPU seconds the machine spent on anything but idling, summed over its cores."""
    times = psutil.cpu_times()
    return sum(times) - times.idle - getattr(times, "iowait", 0.0)


@dataclass(frozen=True)
class Reading:
    at: float
    roles: dict[str, float]  # CPU seconds so far, per role
    machine: float


def read(roles: dict[str, list[int]], this_process: str) -> Reading:
    """CPU seconds so far of each role (its processes' pids), of this process (its role named
    ``this_process``) and of the machine."""
    seconds = {role: sum(cpu_seconds(pid) for pid in pids) for role, pids in roles.items()}
    own = psutil.Process().cpu_times()  # without its children: they are the roles
    seconds[this_process] = own.user + own.system
    return Reading(at=time.monotonic(), roles=seconds, machine=machine_busy_seconds())


def cores_used(before: Reading, after: Reading) -> dict[str, float]:
    """Cores used on average between two readings, per role, by the machine, and elsewhere
    (the machine less every role: database, Redis, other work)."""
    elapsed = after.at - before.at
    used = {
        role: round((after.roles[role] - before.roles[role]) / elapsed, 2) for role in after.roles
    }
    machine = round((after.machine - before.machine) / elapsed, 2)
    return {**used, "machine": machine, "elsewhere": round(machine - sum(used.values()), 2)}
