// Every module of src/nn in one include (docs/nn.md "Modules").
#pragma once
#include "nn/activation_layers.h"
#include "nn/attention_layer.h"
#include "nn/conv_layers.h"
#include "nn/linear.h"
#include "nn/loss_layers.h"
#include "nn/module.h"
#include "nn/norm_layers.h"
#include "nn/pool_layers.h"
#include "nn/prelu.h"
#include "nn/recurrent_layers.h"
#include "nn/sequential.h"
#include "nn/transformer_layers.h"
