#!/usr/bin/env python3
"""Read text from an image with PaddleOCR run by onegrad: the rapidocr-onnxruntime PyPI package's
PP-OCRv4 detector, orientation classifier and recognizer, loaded with onegrad.onnx; boxes from the
detector's map (threshold, connected components), each crop turned upright when the classifier
says so and read by CTC greedy decoding over the recognizer's alphabet. Prints one line per box:
`text<TAB>confidence<TAB>x0,y0,x1,y1`.

  bash scripts/test_venv.sh     # once: installs the package into build/venv-test
  PYTHONPATH=build/python build/venv-test/bin/python examples/ocr_read.py [IMAGE.npy] [--text "LINE" ...]

Without an image it renders the --text lines (default "HELLO WORLD" and "ONEGRAD 2026") with a
bitmap font; an .npy image is uint8 RGB (H, W, 3).
"""
import argparse
import sys

import numpy as np

from onegrad.models.demo_inputs import render_text
from onegrad.models.ocr import PaddleOCR, rapidocr_models_dir

parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("image", nargs="?", help="an RGB uint8 image as .npy; default: rendered --text")
parser.add_argument("--text", nargs="+", default=["HELLO WORLD", "ONEGRAD 2026"],
                    help="lines to render when no image is given (A-Z, 0-9, space, '.', '-')")
parser.add_argument("--upside-down", action="store_true", help="turn the rendered image 180 degrees")
args = parser.parse_args()
if rapidocr_models_dir() is None:
    sys.exit("ocr_read: the rapidocr-onnxruntime package is not installed; run `bash scripts/test_venv.sh` "
             "and use build/venv-test/bin/python")

if args.image:
    image = np.load(args.image)
else:
    lines = args.text
    width = max(len(line) for line in lines) * 24 + 64
    image, _ = render_text(lines, size=(-(-(len(lines) * 48 + 64) // 32) * 32, -(-width // 32) * 32))
    if args.upside_down:
        image = image[::-1, ::-1].copy()
for text, conf, (x0, y0, x1, y1) in PaddleOCR()(image):
    print(f"{text}\t{conf:.3f}\t{x0},{y0},{x1},{y1}")
