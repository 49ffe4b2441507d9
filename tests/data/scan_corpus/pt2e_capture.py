from torch._export import capture_pre_autograd_graph


def capture(model, sample):
    return capture_pre_autograd_graph(model, sample)
