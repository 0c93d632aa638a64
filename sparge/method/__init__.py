"""The method core: pure array functions (completion, dictionary, codes, graphs, embedding,
similarity, forest proximity). Imports nothing else from ``sparge`` but ``sparge.errors``."""
