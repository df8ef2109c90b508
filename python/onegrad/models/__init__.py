"""Models written with onegrad.nn that load published weights by name (docs/models.md)."""

from .bert import BertConfig, BertModel
from .sentence import SentenceEncoder, mean_pool, minilm_dir
from .wordpiece import WordPieceTokenizer

__all__ = ["BertConfig", "BertModel", "SentenceEncoder", "WordPieceTokenizer", "mean_pool", "minilm_dir"]
