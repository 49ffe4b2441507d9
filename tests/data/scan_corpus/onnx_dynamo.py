import torch


def old_export(model, sample):
    return torch.onnx.dynamo_export(model, sample)
