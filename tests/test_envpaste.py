"""The environment box's rules (generator/pages/envpaste.py) on real-format pastes, and the GPU data's
checks (content/gpu_archs.yaml). tests/test_js_parity.py holds the browser's copy to these."""

from __future__ import annotations

import shutil

import pytest

from generator.pages import envpaste
from tests.conftest import FIXTURE, ROOT, real_model, run_cli

ENVS = ROOT / "tests" / "data" / "env"


@pytest.mark.parametrize(
    ("paste", "expected"),
    [
        (
            (ENVS / "collect_env_cuda_linux.txt").read_text(encoding="utf-8"),
            ("2.5", "cuda", "12.1", "", "3.10", "x86_64"),
        ),
        ((ENVS / "collect_env_rocm.txt").read_text(encoding="utf-8"), ("2.6", "rocm", "", "6.2", "3.12", "x86_64")),
        ((ENVS / "collect_env_macos.txt").read_text(encoding="utf-8"), ("2.3", "mps", "", "", "3.9", "arm64")),
        ("torch==2.4.0+cu118", ("2.4", "cuda", "11.8", "", "", "")),
        ("torch   2.7.1+cpu", ("2.7", "cpu", "", "", "", "")),
        ("torch-2.9.0+cu130-cp313-cp313t-manylinux_2_28_aarch64.whl", ("2.9", "cuda", "13.0", "", "3.13t", "arm64")),
        ('name = "torch"\nversion = "2.6.0+xpu"', ("2.6", "xpu", "", "", "", "")),
        ("torchvision==0.20.1\nnumpy==2.0", ("", "", "", "", "", "")),
    ],
)
def test_read(paste, expected):
    env = envpaste.read(paste)
    assert (env["release"], env["backend"], env["cuda"], env["rocm"], env["python"], env["arch"]) == expected


def test_the_gpus_of_a_collect_env():
    env = envpaste.read((ENVS / "collect_env_cuda_linux.txt").read_text(encoding="utf-8"))
    assert env["gpus"] == ["Tesla V100-SXM2-16GB", "Tesla V100-SXM2-16GB"]
    data = envpaste.view(real_model())
    assert [envpaste.arch_of(g, data) for g in ("NVIDIA A100-SXM4-80GB", "Tesla T4", "NVIDIA H100 80GB HBM3")] == [
        "Ampere",
        "Turing",
        "Hopper",
    ]


def test_answers_name_the_release_where_support_stops():
    data = envpaste.view(real_model())
    latest = data["releases"][-1]["version"]
    env = envpaste.read((ENVS / "collect_env_macos.txt").read_text(encoding="utf-8"))
    (python,) = envpaste.answers(env, data, latest)
    assert not python["ok"] and python["text"].endswith("The last release for Python 3.9 is 2.8; it stops in 2.9.")
    # A release building CUDA 13 only has no wheel for a Pascal GPU.
    data["releases"].append({"version": "9.8", "python": ["3.11", "3.15", []], "cuda": ["13.0"], "rocm": "9.0"})
    env = envpaste.read("GPU models and configuration: Tesla P100-PCIE-16GB\ntorch==2.7.0+cu126")
    gpu = next(a for a in envpaste.answers(env, data, "9.8") if a["topic"] == "gpu")
    assert not gpu["ok"] and gpu["text"].startswith("Pascal GPUs: no CUDA wheel of 9.8 builds for them.")
    assert "Pascal left the CUDA 12.8 and 12.9 builds in 2.8." in gpu["text"]


def test_gpu_archs_refuses_an_unknown_architecture_and_release(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(FIXTURE, content)
    (content / "gpu_archs.yaml").write_text(
        "architectures: [Pascal, Volta, Turing]\n"
        "cuda13: {first: Turing, source: https://example.org/n}\n"
        "left:\n"
        '  - {release: "2.9", cuda: ["12.8"], architectures: [Voltaa], source: https://example.org/n}\n',
        encoding="utf-8",
    )
    proc = run_cli("check", "--content", str(content))
    assert proc.returncode == 1
    assert "gpu_archs.yaml:4:15: left[0].release: no release 2.9" in proc.stderr
    assert "gpu_archs.yaml:4:54: left[0].architectures[0]: " in proc.stderr
    assert "unknown architecture 'Voltaa' (did you mean 'Volta'?)" in proc.stderr
