from typing import Optional

import torch
import torch.nn as nn


class Net(nn.Module):
    def forward(self, x: torch.Tensor) -> Optional[torch.Tensor]:
        cache: torch.Tensor = x
        return cache


def f(use_cuda=False):
    use_cuda = True
    return use_cuda
