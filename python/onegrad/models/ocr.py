"""PaddleOCR (PP-OCRv4 detection and recognition, mobile v2 orientation classifier; the ONNX files
of the rapidocr-onnxruntime PyPI package) run by onegrad.onnx, with the pre- and postprocessing in
numpy: the detector's probability map thresholded, dilated and split into connected components,
each component's box grown (DB's unclip) and cropped, the crop's orientation classified (turned
when it reads upside down) and its characters recognized by CTC greedy decoding."""
from __future__ import annotations

import importlib.util
import os

import numpy as np

DET_MODEL = "ch_PP-OCRv4_det_infer.onnx"
CLS_MODEL = "ch_ppocr_mobile_v2.0_cls_infer.onnx"
REC_MODEL = "ch_PP-OCRv4_rec_infer.onnx"


def rapidocr_models_dir():
    """The models folder of the rapidocr-onnxruntime package, or None when it is not installed."""
    spec = importlib.util.find_spec("rapidocr_onnxruntime")
    if spec is None or not spec.origin:
        return None
    path = os.path.join(os.path.dirname(spec.origin), "models")
    return path if os.path.isdir(path) else None


def rec_characters(rec_path):
    """The recognizer's alphabet: index 0 the CTC blank, then the 'character' list the model file
    carries in its metadata, then a space (as PaddleOCR appends it)."""
    import onnx  # Debian's python3-onnx; onegrad's loader does not keep metadata
    model = onnx.load(rec_path, load_external_data=False)
    meta = {p.key: p.value for p in model.metadata_props}
    return [""] + meta["character"].splitlines() + [" "]


def resize_bilinear(img: np.ndarray, height: int, width: int) -> np.ndarray:
    """img (H, W, C) resized with bilinear taps at pixel centres (as OpenCV's INTER_LINEAR)."""
    def taps(n_in, n_out):
        pos = np.clip((np.arange(n_out) + 0.5) * n_in / n_out - 0.5, 0, n_in - 1)
        lo = np.floor(pos).astype(int)
        hi = np.minimum(lo + 1, n_in - 1)
        return lo, hi, (pos - lo).astype(np.float32)
    img = img.astype(np.float32)
    y0, y1, wy = taps(img.shape[0], height)
    x0, x1, wx = taps(img.shape[1], width)
    rows = img[y0] * (1 - wy)[:, None, None] + img[y1] * wy[:, None, None]
    return rows[:, x0] * (1 - wx)[None, :, None] + rows[:, x1] * wx[None, :, None]


def normalize(img: np.ndarray) -> np.ndarray:
    """(H, W, 3) pixels 0..255 -> (1, 3, H, W) float32 in [-1, 1] (PaddleOCR's mean 0.5, std 0.5)."""
    return ((img.astype(np.float32) / 255 - 0.5) / 0.5).transpose(2, 0, 1)[None].copy()


def det_input(img: np.ndarray) -> np.ndarray:
    """The detector's input: the image cut down to multiples of 32 pixels each side by resizing."""
    h, w = img.shape[:2]
    h32, w32 = max(32, round(h / 32) * 32), max(32, round(w / 32) * 32)
    return normalize(resize_bilinear(img, h32, w32) if (h32, w32) != (h, w) else img)


def connected_components(mask: np.ndarray):
    """[array of (y, x)] of each 4-connected component of the True pixels of mask."""
    labels = np.zeros(mask.shape, np.int32)
    comps = []
    for y, x in zip(*np.nonzero(mask)):
        if labels[y, x]:
            continue
        labels[y, x] = len(comps) + 1
        stack, pixels = [(y, x)], []
        while stack:
            cy, cx = stack.pop()
            pixels.append((cy, cx))
            for ny, nx in ((cy - 1, cx), (cy + 1, cx), (cy, cx - 1), (cy, cx + 1)):
                if 0 <= ny < mask.shape[0] and 0 <= nx < mask.shape[1] and mask[ny, nx] and not labels[ny, nx]:
                    labels[ny, nx] = len(comps) + 1
                    stack.append((ny, nx))
        comps.append(np.array(pixels))
    return comps


