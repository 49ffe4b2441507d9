from torch.optim.lr_scheduler import StepLR, ReduceLROnPlateau
import torch.optim.lr_scheduler as sched


def make(opt):
    a = StepLR(opt, step_size=10, verbose=True)
    b = ReduceLROnPlateau(opt, mode="min", verbose=False)
    c = StepLR(opt, step_size=10)
    d = sched.CosineAnnealingLR(opt, T_max=5, verbose=True)
    a.print_lr(True, opt.param_groups, 0.1)
    verbose = True
    return a, b, c, d, a.get_last_lr(), verbose
