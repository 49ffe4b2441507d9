import torch


def export(model, sample):
    torch.onnx.export(model, sample, "m.onnx", opset_version=18, dynamo=True, fallback=False)


def export_axes(model, sample):
    torch.onnx.export(model, sample, "m.onnx", opset_version=18, fallback=True, dynamic_axes={"x": {0: "b"}})
