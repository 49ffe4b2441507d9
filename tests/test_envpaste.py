"""The environment box's rules (generator/pages/envpaste.py) on real-format pastes, and the GPU data's
checks (content/gpu_archs.yaml). tests/test_js_parity.py holds the browser's copy to these."""

from __future__ import annotations

import json
import re
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
        ((ENVS / "collect_env_rocm.txt").read_text(encoding="utf-8"), ("2.6", "rocm", "", "6.2.4", "3.12", "x86_64")),
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


def _answers(paste: str, target: str | None = None) -> dict[str, list[dict]]:
    data = envpaste.view(real_model())
    out: dict[str, list[dict]] = {}
    for a in envpaste.answers(envpaste.read(paste), data, target or data["releases"][-1]["version"]):
        out.setdefault(a["topic"], []).append(a)
    return out


def test_answers_name_the_release_where_support_stops():
    (python,) = _answers((ENVS / "collect_env_macos.txt").read_text(encoding="utf-8"))["python"]
    assert not python["ok"] and "The last release for Python 3.9 is 2.8; it stops in 2.9." in python["text"]
    assert ["Python 3.9", "features/python-3.9-support/"] in python["evidence"]


def test_no_cuda_is_not_a_gpu_and_macos_is_held_to_mps():
    env = envpaste.read((ENVS / "collect_env_macos.txt").read_text(encoding="utf-8"))
    assert env["gpus"] == [] and env["driver"] == ""
    (macos,) = _answers((ENVS / "collect_env_macos.txt").read_text(encoding="utf-8"))["macos"]
    assert macos["ok"] and "needs macOS 14 or newer, from 2.9 on" in macos["text"]
    (old,) = _answers("OS: macOS 13.6.1 (arm64)\ntorch==2.8.0")["macos"]
    assert not old["ok"] and "The last release whose MPS runs on it is 2.8." in old["text"]
    assert old["evidence"] == [
        ["2.9 notes: MPS needs macOS 14", "https://github.com/pytorch/pytorch/releases/tag/v2.9.0"]
    ]


def test_a_blackwell_gpu_on_cuda_12_6_is_told_its_build_does_not_cover_it():
    (gpu,) = _answers("GPU models and configuration: NVIDIA B200\ntorch==2.14.0+cu126")["gpu"]
    assert not gpu["ok"]
    assert gpu["text"].startswith(
        "Blackwell GPUs: 2.14's CUDA 13.0, 13.2 wheels cover them; its CUDA 12.6 wheels do not."
    )
    assert "Your CUDA 12.6 build is one that does not." in gpu["text"]
    # on Linux aarch64 the 12.6 build covers Ampere and Hopper only (RELEASE.md's aarch64 column)
    (arm,) = _answers("OS: Ubuntu 24.04 LTS (aarch64)\nGPU models and configuration: Tesla T4\ntorch==2.12.0+cu126")[
        "gpu"
    ]
    assert not arm["ok"] and arm["text"].startswith("Turing GPUs: none of 2.14's CUDA wheels covers them.")


def test_the_volta_line_names_one_release():
    (gpu,) = _answers((ENVS / "collect_env_cuda_linux.txt").read_text(encoding="utf-8"))["gpu"]
    assert gpu["ok"] and "2.14's CUDA 12.6 wheels cover them; its CUDA 13.0, 13.2 wheels do not." in gpu["text"]
    assert "Volta left the CUDA 12.8 and 12.9 builds in 2.11 (the 2.8 notes said so first)." in gpu["text"]
    assert gpu["text"].count(" builds in ") == 1


