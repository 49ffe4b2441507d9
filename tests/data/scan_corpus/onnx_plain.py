from torch import onnx


def export(model, sample):
    onnx.export(model, sample, "m.onnx")


def check(path):
    return onnx.is_in_onnx_export()
