"""SparGE Explorer: similar patients by sparse coding and graph embedding."""

from sparge.data.encoder import Encoder
from sparge.data.reading import read_table
from sparge.data.report import ValidationReport
from sparge.data.tables import EncodingTable
from sparge.errors import DataError, ModelFileError
from sparge.estimator.model import SparGE
from sparge.services.persistence import load_model, model_to_bytes, save_model

__all__ = ["SparGE", "Encoder", "EncodingTable", "ValidationReport", "read_table",
           "DataError", "ModelFileError", "save_model", "load_model", "model_to_bytes"]
__version__ = "0.1.0"
