import torch


def restore(path):
    return torch.load(path)


def restore_safe(path):
    return torch.load(path, weights_only=True)
