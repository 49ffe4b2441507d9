"""This module once called torch.cholesky and torch.onnx.dynamo_export."""

# profile(use_cuda=True) was removed in 2.14
MESSAGE = "torch.load(path) now uses weights_only=True"
HELP = "pass fallback=True to torch.onnx.export"
