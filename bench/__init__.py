"""Benchmarks (run by hand or by ``stud bench``; never timed inside unit tests)."""
