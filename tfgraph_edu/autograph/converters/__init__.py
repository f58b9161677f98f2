"""AutoGraph's converters: one module per construct, applied in the order of pipeline.py."""
