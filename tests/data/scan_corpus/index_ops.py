import torch


def scatter(dst, idx, src):
    dst.index_add_(0, idx, src)
    return torch.index_select(dst, 0, idx)
