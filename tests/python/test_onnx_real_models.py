# ctest: test venv
"""Real models through onegrad.onnx against onnxruntime (CPU): Silero VAD (silero-vad package: If
subgraphs, LSTM) streamed over a generated waveform with speech-like bursts, and the PaddleOCR
detector, orientation classifier and recognizer (rapidocr-onnxruntime package) on an image of
rendered text; every output within 1e-4 of onnxruntime's largest magnitude. Then the examples
(examples/vad_segments.py, examples/ocr_read.py) run end to end. The model tests need the test venv
(scripts/test_venv.sh) and skip naming the missing package without it."""

import importlib.util
import os
import subprocess
import sys

import numpy as np
import pytest

import onegrad
from onegrad.models import ocr
from onegrad.models.demo_inputs import render_text, speech_like_waveform
from onegrad.models.silero_vad import CHUNK, CONTEXT, SileroVAD, silero_vad_path, speech_segments

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_SKIP = "needs the test venv's {} (bash scripts/test_venv.sh)"
BURSTS = ((0.6, 1.7), (2.4, 3.3))
LINES = ["HELLO WORLD", "ONEGRAD 2026"]


def _need(package, pypi):
    if importlib.util.find_spec(package) is None:
        pytest.skip(_SKIP.format(pypi))


@pytest.fixture(scope="module")
def ort():
    return pytest.importorskip("onnxruntime", reason=_SKIP.format("onnxruntime"))


def _session(ort, path):
    return ort.InferenceSession(path, providers=["CPUExecutionProvider"])


def assert_close_relative(actual, expected, what, rel=1e-4):
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} vs {expected.shape}"
    err, scale = float(np.abs(actual - expected).max()), float(np.abs(expected).max())
    print(f"{what}: max rel error {err / scale:.3g}")
    assert err <= rel * scale, f"{what}: max |diff| {err:.3g} > {rel:g} * max |expected| {scale:.3g}"


# --- Silero VAD ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def vad():
    _need("silero_vad", "silero-vad")
    return SileroVAD()


def _ort_stream(session, audio):
    """Per-chunk probabilities and the last state, carried as silero's OnnxWrapper carries them."""
    state, context, probs = np.zeros((2, 1, 128), np.float32), np.zeros((1, CONTEXT), np.float32), []
    audio = np.pad(audio, (0, -len(audio) % CHUNK))
    for i in range(0, len(audio), CHUNK):
        x = np.concatenate([context, audio[None, i:i + CHUNK]], axis=1)
        out, state = session.run(None, {"input": x, "state": state, "sr": np.array(16000, np.int64)})
        context = x[:, -CONTEXT:]
        probs.append(out[0, 0])
    return np.array(probs, np.float32), state


def test_silero_vad_streamed_over_speech_bursts_matches_onnxruntime(vad, ort):
    audio = speech_like_waveform(BURSTS)
    probs = vad.probabilities(audio)
    ref_probs, ref_state = _ort_stream(_session(ort, silero_vad_path()), audio)
    assert_close_relative(probs, ref_probs, "silero_vad output (every chunk)")
    assert_close_relative(vad.state, ref_state, "silero_vad stateN (after the last chunk)")
    # the bursts are speech and the pauses are not, for both
    assert ref_probs.max() > 0.9 and ref_probs.min() < 0.1
    assert "If" in vad.model.op_types and "LSTM" in vad.model.op_types


@pytest.mark.parametrize("name", ["silero_vad_16k_op15.onnx", "silero_vad_op18_ifless.onnx", "silero_vad_half.onnx",
                                  "silero_vad_openvino_16k.onnx"])
def test_the_packages_other_streaming_vad_files_match_onnxruntime(ort, name):
    """24 chunks from a pause into a burst; each file streams its own state (the half one computes in
    float16 inside, with float32 inputs and outputs)."""
    _need("silero_vad", "silero-vad")
    path = silero_vad_path(name)
    session, model = _session(ort, path), onegrad.onnx.load(path)
    names = [i.name for i in session.get_inputs()]
    audio = speech_like_waveform(BURSTS)[int(0.4 * 16000):][:24 * CHUNK]
    ours = np.zeros((2, 1, 128), np.float32)
    theirs, context = ours, np.zeros((1, CONTEXT), np.float32)
    for i in range(0, len(audio), CHUNK):
        x = np.concatenate([context, audio[None, i:i + CHUNK]], axis=1)
        context = x[:, -CONTEXT:]
        feeds = {k: v for k, v in {"input": x, "sr": np.array(16000, np.int64)}.items() if k in names}
        ref, theirs = session.run(None, dict(feeds, state=theirs))
        out = model(dict(feeds, state=ours))
        ours = out["stateN"].numpy()
        assert_close_relative(out["output"].numpy(), ref, f"{name} output, chunk {i // CHUNK}")
        assert_close_relative(ours, theirs, f"{name} stateN, chunk {i // CHUNK}")


