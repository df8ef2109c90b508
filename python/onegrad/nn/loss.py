"""Losses as modules (torch.nn.CrossEntropyLoss, ...): the C++ layers of src/nn/loss_layers.h
(cpp_layer.py), forward(input, target) (CosineEmbeddingLoss: input1, input2, target). The Python
classes keep torch's signatures: the legacy size_average/reduce arguments become a reduction here
(F._reduction, as torch maps them) before the C++ layer is built. A class weight (and
BCEWithLogitsLoss's pos_weight) is the C++ layer's buffer, as in torch; None leaves it out."""

from . import functional as F
from .cpp_layer import CppLayer


class _Loss(CppLayer):
    """Builds the C++ loss of the class's name from torch's keyword arguments, the legacy ones
    folded into reduction; each argument is also an attribute (torch's)."""

    _absent_buffers = ("weight",)

    def _build(self, size_average, reduce, **arguments):
        arguments["reduction"] = F._reduction(size_average, reduce, arguments["reduction"])
        super().__init__(**arguments)
        for k, v in arguments.items():
            if k not in self._cpp_owned and k not in self._buffers:
                object.__setattr__(self, k, v)

    def extra_repr(self):
        return ""  # torch shows a loss's class alone


class L1Loss(_Loss):
    def __init__(self, size_average=None, reduce=None, reduction="mean"):
        self._build(size_average, reduce, reduction=reduction)


class MSELoss(_Loss):
    def __init__(self, size_average=None, reduce=None, reduction="mean"):
        self._build(size_average, reduce, reduction=reduction)


class NLLLoss(_Loss):
    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
        self._build(size_average, reduce, weight=weight, ignore_index=ignore_index, reduction=reduction)


class CrossEntropyLoss(_Loss):
    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean",
                 label_smoothing=0.0):
        self._build(size_average, reduce, weight=weight, ignore_index=ignore_index, reduction=reduction,
                    label_smoothing=label_smoothing)


class BCELoss(_Loss):
    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean"):
        self._build(size_average, reduce, weight=weight, reduction=reduction)


class BCEWithLogitsLoss(_Loss):
    _absent_buffers = ("weight", "pos_weight")

    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean", pos_weight=None):
        self._build(size_average, reduce, weight=weight, reduction=reduction, pos_weight=pos_weight)


class SmoothL1Loss(_Loss):
    def __init__(self, size_average=None, reduce=None, reduction="mean", beta=1.0):
        self._build(size_average, reduce, reduction=reduction, beta=beta)


class HuberLoss(_Loss):
    def __init__(self, reduction="mean", delta=1.0):
        self._build(None, None, reduction=reduction, delta=delta)


class KLDivLoss(_Loss):
    def __init__(self, size_average=None, reduce=None, reduction="mean", log_target=False):
        self._build(size_average, reduce, reduction=reduction, log_target=log_target)


class CosineEmbeddingLoss(_Loss):
    def __init__(self, margin=0.0, size_average=None, reduce=None, reduction="mean"):
        self._build(size_average, reduce, margin=margin, reduction=reduction)
