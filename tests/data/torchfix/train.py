"""Training loop: look-alikes of names the Atlas ends, none of which is deprecated or removed."""

import torch
from torch.nn.attention import SDPBackend, sdpa_kernel


@torch.no_grad()
def evaluate(model, batch):
    return model(batch)


class Frozen(torch.nn.Module):
    @torch.no_grad()
    def forward(self, x):
        return x


def step(model, batch, path):
    state = torch.load(path, weights_only=True)
    model.load_state_dict(state)
    with torch.no_grad():
        evaluate(model, batch)
    with sdpa_kernel([SDPBackend.MATH]):
        out = model(batch)
    spectrum = torch.istft(torch.randn(5, 3, dtype=torch.cfloat), n_fft=8)
    torch.testing.assert_close(out, out)
    factor = torch.linalg.cholesky(batch @ batch.mT)
    q, r = torch.linalg.qr(batch)
    note = "torch.cholesky was removed in 2.14"  # so was torch.qr: a string and a comment
    return spectrum, factor, q, r, note
