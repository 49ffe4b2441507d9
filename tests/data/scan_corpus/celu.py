import torch.nn as nn
import torch.nn.functional as F


def act(x):
    y = F.celu(x, alpha=0.5)
    z = F.celu(x)
    return nn.CELU(alpha=1.0)(y) + z
