import torch


def reload(path):
    return torch.export.load(path)