def test_an_old_driver_is_told_which_cuda_wheels_run_on_it():
    paste = (
        "Nvidia driver version: 535.161.08\nGPU models and configuration: NVIDIA A100-SXM4-80GB\ntorch==2.13.0+cu130"
    )
    (driver,) = _answers(paste)["driver"]
    assert not driver["ok"] and "CUDA 13.0, 13.2 wheels need 580.65.06 or newer" in driver["text"]
    assert driver["text"].endswith("so of its CUDA wheels only 12.6 runs on it.")
    assert driver["evidence"][0][1] == "https://pytorch.org/blog/pytorch-2-12-release-blog/"
    (new,) = _answers(paste.replace("535.161.08", "580.65.06"))["driver"]
    assert new["ok"]
    (windows,) = _answers("OS: Microsoft Windows 11 Pro\n" + paste.replace("535.161.08", "580.65.06"))["driver"]
    assert not windows["ok"] and "need 580.88 or newer" in windows["text"]  # Windows asks more


def test_a_pasted_2_14_0_is_told_to_take_2_14_1_and_why():
    (patch,) = _answers("torch==2.14.0+cu130")["patch"]
    assert not patch["ok"]
    assert patch["text"].startswith("Take 2.14.1 (2026-09-30) rather than 2.14.0: its notes list 3 under")
    assert patch["evidence"] == [["What 2.14.1 fixes", "releases/2.14/#v2-14-1-fixes"]]
    assert "patch" not in _answers("torch==2.14.1+cu130")


def test_a_stop_is_the_same_whatever_else_the_paste_holds():
    """One "last release" per Python, CUDA and ROCm version: the pasted torch does not move it."""
    for topic, lines in {
        "python": [f"Python version: 3.9.1\ntorch=={v}" for v in ("2.5.1", "2.8.0", "2.10.0+xpu", "2.14.0")],
        "cuda": [f"torch=={v}+cu128" for v in ("2.7.0", "2.8.0", "2.9.1", "2.11.0", "2.12.0")],
        "rocm": [f"torch=={v}+rocm6.4" for v in ("2.8.0", "2.9.0", "2.13.0")],
    }.items():
        texts = {_answers(line)[topic][0]["text"] for line in lines}
        assert len(texts) == 1, texts
    (cuda,) = _answers("torch==2.8.0+cu128")["cuda"]
    assert "The last release for CUDA 12.8 is 2.12; it stops in 2.13." in cuda["text"]
    assert "the compatibility matrix lists it last in 2.11" in cuda["text"]  # both sources shown
    assert ["CUDA 12.8: 2.11 compatibility row", "releases/2.11/#compatibility"] in cuda["evidence"]


def test_a_free_threaded_build_stops_where_the_notes_say_not_where_the_matrix_falls_silent():
    free = "Python version: {} experimental free-threading build (main)\ntorch==2.8.0"
    (t13,) = _answers(free.format("3.13.1"))["python"]
    assert "The last release for Python 3.13t is 2.12; it stops in 2.13." in t13["text"]  # the 2.13 notes
    assert "the compatibility matrix lists it last in 2.8" in t13["text"]
    (t14,) = _answers(free.format("3.14.0"))["python"]  # the matrix lists 3.15t from 2.13, and 3.14t no more
    assert t14["text"].startswith("Python 3.14t: not listed by 2.14")
    assert "lists it last in 2.12, and no source says it stopped." in t14["text"]


def test_rocm_is_matched_as_the_build_tag_writes_it_and_another_source_is_shown():
    (rocm,) = _answers("torch==2.5.1+rocm6.2")["rocm"]  # 2.5 builds ROCm 6.2, 2.6 ROCm 6.2.4
    assert "The last release for ROCm 6.2 is 2.5; it stops in 2.6." in rocm["text"]
    (rocm,) = _answers("torch==2.6.0+rocm6.2.4")["rocm"]
    assert "The last release for ROCm 6.2.4 is 2.6; it stops in 2.7." in rocm["text"]
    (rocm,) = _answers("torch==2.13.0+rocm7.2")["rocm"]  # the 2.14 post lists 7.2 beside 7.14
    assert "it stops in 2.14. Another source lists it for 2.14 too." in rocm["text"]
    assert rocm["evidence"][-1][1] == "https://pytorch.org/blog/pytorch-2-14-release-blog/"