def test_the_sequence_vad_file_matches_onnxruntime(ort):
    """silero_vad_16k_sequence.onnx takes every frame (with its 64 samples of context) in one call."""
    _need("silero_vad", "silero-vad")
    path = silero_vad_path("silero_vad_16k_sequence.onnx")
    frames = speech_like_waveform(BURSTS)[int(0.4 * 16000):][:24 * CHUNK].reshape(-1, CHUNK)
    contexts = np.concatenate([np.zeros((1, CONTEXT), np.float32), frames[:-1, -CONTEXT:]])
    feeds = {"input": np.concatenate([contexts, frames], axis=1), "h": np.zeros((1, 1, 128), np.float32),
             "c": np.zeros((1, 1, 128), np.float32)}
    refs = _session(ort, path).run(None, feeds)
    outs = onegrad.onnx.load(path)(feeds)
    for (name, ours), ref in zip(outs.items(), refs):
        assert_close_relative(ours.numpy(), ref, f"sequence {name}")


def test_silero_vad_at_batch_16_matches_onnxruntime_call_after_call(ort):
    """16 streams at once, the state carried over 4 calls (the plain call, the capture, replays): the
    STFT conv's channels are vector lanes stored 3 apart and the first encoder conv sums its 129 x 3
    window in levels of 43 (docs/kernel_opts.md), at this batch and only here among the tests."""
    _need("silero_vad", "silero-vad")
    path = silero_vad_path()
    model, session = onegrad.onnx.load(path), _session(ort, path)
    rng = np.random.default_rng(3)
    state = ref_state = np.zeros((2, 16, 128), np.float32)
    for call in range(4):
        x = (0.3 * np.sin(np.arange(512) / 16000 * 2 * np.pi * rng.uniform(100, 400, (16, 1)))
             + 0.05 * rng.standard_normal((16, 512))).astype(np.float32)
        sr = np.array(16000, np.int64)
        out = model({"input": x, "state": state, "sr": sr})
        ref, ref_state = session.run(None, {"input": x, "state": ref_state, "sr": sr})
        state = out["stateN"].numpy()
        assert_close_relative(out["output"].numpy(), ref, f"silero_vad output, batch 16, call {call}")
        assert_close_relative(state, ref_state, f"silero_vad stateN, batch 16, call {call}")


def test_silero_vad_finds_the_bursts_as_segments(vad):
    segments = speech_segments(vad.probabilities(speech_like_waveform(BURSTS)))
    assert len(segments) == len(BURSTS), segments
    for (start, end), (b0, b1) in zip(segments, BURSTS):
        assert abs(start - b0) < 0.1 and b1 - 0.05 < end < b1 + 0.25, (segments, BURSTS)


def test_silero_vad_refuses_a_chunk_of_another_length(vad):
    with pytest.raises(onegrad.errors.ShapeError, match="a chunk is 512 samples at 16 kHz, got 400"):
        vad(np.zeros(400, np.float32))


# --- PaddleOCR -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def paddle():
    _need("rapidocr_onnxruntime", "rapidocr-onnxruntime")
    return ocr.PaddleOCR()


@pytest.fixture(scope="module")
def page():
    return render_text(LINES, size=(192, 384))


def _model_path(name):
    return os.path.join(ocr.rapidocr_models_dir(), name)


def test_paddle_det_matches_onnxruntime_on_rendered_text(paddle, page, ort):
    image, _ = page
    x = ocr.det_input(image)
    ours = paddle.det(x)[paddle.det.output_names[0]].numpy()
    (ref,) = _session(ort, _model_path(ocr.DET_MODEL)).run(None, {"x": x})
    assert_close_relative(ours, ref, "det probability map")
    assert ref.max() > 0.9  # the text is found


