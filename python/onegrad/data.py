"""Data: IDX files, Fashion-MNIST and a DataLoader (src/nn/idx_file.h, fashion_mnist.h,
data_loader.h; docs/nn.md "Data and files").

    from onegrad.data import DataLoader, TensorDataset, load_fashion_mnist
    images, labels = load_fashion_mnist(train=True)        # uint8 (60000, 1, 28, 28), int64 (60000,)
    for x, y in DataLoader(TensorDataset(images, labels), batch_size=128, shuffle=True, seed=0):
        ...

Batches are CPU tensors gathered on the host with memcpy (no kernel per batch). Shuffling is
seeded: the order of an epoch depends only on (seed, epoch), and each pass over the loader is the
next epoch. A missing data set raises onegrad.errors.FileError saying how to install it.
"""
import os
from collections import namedtuple

import numpy as np

from . import _C
from .tensor import Tensor

__all__ = ["DataLoader", "TensorDataset", "FashionMNIST", "load_fashion_mnist", "load_idx", "FASHION_MNIST_CLASSES"]

FASHION_MNIST_CLASSES = tuple(_C.data.fashion_mnist_classes())

FashionMNIST = namedtuple("FashionMNIST", ["images", "labels"])


def load_idx(path):
    """An IDX file (.gz or not) as a CPU Tensor of the file's dtype and shape."""
    return Tensor._wrap(_C.data.load_idx(os.fspath(path)))


def load_fashion_mnist(train=True, root=None):
    """(images uint8 N x 1 x 28 x 28, labels int64 N): the 60,000-image train split or the
    10,000-image test split. root defaults to $ONEGRAD_FASHION_MNIST, else the folder Debian's
    dataset-fashion-mnist installs."""
    images, labels = _C.data.load_fashion_mnist(bool(train), os.fspath(root) if root else "")
    return FashionMNIST(Tensor._wrap(images), Tensor._wrap(labels))


class TensorDataset:
    """Tensors with one row per sample (torch.utils.data.TensorDataset)."""

    def __init__(self, *tensors):
        self.tensors = tuple(Tensor._coerce(t) for t in tensors)

    def __len__(self):
        return self.tensors[0].shape[0] if self.tensors else 0

    def __getitem__(self, i):
        return tuple(t[i] for t in self.tensors)


class DataLoader:
    """Batches over a TensorDataset, a Tensor, or a sequence of Tensors with the same first
    dimension. Yields a tuple of Tensors per batch (one Tensor when given a single Tensor).
    len() is the number of batches per epoch."""

    def __init__(self, dataset, batch_size=1, shuffle=False, drop_last=False, seed=0):
        self._single = isinstance(dataset, (Tensor, np.ndarray))
        if self._single:
            tensors = (Tensor._coerce(dataset),)
        elif isinstance(dataset, TensorDataset):
            tensors = dataset.tensors
        else:
            tensors = tuple(Tensor._coerce(t) for t in dataset)
        if isinstance(batch_size, bool) or not isinstance(batch_size, int):
            raise TypeError(f"DataLoader: batch_size must be an int, got {batch_size!r}")
        self._impl = _C.data.DataLoader([t._t for t in tensors], batch_size, bool(shuffle), bool(drop_last),
                                        int(seed))

    @classmethod
    def fashion_mnist(cls, train=True, batch_size=1, shuffle=False, drop_last=False, seed=0, root=None):
        """A loader straight over the Fashion-MNIST files: the data stays on the host (no tensor of the
        whole split is made). Batches are (images uint8 B x 1 x 28 x 28, labels int64 B)."""
        self = cls.__new__(cls)
        self._single = False
        self._impl = _C.data.DataLoader(bool(train), os.fspath(root) if root else "", batch_size, bool(shuffle),
                                        bool(drop_last), int(seed))
        return self

    def __len__(self):
        return len(self._impl)

    @property
    def batch_size(self):
        return self._impl.batch_size

    @property
    def num_samples(self):
        return self._impl.num_samples

    def set_epoch(self, epoch):
        """The epoch the next pass uses (each pass moves it on by one)."""
        self._impl.next_epoch = int(epoch)

    def order(self, epoch):
        """The sample order of an epoch (a list of row indices)."""
        return self._impl.order(int(epoch))

    def __iter__(self):
        for batch in self._impl:
            out = tuple(Tensor._wrap(t) for t in batch)
            yield out[0] if self._single else out
