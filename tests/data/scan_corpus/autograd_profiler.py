import torch.autograd.profiler as ap


def run(step):
    with ap.profile(use_cuda=True):
        step()
    with ap.profile(use_device="cuda"):
        step()