def boxes_from_probability(prob: np.ndarray, thresh: float = 0.3, box_thresh: float = 0.5,
                           unclip_ratio: float = 1.6, min_size: int = 3):
    """Axis-aligned text boxes [(x0, y0, x1, y1, score)] from the detector's map (H, W): pixels above
    thresh, dilated by 2x2, split into components; a component whose mean probability is below
    box_thresh is dropped; each box grows by DB's unclip distance, area * ratio / perimeter."""
    mask = prob > thresh
    mask[1:, :] |= mask[:-1, :]
    mask[:, 1:] |= mask[:, :-1]
    boxes = []
    for pixels in connected_components(mask):
        y0, x0 = pixels.min(axis=0)
        y1, x1 = pixels.max(axis=0) + 1
        if min(y1 - y0, x1 - x0) < min_size:
            continue
        score = float(prob[y0:y1, x0:x1][mask[y0:y1, x0:x1]].mean())
        if score < box_thresh:
            continue
        w, h = x1 - x0, y1 - y0
        d = w * h * unclip_ratio / (2 * (w + h))
        boxes.append((max(0, int(x0 - d)), max(0, int(y0 - d)), min(prob.shape[1], int(np.ceil(x1 + d))),
                      min(prob.shape[0], int(np.ceil(y1 + d))), score))
    return sorted(boxes, key=lambda b: (b[1], b[0]))


def cls_input(crop: np.ndarray, height: int = 48, width: int = 192) -> np.ndarray:
    """A crop resized to the classifier's height (at most its width), normalized, zero-padded right."""
    return _padded_line(crop, height, width)


def rec_input(crop: np.ndarray, height: int = 48, min_width: int = 320) -> np.ndarray:
    """A crop resized to the recognizer's height, its width the crop's ratio, padded to at least
    min_width and up to a multiple of 64 (so lines of similar length share compiled kernels)."""
    width = max(min_width, -(-int(np.ceil(height * crop.shape[1] / crop.shape[0])) // 64) * 64)
    return _padded_line(crop, height, width)


def _padded_line(crop, height, width):
    w = min(width, int(np.ceil(height * crop.shape[1] / crop.shape[0])))
    out = np.zeros((1, 3, height, width), np.float32)
    out[:, :, :, :w] = normalize(resize_bilinear(crop, height, w))
    return out


def ctc_greedy(probs: np.ndarray, characters):
    """(text, mean confidence) of one (T, classes) row of probabilities: the best class per step,
    repeats collapsed, blanks (class 0) dropped."""
    best = probs.argmax(axis=1)
    keep = (best != 0) & np.concatenate([[True], best[1:] != best[:-1]])
    conf = float(probs.max(axis=1)[keep].mean()) if keep.any() else 0.0
    return "".join(characters[i] for i in best[keep]), conf


class PaddleOCR:
    """`ocr(image)` -> [(text, confidence, (x0, y0, x1, y1))] for an RGB uint8 image (H, W, 3)."""

    def __init__(self, models_dir=None, device: str = "CPU"):
        from .. import onnx
        models_dir = models_dir or rapidocr_models_dir()
        if models_dir is None:
            from ..errors import FileError
            raise FileError("PaddleOCR: no models folder given and rapidocr-onnxruntime is not installed")
        self.det = onnx.load(os.path.join(models_dir, DET_MODEL), device)
        self.cls = onnx.load(os.path.join(models_dir, CLS_MODEL), device)
        self.rec = onnx.load(os.path.join(models_dir, REC_MODEL), device)
        self.characters = rec_characters(os.path.join(models_dir, REC_MODEL))

    def detect(self, image):
        """Text boxes in image pixels [(x0, y0, x1, y1, score)] and the probability map."""
        x = det_input(image)
        prob = self.det(x)[self.det.output_names[0]].numpy()[0, 0]
        sy, sx = image.shape[0] / prob.shape[0], image.shape[1] / prob.shape[1]
        boxes = [(int(x0 * sx), int(y0 * sy), int(np.ceil(x1 * sx)), int(np.ceil(y1 * sy)), s)
                 for x0, y0, x1, y1, s in boxes_from_probability(prob)]
        return boxes, prob

    def upright(self, crop, thresh: float = 0.9):
        """The crop turned 180 degrees when the classifier says so with probability above thresh."""
        p = self.cls(cls_input(crop))[self.cls.output_names[0]].numpy()[0]
        return crop[::-1, ::-1] if p.argmax() == 1 and p[1] > thresh else crop

    def recognize(self, crop):
        probs = self.rec(rec_input(crop))[self.rec.output_names[0]].numpy()[0]
        return ctc_greedy(probs, self.characters)

    def __call__(self, image):
        results = []
        for x0, y0, x1, y1, _ in self.detect(image)[0]:
            text, conf = self.recognize(self.upright(image[y0:y1, x0:x1]))
            results.append((text, conf, (x0, y0, x1, y1)))
        return results
