"""The composition root: the one folder that builds the product's parts from the settings and
wires them together (the engine, the processes sharing the debates, the timers). Only here and
in tools/store is the database itself held; every other part gets its own table."""
