"""BERT's uncased WordPiece tokenizer from a vocab.txt: the text is cleaned (control characters
dropped, whitespace made a space), CJK ideographs split out, lowercased and accent-stripped, split
at whitespace and punctuation, and each word split greedily into the longest vocabulary pieces
("##" marks a piece inside a word); a word with no such split, or longer than 100 characters, is
[UNK]. Encodings are [CLS] tokens [SEP], padded to the batch's longest with [PAD]. docs/models.md."""

import unicodedata

import numpy as np

from ..errors import ArgumentError, FileError

MAX_WORD_CHARS = 100


def _is_punctuation(ch):
    # ASCII symbols count as punctuation though Unicode files some (e.g. "$", "^") as symbols
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def _is_cjk(cp):
    return (0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2A6DF or 0x2A700 <= cp <= 0x2B73F
            or 0x2B740 <= cp <= 0x2B81F or 0x2B820 <= cp <= 0x2CEAF or 0xF900 <= cp <= 0xFAFF
            or 0x2F800 <= cp <= 0x2FA1F)


def _is_whitespace(ch):
    return ch in " \t\n\r" or unicodedata.category(ch) == "Zs"


def _is_control(ch):
    return ch not in "\t\n\r" and unicodedata.category(ch) in ("Cc", "Cf")


def _normalize(text):
    out = []
    for ch in text:
        cp = ord(ch)
        if cp == 0 or cp == 0xFFFD or _is_control(ch):
            continue
        if _is_whitespace(ch):
            out.append(" ")
        elif _is_cjk(cp):
            out.append(f" {ch} ")
        else:
            out.append(ch)
    text = unicodedata.normalize("NFD", "".join(out).lower())
    return "".join(ch for ch in text if unicodedata.category(ch) != "Mn")


def _words(text):
    """Whitespace-separated words with every punctuation character its own word."""
    for chunk in text.split():
        start = 0
        for i, ch in enumerate(chunk):
            if _is_punctuation(ch):
                if i > start:
                    yield chunk[start:i]
                yield ch
                start = i + 1
        if start < len(chunk):
            yield chunk[start:]


class WordPieceTokenizer:
    def __init__(self, vocab_path, max_length=512):
        try:
            with open(vocab_path, encoding="utf-8") as f:
                tokens = [line.rstrip("\n") for line in f]
        except OSError as e:
            raise FileError(f"WordPieceTokenizer: cannot read {vocab_path}: {e.strerror}") from None
        self.vocab = {t: i for i, t in enumerate(tokens)}
        for special in ("[PAD]", "[UNK]", "[CLS]", "[SEP]"):
            if special not in self.vocab:
                raise ArgumentError(f"WordPieceTokenizer: {vocab_path} has no {special} token")
        self.max_length = max_length
        self.pad_id, self.unk_id = self.vocab["[PAD]"], self.vocab["[UNK]"]
        self.cls_id, self.sep_id = self.vocab["[CLS]"], self.vocab["[SEP]"]

    def _pieces(self, word):
        if len(word) > MAX_WORD_CHARS:
            return [self.unk_id]
        ids, start = [], 0
        while start < len(word):
            end = len(word)
            while end > start:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                if piece in self.vocab:
                    ids.append(self.vocab[piece])
                    break
                end -= 1
            if end == start:
                return [self.unk_id]
            start = end
        return ids

    def tokenize(self, text):
        """The ids of `text`'s pieces, without [CLS]/[SEP]."""
        if not isinstance(text, str):
            raise ArgumentError(f"WordPieceTokenizer: text must be str, got {type(text).__name__}")
        return [i for w in _words(_normalize(text)) for i in self._pieces(w)]

    def encode(self, text):
        """[CLS] pieces [SEP], cut to max_length tokens as transformers' truncation does."""
        return [self.cls_id] + self.tokenize(text)[:self.max_length - 2] + [self.sep_id]

    def batch(self, texts, pad_to_multiple_of=1):
        """(input_ids, attention_mask) as int64 numpy arrays [len(texts), width], padded with [PAD] to
        the longest encoding rounded up to a multiple of pad_to_multiple_of."""
        if isinstance(texts, str) or not len(texts):
            raise ArgumentError("WordPieceTokenizer.batch: expected a non-empty list of str")
        if not isinstance(pad_to_multiple_of, int) or pad_to_multiple_of < 1:
            raise ArgumentError(f"WordPieceTokenizer.batch: pad_to_multiple_of must be an int >= 1, "
                                f"got {pad_to_multiple_of!r}")
        encoded = [self.encode(t) for t in texts]
        width = -(-max(len(e) for e in encoded) // pad_to_multiple_of) * pad_to_multiple_of
        ids = np.full((len(encoded), width), self.pad_id, dtype=np.int64)
        mask = np.zeros((len(encoded), width), dtype=np.int64)
        for row, e in enumerate(encoded):
            ids[row, :len(e)] = e
            mask[row, :len(e)] = 1
        return ids, mask
