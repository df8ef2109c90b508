"""Random numbers under torch's names (torch.manual_seed, torch.rand, ...): thin fronts over the
Tensor static methods (src/tensor/random.h). onegrad exports them at the top level."""

from .tensor import Tensor


def manual_seed(seed) -> None:
    """Seeds the one generator and restarts its counter; the same seed gives the same values in
    every run and process."""
    Tensor.manual_seed(seed)


def initial_seed() -> int:
    """The seed in use (0 until manual_seed is called)."""
    from . import _C
    return _C.initial_seed()


def rand(*size, dtype=None, device=None) -> Tensor:
    return Tensor.rand(*size, dtype=dtype, device=device)


def randn(*size, dtype=None, device=None) -> Tensor:
    return Tensor.randn(*size, dtype=dtype, device=device)


def randint(low, high=None, size=None, dtype=None, device=None) -> Tensor:
    return Tensor.randint(low, high, size, dtype=dtype, device=device)


def randperm(n, dtype=None, device=None) -> Tensor:
    return Tensor.randperm(n, dtype=dtype, device=device)


def normal(mean, std, size, dtype=None, device=None) -> Tensor:
    """torch.normal(mean, std, size) with number mean and std."""
    return Tensor.normal(size, mean=mean, std=std, dtype=dtype, device=device)


def uniform(*size, low=0.0, high=1.0, dtype=None, device=None) -> Tensor:
    return Tensor.uniform(*size, low=low, high=high, dtype=dtype, device=device)


def multinomial(input: Tensor, num_samples, replacement=False) -> Tensor:
    return input.multinomial(num_samples, replacement)


def bernoulli(input: Tensor, p=None) -> Tensor:
    return input.bernoulli(p)


def rand_like(input: Tensor, dtype=None) -> Tensor:
    return Tensor.rand_like(input, dtype=dtype)


def randn_like(input: Tensor, dtype=None) -> Tensor:
    return Tensor.randn_like(input, dtype=dtype)


def randint_like(input: Tensor, low, high=None, dtype=None) -> Tensor:
    return Tensor.randint_like(input, low, high, dtype=dtype)


__all__ = ["manual_seed", "initial_seed", "rand", "randn", "randint", "randperm", "normal", "uniform", "multinomial",
           "bernoulli", "rand_like", "randn_like", "randint_like"]
