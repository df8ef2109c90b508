"""onegrad.models.WordPieceTokenizer on a small vocab.txt whose expected pieces are worked out by
hand here; test_minilm.py holds it to the tokenizers package on MiniLM's real vocabulary."""

import numpy as np
import pytest

from onegrad.errors import ArgumentError, FileError
from onegrad.models import WordPieceTokenizer

VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "hello", "world", ",", "!", "un", "##aff", "##able", "##a", "cafe",
         "東", "'", "s", "$", "5"]
ID = {t: i for i, t in enumerate(VOCAB)}


@pytest.fixture
def tok(tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_text("\n".join(VOCAB) + "\n", encoding="utf-8")
    return WordPieceTokenizer(path, max_length=8)


def ids(*tokens):
    return [ID[t] for t in tokens]


def test_lowercases_and_splits_punctuation_into_words_of_their_own(tok):
    assert tok.tokenize("Hello, WORLD!") == ids("hello", ",", "world", "!")
    assert tok.tokenize("world's $5") == ids("world", "'", "s", "$", "5")


def test_words_split_into_the_longest_pieces_first(tok):
    # "un" + "##aff" + "##able", never "##a" + ... while a longer piece matches
    assert tok.tokenize("unaffable") == ids("un", "##aff", "##able")
    assert tok.tokenize("unaffa") == ids("un", "##aff", "##a")


def test_a_word_with_no_split_is_one_unk(tok):
    assert tok.tokenize("unzzz hello") == ids("[UNK]", "hello")
    assert tok.tokenize("h" * 101) == ids("[UNK]")


def test_accents_stripped_cjk_split_controls_dropped_whitespace_kept(tok):
    assert tok.tokenize("Café") == ids("cafe")
    assert tok.tokenize("東京") == ids("東", "[UNK]")
    assert tok.tokenize("hel\x00lo\u200b\tworld\u00a0!") == ids("hello", "world", "!")


def test_batch_pads_to_the_longest_and_truncates_to_max_length(tok):
    batch_ids, mask = tok.batch(["hello", "hello world !", "hello " * 20])
    assert batch_ids.dtype == np.int64 and batch_ids.shape == (3, 8)
    assert batch_ids[0].tolist() == ids("[CLS]", "hello", "[SEP]") + [ID["[PAD]"]] * 5
    assert mask[0].tolist() == [1, 1, 1, 0, 0, 0, 0, 0]
    assert batch_ids[1].tolist()[:5] == ids("[CLS]", "hello", "world", "!", "[SEP]")
    assert batch_ids[2].tolist() == ids("[CLS]") + ids("hello") * 6 + ids("[SEP]")
    assert mask[2].tolist() == [1] * 8


def test_batch_rounds_the_width_up_to_a_multiple(tok):
    batch_ids, mask = tok.batch(["hello world", "hello"], pad_to_multiple_of=5)
    assert batch_ids.shape == (2, 5) and mask.sum(1).tolist() == [4, 3]
    batch_ids, _ = tok.batch(["hello world !"], pad_to_multiple_of=5)
    assert batch_ids.shape == (1, 5)
    with pytest.raises(ArgumentError, match="pad_to_multiple_of must be an int >= 1, got 0"):
        tok.batch(["hello"], pad_to_multiple_of=0)


def test_errors_name_the_file_and_the_problem(tmp_path, tok):
    with pytest.raises(FileError, match="WordPieceTokenizer: cannot read .*missing.txt"):
        WordPieceTokenizer(tmp_path / "missing.txt")
    (tmp_path / "v.txt").write_text("[PAD]\n[CLS]\n[SEP]\nhello\n")
    with pytest.raises(ArgumentError, match=r"WordPieceTokenizer: .*v.txt has no \[UNK\] token"):
        WordPieceTokenizer(tmp_path / "v.txt")
    with pytest.raises(ArgumentError, match="WordPieceTokenizer: text must be str, got int"):
        tok.tokenize(3)
    with pytest.raises(ArgumentError, match="expected a non-empty list of str"):
        tok.batch("hello")
