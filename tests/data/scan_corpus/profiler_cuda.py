from torch.profiler import profile, ProfilerActivity


def run(step):
    with profile(use_cuda=True) as prof:
        step()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof2:
        step()
    return prof, prof2
