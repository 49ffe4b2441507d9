import torch.distributed as dist


def make_store(host, port, n):
    return dist.TCPStore(host, port, world_size=n)


def make_other(host, port):
    return dist.TCPStore(host, port, is_master=True)
