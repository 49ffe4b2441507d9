import torch


def save(state, path):
    torch.save(state, path)
    # torch.load(path) would read it back
    print("use torch.load(path, weights_only=False) for old files")
