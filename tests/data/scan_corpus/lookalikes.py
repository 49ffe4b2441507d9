import torch
import torch.nn.functional as F


def misc(x, model, path):
    y = torch.cat_helper(x) if hasattr(torch, "cat_helper") else x
    z = F.scaled_dot_product_attention(x, x, x, is_causal=True)
    state = model.load_state_dict(torch.load_state(path)) if hasattr(torch, "load_state") else None
    w = torch.linalg.norm(x)
    export = model.export(x)
    return y, z, state, w, export
