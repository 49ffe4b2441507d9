import torch


def capture(model, args):
    return torch.export.export(model, args)


def capture_strict(model, args):
    return torch.export.export(model, args, strict=True)
