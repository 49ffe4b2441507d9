from torch.export import export_for_training


def capture(model, args):
    return export_for_training(model, args, strict=False)
