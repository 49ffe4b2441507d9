import torch as T
from torch import load as tload


def a(p):
    return tload(p)


def b(p):
    return T.load(p, map_location="cpu")
