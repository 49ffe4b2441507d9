import torch.compiler.config as cconfig
import torch.distributed.config as dconfig

dconfig.compile_on_one_rank = True
cconfig.compile_on_one_rank = True
