"""Old code: uses of names the release notes deprecate or remove."""

import torch
from torch.export import export_for_training  # expect: TOR004 torch.export.export_for_training
from torch.nn.utils import stateless


def decompose(matrix):
    lower = torch.cholesky(matrix)  # expect: TOR001 torch.cholesky
    q, r = torch.qr(matrix)  # expect: TOR001 torch.qr
    return lower, q, r


def export(model, args):
    program = export_for_training(model, args)  # expect: TOR001 torch.export.export_for_training
    torch.onnx.dynamo_export(model, *args)  # expect: TOR001 torch.onnx.dynamo_export
    return program


def attention(query, key, value):
    with torch.backends.cuda.sdp_kernel(enable_math=True):  # expect: TOR101 torch.backends.cuda.sdp_kernel
        return torch.nn.functional.scaled_dot_product_attention(query, key, value)


def call(module, params, x):
    return stateless.functional_call(module, params, (x,))  # expect: TOR101 torch.nn.utils.stateless.functional_call
