from torch.ao.quantization.quantizer.xnnpack_quantizer import XNNPACKQuantizer


def make():
    return XNNPACKQuantizer()
