"""Silero VAD (the silero-vad PyPI package's ONNX file) run by onegrad.onnx: speech probability per
32 ms chunk of 16 kHz audio, with the model's LSTM state and 64 samples of context carried from
chunk to chunk as the package's own OnnxWrapper does, and speech segments from those probabilities."""
from __future__ import annotations

import importlib.util
import os

import numpy as np

SAMPLE_RATE = 16000
CHUNK = 512     # samples the model reads per call at 16 kHz
CONTEXT = 64    # samples of the previous chunk prepended to each call


def silero_vad_path(name: str = "silero_vad.onnx"):
    """The ONNX file `name` shipped in the silero-vad package, or None when it is not installed."""
    spec = importlib.util.find_spec("silero_vad")
    if spec is None or not spec.origin:
        return None
    path = os.path.join(os.path.dirname(spec.origin), "data", name)
    return path if os.path.exists(path) else None


class SileroVAD:
    """Streaming voice activity detection: `vad(chunk)` is the speech probability of the next 512
    samples; `vad.probabilities(audio)` runs a whole waveform from a fresh state."""

    def __init__(self, path=None, device: str = "CPU"):
        from .. import onnx
        path = path or silero_vad_path()
        if path is None:
            from ..errors import FileError
            raise FileError("SileroVAD: no model path given and the silero-vad package is not installed")
        self.model = onnx.load(path, device)
        self.reset()

    def reset(self):
        self.state = np.zeros((2, 1, 128), np.float32)
        self.context = np.zeros((1, CONTEXT), np.float32)

    def __call__(self, chunk) -> float:
        from ..errors import ShapeError
        chunk = np.asarray(chunk, np.float32).reshape(1, -1)
        if chunk.shape[1] != CHUNK:
            raise ShapeError(f"SileroVAD: a chunk is {CHUNK} samples at 16 kHz, got {chunk.shape[1]}")
        x = np.concatenate([self.context, chunk], axis=1)
        out = self.model(input=x, state=self.state, sr=np.array(SAMPLE_RATE, np.int64))
        self.state = out["stateN"].numpy()
        self.context = x[:, -CONTEXT:]
        return float(out["output"].numpy()[0, 0])

    def probabilities(self, audio) -> np.ndarray:
        """One probability per 512-sample chunk of `audio` (float samples at 16 kHz; the last chunk
        padded with zeros), from a fresh state."""
        audio = np.asarray(audio, np.float32).reshape(-1)
        audio = np.pad(audio, (0, -len(audio) % CHUNK))
        self.reset()
        return np.array([self(audio[i:i + CHUNK]) for i in range(0, len(audio), CHUNK)], np.float32)


def speech_segments(probs, threshold: float = 0.5, min_speech_s: float = 0.25, min_silence_s: float = 0.1,
                    pad_s: float = 0.03, total_s=None):
    """[(start_s, end_s)] of speech from per-chunk probabilities, with silero's hysteresis: speech
    starts at a chunk >= threshold and ends after min_silence_s of chunks below threshold - 0.15;
    segments shorter than min_speech_s are dropped, the rest padded by pad_s each side."""
    step = CHUNK / SAMPLE_RATE
    low = max(threshold - 0.15, 0.01)
    segments, start, silent_since = [], None, None
    for i, p in enumerate(probs):
        t = i * step
        if start is None:
            if p >= threshold:
                start, silent_since = t, None
        elif p >= threshold:
            silent_since = None
        elif p < low:
            silent_since = t if silent_since is None else silent_since
            if t + step - silent_since >= min_silence_s:
                segments.append((start, silent_since))
                start, silent_since = None, None
    if start is not None:
        segments.append((start, len(probs) * step))
    end_of_audio = len(probs) * step if total_s is None else total_s
    return [(max(0.0, a - pad_s), min(end_of_audio, b + pad_s)) for a, b in segments if b - a >= min_speech_s]
