def grow(x):
    y = x.new_tensor([1.0, 2.0])
    z = x.new_zeros(3)
    return y, z


def factor(a):
    return a.cholesky()


def decompose(a):
    return a.qr()


def chained(layer, a):
    return layer(a).qr()
