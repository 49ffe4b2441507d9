import torch


def run(step):
    with torch.profiler.profile(with_modules=True) as prof:
        step()
    prof.export_memory_timeline("mem.html")
    prof.export_chrome_trace("trace.json")
    return prof.key_averages()
