import torch


def contract(a, b, out):
    torch.tensordot(a, b, dims=2, out=out)
    return torch.tensordot(a, b, dims=2)
