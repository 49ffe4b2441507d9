from torch.nn.attention.varlen import varlen_attn


def attend(q, k, v, cu, m):
    out = varlen_attn(q, k, v, cu, cu, m, m, is_causal=True)
    return out
