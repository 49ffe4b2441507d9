import torch


def export(model, sample, table):
    torch.onnx.export(model, sample, "m.onnx", opset_version=18, fallback=False, custom_translation_table=table)
