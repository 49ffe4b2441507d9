import torch


def factor(a):
    low = torch.linalg.cholesky(a)
    q, r = torch.linalg.qr(a)
    return low, q, r