def test_a_deprecated_support_that_still_ships_says_so():
    data = envpaste.view(real_model())
    data["stops"]["cuda"]["13.0"] |= {"deprecated": "2.14", "planned": "2.16"}  # as a 2.14 entry would make it
    (cuda,) = [a for a in envpaste.answers(envpaste.read("torch==2.13.0+cu130"), data, "2.14") if a["topic"] == "cuda"]
    assert cuda["ok"] and cuda["text"].endswith("It is deprecated since 2.14; its removal is announced for 2.16.")


def test_every_stop_the_box_states_is_the_feature_page_s():
    """The box looks stops up (generator.enrich.supports); for every support a feature stands for,
    its stop is the feature's ending, as its page, badge and API state it."""
    site = real_model()
    data = envpaste.view(site)
    owners = {(n.support[0], n.support[1]): n.id for n in site.content.catalogue if n.support}
    checked = 0
    for kind, stops in data["stops"].items():
        for value, stop in stops.items():
            free = " experimental free-threading build" if value.endswith("t") else ""
            paste = f"Python version: {value.rstrip('t')}{free}\ntorch==2.0.0"
            if kind == "cuda":
                paste = "torch==2.0.0+cu" + value.replace(".", "")
            elif kind == "rocm":
                paste = "torch==2.0.0+rocm" + value
            (said,) = _answers(paste)[kind]
            feature = site.feature_by_id.get(owners.get((kind, value), ""))
            removed = feature.ending.removed_in if feature and feature.ending else None
            if feature is not None:
                assert (stop["stop"] or None) == removed, (kind, value)
                checked += 1
            if stop["stop"]:
                assert f"stop{'s' if stop['last'] else 'ped'} in {stop['stop']}." in said["text"], said
            else:
                assert " it stops in " not in said["text"] and "; it stopped in" not in said["text"], said
    assert checked >= 15


