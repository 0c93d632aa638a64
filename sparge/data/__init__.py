"""Data intake: reading tables, parsing cells, the encoding table, the Encoder and its report."""
