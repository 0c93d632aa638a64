"""SparGE Explorer: similar patients by sparse coding and graph embedding."""

from .encoding import Encoder, read_table
from .errors import DataError, ModelFileError
from .model import SparGE
from .persistence import load_model, model_to_bytes, save_model
from .report import ValidationReport
from .tables import EncodingTable

__all__ = ["SparGE", "Encoder", "EncodingTable", "ValidationReport", "read_table",
           "DataError", "ModelFileError", "save_model", "load_model", "model_to_bytes"]
__version__ = "0.1.0"
