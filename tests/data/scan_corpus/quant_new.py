import torchao


def quantize(model):
    # torch.ao.quantization is deprecated: torchao replaces it
    return torchao.quantization.quantize_(model)
