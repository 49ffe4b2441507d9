import torch.export


def run(model, args):
    ep = torch.export.export_for_inference(model, args)
    return ep.module()
