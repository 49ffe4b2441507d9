import torch


def fetch():
    return torch.hub.load("owner/repo", "model")


def fetch_trusted():
    return torch.hub.load("owner/repo", "model", trust_repo=True)
