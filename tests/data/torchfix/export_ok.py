"""Current spellings of what legacy.py uses: nothing here is deprecated or removed."""

import torch
from torch.export import export


def save(model, args, path):
    program = export(model, args)
    torch.onnx.export(model, args, path, dynamo=True)
    torch.func.functional_call(model, dict(model.named_parameters()), args)
    scripted = torch.jit.script(model)
    checkpointed = torch.utils.checkpoint.checkpoint(model, *args, use_reentrant=False)
    return program, scripted, checkpointed