def test_paddle_cls_and_rec_match_onnxruntime_on_text_crops(paddle, page, ort):
    image, boxes = page
    cls, rec = _session(ort, _model_path(ocr.CLS_MODEL)), _session(ort, _model_path(ocr.REC_MODEL))
    for i, (x0, y0, x1, y1) in enumerate(boxes):
        crop = image[y0 - 6:y1 + 5, x0 - 3:x1 + 5]  # the margins the detector's boxes have
        for flipped, c in ((False, crop), (True, crop[::-1, ::-1])):
            x = ocr.cls_input(c)
            ours = paddle.cls(x)[paddle.cls.output_names[0]].numpy()
            (ref,) = cls.run(None, {"x": x})
            assert_close_relative(ours, ref, f"cls line {i}{' turned' if flipped else ''}")
            assert ref[0].argmax() == int(flipped)  # upright reads 0 degrees, turned 180
        x = ocr.rec_input(crop)
        ours = paddle.rec(x)[paddle.rec.output_names[0]].numpy()
        (ref,) = rec.run(None, {"x": x})
        assert_close_relative(ours, ref, f"rec line {i}")
        assert ocr.ctc_greedy(ref[0], paddle.characters)[0] == LINES[i]
        assert ocr.ctc_greedy(ours[0], paddle.characters)[0] == LINES[i]


def test_ctc_greedy_collapses_repeats_and_drops_blanks():
    chars = ["", "A", "B"]
    steps = [0, 1, 1, 0, 1, 2, 2, 0]
    probs = np.eye(3, dtype=np.float32)[steps] * 0.9 + 0.05
    assert ocr.ctc_greedy(probs, chars)[0] == "AAB"


def test_boxes_from_probability_finds_each_blob():
    prob = np.zeros((40, 60), np.float32)
    prob[5:12, 4:30] = 0.9
    prob[20:30, 10:50] = 0.8
    prob[35:38, 50:53] = 0.35  # above thresh, below box_thresh: dropped
    boxes = ocr.boxes_from_probability(prob)
    # blob 1 dilated: x 4..31, y 5..13 (w 27, h 8): grows by 27*8*1.6/70 = 4.94 each side
    # blob 2 dilated: x 10..51, y 20..31 (w 41, h 11): grows by 41*11*1.6/104 = 6.94
    assert [b[:4] for b in boxes] == [(0, 0, 36, 18), (3, 13, 58, 38)]


def test_render_text_refuses_a_character_without_a_glyph():
    with pytest.raises(onegrad.errors.ArgumentError, match=r"no glyph for \['\?'\]"):
        render_text("WHY?")
    with pytest.raises(onegrad.errors.ArgumentError, match="needs 112x112 pixels, size is 64x64"):
        render_text("HI", size=(64, 64))


# --- the examples, end to end ----------------------------------------------------------------


def _example(name, *args):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    done = subprocess.run([sys.executable, os.path.join(ROOT, "examples", name), *args], env=env,
                          capture_output=True, text=True, timeout=1500)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_vad_segments_example_prints_the_bursts(vad):
    rows = [tuple(map(float, line.split())) for line in _example("vad_segments.py").splitlines()]
    assert len(rows) == len(BURSTS), rows
    for (start, end), (b0, b1) in zip(rows, BURSTS):
        assert abs(start - b0) < 0.1 and b1 - 0.05 < end < b1 + 0.25, rows


def test_ocr_read_example_reads_the_rendered_text_turned_upside_down(paddle):
    # upside down, so the classifier has to turn each crop before it reads (the upright crops
    # read back in test_paddle_cls_and_rec_match_onnxruntime_on_text_crops)
    out = _example("ocr_read.py", "--upside-down")
    texts = [line.split("\t")[0] for line in out.splitlines()]
    assert sorted(texts) == sorted(LINES), out


def test_a_0d_input_stays_0d():
    helper = pytest.importorskip("onnx.helper", reason="needs python3-onnx")
    from onnx import TensorProto
    g = helper.make_graph([helper.make_node("Add", ["x", "s"], ["y"])], "g",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2]),
                           helper.make_tensor_value_info("s", TensorProto.FLOAT, [])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])])
    m = onegrad.onnx.load_bytes(helper.make_model(g).SerializeToString())
    y = m(x=np.array([1, 2], np.float32), s=np.array(0.5, np.float32))["y"].numpy()
    np.testing.assert_array_equal(y, [1.5, 2.5])
