"""The seeded simulation behind bench/simulate.py: its world of faults, the doubles of the
outside world, the invariants, and the run."""
