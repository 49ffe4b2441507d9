import torch


def join(parts):
    return torch.cat(parts, dim=0)


def join_np(parts):
    import numpy

    return numpy.concatenate(parts)
