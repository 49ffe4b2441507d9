import torch
from torch.ao.quantization import quantize_dynamic


def quantize(model):
    return quantize_dynamic(model, {torch.nn.Linear}, dtype=torch.qint8)
