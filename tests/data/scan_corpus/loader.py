from torch.utils.data import DataLoader


def make(ds):
    return DataLoader(ds, batch_size=8, pin_memory=True, pin_memory_device="cuda")


def make_plain(ds):
    return DataLoader(ds, batch_size=8, pin_memory=True)
