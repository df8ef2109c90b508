"""The losses of torch.nn.functional that have no Tensor method: smooth_l1_loss, huber_loss,
kl_div and cosine_embedding_loss. Their math, checks and messages are C++'s (src/nn/loss_functions.h,
through _C.nn); this file maps torch's Python arguments onto them."""

from .. import _C
from ..tensor import Tensor


def _target(input, target):
    """A target given as numbers becomes a tensor of the input's dtype (torch's broadcast then applies)."""
    return Tensor._coerce(target, dtype=input.dtype)


def _legacy(size_average, reduce, reduction):
    from .functional import _reduction
    return _reduction(size_average, reduce, reduction)


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    """0.5·d²/beta where |d| < beta, else |d| − 0.5·beta (d = input − target); beta = 0 is l1_loss."""
    return Tensor._wrap(_C.nn.smooth_l1_loss(input._t, _target(input, target)._t,
                                             _legacy(size_average, reduce, reduction), float(beta)))


def huber_loss(input, target, reduction="mean", delta=1.0):
    """0.5·d² where |d| < delta, else delta·(|d| − 0.5·delta): smooth_l1_loss scaled by delta."""
    return Tensor._wrap(_C.nn.huber_loss(input._t, _target(input, target)._t, reduction, float(delta)))


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    """target·(log target − input) pointwise, input holding log-probabilities (0 where target is
    0, as torch's xlogy); log_target: exp(target)·(target − input). reduction "batchmean" divides
    the sum by the batch size (the KL divergence proper); "mean" by the element count (torch's
    default, which it warns about)."""
    return Tensor._wrap(_C.nn.kl_div(input._t, _target(input, target)._t, _legacy(size_average, reduce, reduction),
                                     bool(log_target)))


def cosine_embedding_loss(input1, input2, target, margin=0.0, size_average=None, reduce=None, reduction="mean"):
    """1 − cos(x1, x2) where target is 1, max(0, cos(x1, x2) − margin) where it is −1 (0 for any
    other value), cos over the last axis of (N, D) or (D,) inputs."""
    target = Tensor._coerce(target)
    return Tensor._wrap(_C.nn.cosine_embedding_loss(input1._t, input2._t, target._t, float(margin),
                                                    _legacy(size_average, reduce, reduction)))
