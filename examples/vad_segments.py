#!/usr/bin/env python3
"""Speech segments with Silero VAD run by onegrad: the silero-vad PyPI package's ONNX model, loaded
with onegrad.onnx, gives a speech probability per 32 ms chunk (its LSTM state carried from chunk to
chunk); the chunks above the threshold, with silero's hysteresis, become segments printed as
`start_s end_s`.

  bash scripts/test_venv.sh     # once: installs the package into build/venv-test
  PYTHONPATH=build/python build/venv-test/bin/python examples/vad_segments.py [AUDIO.wav|AUDIO.npy]

Without a file it generates 4.2 s of audio with voiced bursts at 0.6-1.7 s and 2.4-3.3 s. A .wav
must be 16-bit PCM mono at 16 kHz; a .npy holds float samples at 16 kHz.
"""
import argparse
import sys
import wave

import numpy as np

from onegrad.models.demo_inputs import speech_like_waveform
from onegrad.models.silero_vad import SAMPLE_RATE, SileroVAD, silero_vad_path, speech_segments

parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("audio", nargs="?", help="a 16 kHz mono .wav (16-bit) or .npy; default: generated bursts")
parser.add_argument("--threshold", type=float, default=0.5)
args = parser.parse_args()
if silero_vad_path() is None:
    sys.exit("vad_segments: the silero-vad package is not importable; run `bash scripts/test_venv.sh` "
             "and use build/venv-test/bin/python")

if args.audio is None:
    audio = speech_like_waveform()
elif args.audio.endswith(".npy"):
    audio = np.load(args.audio).astype(np.float32).reshape(-1)
else:
    with wave.open(args.audio) as w:
        if w.getframerate() != SAMPLE_RATE or w.getnchannels() != 1 or w.getsampwidth() != 2:
            sys.exit(f"vad_segments: {args.audio} is {w.getnchannels()} channel(s), {8 * w.getsampwidth()}-bit at "
                     f"{w.getframerate()} Hz; the model reads 16-bit mono at {SAMPLE_RATE} Hz")
        audio = np.frombuffer(w.readframes(w.getnframes()), np.int16).astype(np.float32) / 32768

probs = SileroVAD().probabilities(audio)
for start, end in speech_segments(probs, threshold=args.threshold, total_s=len(audio) / SAMPLE_RATE):
    print(f"{start:.2f} {end:.2f}")
