import torch


def script(model):
    return torch.jit.script(model)


def compile(model):
    return torch.compile(model)
