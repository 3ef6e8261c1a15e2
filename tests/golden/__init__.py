"""The demos' golden pages: each format's recording in each language replayed through the real
engine, its wiki pages and closing messages kept under `tests/golden/<format>/<language>/`, so a
change to what people read is a reviewed diff. `python -m tests.golden --update` writes them."""
