"""PyTorch Release Atlas's generator: content/ YAML -> a static MkDocs site (README, Layout)."""
