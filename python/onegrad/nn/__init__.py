"""onegrad.nn: neural-network building blocks under torch.nn's names. `functional` holds the
stateless ops (torch.nn.functional); Module is Python so models subclass it as in torch
(docs/nn.md "Modules"); the common layers are src/nn's C++ layers (cpp_layer.py), and a layer of
the C++ layer table with no class here is still onegrad.nn.<Name> (module __getattr__ below)."""

from . import functional, init
from .activation import (ELU, GELU, LeakyReLU, LogSoftmax, MultiheadAttention, PReLU, ReLU, Sigmoid, SiLU, Softmax,
                         Softplus, Tanh)
from .checkpoint import load_checkpoint, save_checkpoint
from .cpp_layer import CppLayer, layer_class
from .container import Flatten, ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential
from .conv import Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d
from .dropout import Dropout
from .im2col import Fold, Unfold
from .linear import Identity, Linear
from .loss import (BCELoss, BCEWithLogitsLoss, CosineEmbeddingLoss, CrossEntropyLoss, HuberLoss, KLDivLoss, L1Loss,
                   MSELoss, NLLLoss, SmoothL1Loss)
from .module import Module, Parameter
from .normalization import BatchNorm1d, BatchNorm2d, GroupNorm, LayerNorm, RMSNorm
from .pooling import (AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveAvgPool3d, AdaptiveMaxPool1d, AdaptiveMaxPool2d,
                      AdaptiveMaxPool3d, AvgPool1d, AvgPool2d, AvgPool3d, MaxPool1d, MaxPool2d, MaxPool3d)
from .recurrent import GRU, LSTM, RNN
from .sparse import Embedding
from .transformer import TransformerDecoder, TransformerDecoderLayer, TransformerEncoder, TransformerEncoderLayer

__all__ = ["functional", "init", "Module", "Parameter", "Linear", "Identity", "Conv1d", "Conv2d", "Conv3d",
           "ConvTranspose1d", "ConvTranspose2d", "BatchNorm1d", "BatchNorm2d", "LayerNorm", "GroupNorm", "RMSNorm",
           "Embedding", "Dropout", "MultiheadAttention", "Sequential", "ModuleList", "Flatten", "ReLU", "GELU", "Tanh",
           "Sigmoid", "SiLU", "LeakyReLU", "Softmax", "MaxPool1d", "MaxPool2d", "MaxPool3d", "AvgPool1d", "AvgPool2d",
           "AvgPool3d", "CrossEntropyLoss", "MSELoss", "NLLLoss", "BCELoss", "BCEWithLogitsLoss", "L1Loss",
           "save_checkpoint", "load_checkpoint", "ELU", "PReLU", "LogSoftmax", "Softplus", "ModuleDict",
           "ParameterList", "ParameterDict", "Unfold", "Fold", "SmoothL1Loss", "HuberLoss", "KLDivLoss",
           "CosineEmbeddingLoss", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d",
           "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "RNN", "LSTM", "GRU", "TransformerEncoderLayer",
           "TransformerDecoderLayer", "TransformerEncoder", "TransformerDecoder"]


def __getattr__(name):
    # a C++ layer of the layer table (src/nn/layer_registry.h) that has no Python class above
    return layer_class(name)
