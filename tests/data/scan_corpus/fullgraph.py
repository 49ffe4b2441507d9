import torch


def build(model):
    return torch.compile(model, fullgraph=True)


def build_default(model):
    return torch.compile(model, mode="max-autotune")