def test_gpu_archs_refuses_an_unknown_architecture_and_release(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(FIXTURE, content)
    (content / "gpu_archs.yaml").write_text(
        "architectures: [Pascal, Volta, Turing]\n"
        "left:\n"
        '  - {release: "2.9", cuda: ["12.8"], architectures: [Voltaa], source: https://example.org/n}\n'
        "builds:\n"
        '  - {releases: ["2.9"], source: https://example.org/m, x86_64: {"13.0": [Turing, Blackwel]}}\n',
        encoding="utf-8",
    )
    proc = run_cli("check", "--content", str(content))
    assert proc.returncode == 1
    assert "gpu_archs.yaml:3:15: left[0].release: no release 2.9" in proc.stderr
    assert "gpu_archs.yaml:3:54: left[0].architectures[0]: " in proc.stderr
    assert "unknown architecture 'Voltaa' (did you mean 'Volta'?)" in proc.stderr
    assert "gpu_archs.yaml:5:17: builds[0].releases[0]: no release 2.9" in proc.stderr
    assert "builds[0].x86_64.13.0[1]: unknown architecture 'Blackwel'" in proc.stderr


BASE = "https://atlas.example/"


def _supports_json(site) -> dict:
    """/api/v1/supports.json as the build draws it."""
    from generator.model import urls
    from generator.render import api
    from generator.render.render import drawn

    part = api.render_api(site, BASE)[urls.api_supports()]
    return json.loads(drawn({"f": part})["f"])


def _paste(kind: str, value: str, torch: str = "2.0.0") -> str:
    """A paste naming one Python, CUDA or ROCm version (and a torch of `torch`)."""
    if kind == "cuda":
        return f"torch=={torch}+cu" + value.replace(".", "")
    if kind == "rocm":
        return f"torch=={torch}+rocm" + value
    free = " experimental free-threading build" if value.endswith("t") else ""
    return f"Python version: {value.rstrip('t')}{free}\ntorch=={torch}"


def test_supports_json_is_enrich_s_stops_formatted():
    """One home: every record of /api/v1/supports.json is a stop enrich.supports computed (and every
    architecture record is enrich's left_builds), field by field, evidence URL by evidence URL."""
    site = real_model()
    data = _supports_json(site)
    assert [(r["kind"], r["version"]) for r in data["supports"]] == [(s.kind, s.value) for s in site.supports]
    names = {"listed_last": "matrix_last"}
    for record, stop in zip(data["supports"], site.supports, strict=True):
        said = (record["releases"], record["last"], record["removed_in"], record["matrix_last"], record["also_in"])
        assert said == (list(stop.ships), stop.last, stop.removed_in, stop.listed_last, list(stop.also_in))
        assert (record["removed_by"] or "", record["feature"] or "") == (stop.removed_by, stop.feature)
        assert (record["deprecated_in"], record["removal_planned"]) == (stop.deprecated_in, stop.removal_planned)
        cited = {names.get(f, f): [c.url if c.external else BASE + c.url for c in cs] for f, cs in stop.evidence}
        assert record["evidence"] == cited, record
    assert {a["architecture"] for a in data["architectures"]} == set(site.content.gpu.names)
    gpu = site.content.gpu
    for arch in data["architectures"]:
        name, left = arch["architecture"], site.left_builds.get(arch["architecture"])
        assert arch["left_builds"] == (left and {k: left[k] for k in ("release", "cuda", "first")})
        assert arch["evidence"].get("left_builds") == ([url for _, url in left["evidence"]] if left else None)
        builds = [(b["releases"], b["platform"], b["cuda"], b["covers"]) for b in arch["builds"]]
        assert builds == [(list(r), p, c, name in archs) for r, p, c, archs, _ in gpu.builds]


def test_the_box_states_the_api_s_last_release():
    """For a pasted Python, CUDA or ROCm version, the last release the box states is the one
    /api/v1/supports.json gives, whatever torch the paste names; where the API gives none, the box
    states none."""
    site = real_model()
    data, view = _supports_json(site), envpaste.view(site)
    latest = view["releases"][-1]["version"]
    checked = 0
    for record in data["supports"]:
        kind, value = record["kind"], record["version"]
        for torch in ("2.0.0", "2.9.1", "2.14.0"):
            (said,) = [
                a
                for a in envpaste.answers(envpaste.read(_paste(kind, value, torch)), view, latest)
                if a["topic"] == kind
            ]
            stated = re.findall(r"The last release for [A-Za-z]+ [0-9.t]+ is ([0-9.]+);", said["text"])
            if record["removed_in"] and record["last"]:
                assert stated == [record["last"]], (record, said["text"])
                checked += 1
            else:
                assert stated == [], (record, said["text"])
    assert checked >= 3 * 15


def test_every_answer_the_box_gives_links_what_it_rests_on():
    """Each environment answer (Python, CUDA, ROCm, GPU, driver, macOS, patch) links its evidence, and
    each link of ours names a page of the site."""
    site = real_model()
    data = envpaste.view(site)
    pages = {p.url for p in site.pages}
    pastes = [p.read_text(encoding="utf-8") for p in sorted(ENVS.glob("*.txt"))]
    pastes += [_paste(k, v) for k, values in data["stops"].items() for v in values]
    pastes += [
        "Python version: 3.6.9\nGPU models and configuration: NVIDIA B200\ntorch==2.4.0+cu117",  # known to no row
        "OS: Ubuntu 24.04 LTS (aarch64)\nNvidia driver version: 535.1\nGPU models and configuration: NVIDIA H100\n"
        "torch==2.14.0+cu126",
        "OS: macOS 13.6.1 (arm64)\ntorch==2.8.0",
        "torch==2.5.1+rocm9.9",
    ]
    topics: set[str] = set()
    for paste in pastes:
        for target in [r["version"] for r in data["releases"]][-5:]:
            for answer in envpaste.answers(envpaste.read(paste), data, target):
                topics.add(answer["topic"])
                assert answer["evidence"], (paste, target, answer["text"])
                for label, url in answer["evidence"]:
                    assert label and (url.startswith("https://") or url.split("#")[0] in pages), (answer, url)
    assert topics == {"python", "cuda", "rocm", "gpu", "driver", "macos", "patch"}
