"""turbobleu.torchmetrics keeps torchmetrics' ``Metric`` contract: every case runs the same steps
on torchmetrics' own class and on turbobleu's and compares what comes out (tensors with ``==``,
state dicts, pickled round trips, the scripted module, ``MetricCollection`` output, dtypes after
conversion, two gloo ranks). Also: a torchmetrics outside the supported range is refused at
import with an ImportError that names the range and the installed version.
"""

from __future__ import annotations

import copy
import io
import os
import pickle
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

import pytest

torch = pytest.importorskip("torch", reason="turbobleu.torchmetrics needs torch")
torchmetrics = pytest.importorskip("torchmetrics", reason="the oracle, torchmetrics, is missing")

from torchmetrics import MetricCollection  # noqa: E402
from torchmetrics.text import BLEUScore as TMBLEUScore  # noqa: E402
from torchmetrics.text import SacreBLEUScore as TMSacreBLEUScore  # noqa: E402
from torchmetrics_support import STATES, batches, free_port, random_corpus, same_states, same_tensor  # noqa: E402

from turbobleu.torchmetrics import BLEUScore, SacreBLEUScore  # noqa: E402

# name -> (turbobleu's class, torchmetrics' class, constructor arguments)
CONFIGS: Dict[str, Tuple[Any, Any, Dict[str, Any]]] = {
    "bleu": (BLEUScore, TMBLEUScore, {}),
    "bleu-2-smooth-weights": (
        BLEUScore,
        TMBLEUScore,
        {"n_gram": 2, "smooth": True, "weights": [0.25, 0.75]},
    ),
    "sacre-13a": (SacreBLEUScore, TMSacreBLEUScore, {}),
    "sacre-intl-lc": (SacreBLEUScore, TMSacreBLEUScore, {"tokenize": "intl", "lowercase": True}),
}
NAMES = list(CONFIGS)


def pair(name: str, **extra: Any) -> Tuple[Any, Any]:
    """(turbobleu's metric, torchmetrics' metric), built with the same arguments."""
    mine, theirs, kwargs = CONFIGS[name]
    return mine(**kwargs, **extra), theirs(**kwargs, **extra)


def updates(seed: int = 7, size: int = 60) -> List[Tuple[Any, Any]]:
    """Three batches of generated text (ragged references, odd whitespace)."""
    preds, target = random_corpus(seed, size)
    return list(zip(batches(preds, size // 3), batches(target, size // 3)))


def feed(metric: Any, batches_: List[Tuple[Any, Any]]) -> None:
    for preds, target in batches_:
        metric.update(preds, target)


def outcome(call: Callable[[], Any]) -> Tuple[str, Any]:
    """What ``call()`` did: ("value", result) or ("raised", (exception type, message))."""
    try:
        return "value", call()
    except Exception as exc:  # the very exception is what is compared
        return "raised", (type(exc), str(exc))


# -- update / forward / compute / reset ---------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_forward_update_compute_reset(name: str) -> None:
    mine, theirs = pair(name)
    for preds, target in updates():
        same_tensor(mine(preds, target), theirs(preds, target), "forward")
        assert mine._forward_cache is not None
        same_tensor(mine._forward_cache, theirs._forward_cache, "forward cache")
    same_states(mine, theirs, "after forward")
    assert mine._update_count == theirs._update_count == 3
    feed(mine, updates(8))
    feed(theirs, updates(8))
    same_states(mine, theirs, "after update")
    same_tensor(mine.compute(), theirs.compute(), "compute")
    same_tensor(mine.compute(), theirs.compute(), "cached compute")
    mine.reset()
    theirs.reset()
    same_states(mine, theirs, "after reset")
    assert mine._update_count == theirs._update_count == 0
    with warnings.catch_warnings(record=True) as mine_warned:
        warnings.simplefilter("always")
        mine_empty = mine.compute()
    with warnings.catch_warnings(record=True) as theirs_warned:
        warnings.simplefilter("always")
        theirs_empty = theirs.compute()
    same_tensor(mine_empty, theirs_empty, "compute before update")
    assert [str(w.message) for w in mine_warned] == [str(w.message) for w in theirs_warned]
    assert mine_warned, "torchmetrics warns on compute() before update()"


@pytest.mark.parametrize("name", NAMES)
def test_merge_state_refused_alike(name: str) -> None:
    mine, theirs = pair(name)
    other_mine, other_theirs = pair(name)
    got = outcome(lambda: mine.merge_state(other_mine))
    want = outcome(lambda: theirs.merge_state(other_theirs))
    assert got == want and got[0] == "raised", (got, want)


@pytest.mark.parametrize("name", NAMES)
def test_compute_on_cpu(name: str) -> None:
    mine, theirs = pair(name, compute_on_cpu=True)
    for preds, target in updates(9):
        same_tensor(mine(preds, target), theirs(preds, target), "forward")
    same_states(mine, theirs)
    same_tensor(mine.compute(), theirs.compute(), "compute")


# -- copies: pickle, cloudpickle, deepcopy, clone -------------------------------------------------
def _cloudpickled(metric: Any) -> Any:
    cloudpickle = pytest.importorskip("cloudpickle", reason="cloudpickle is missing")
    return cloudpickle.loads(cloudpickle.dumps(metric))


def _saved(metric: Any) -> io.BytesIO:
    buffer = io.BytesIO()
    torch.save(metric, buffer)
    buffer.seek(0)
    return buffer


COPIERS: Dict[str, Callable[[Any], Any]] = {
    "pickle": lambda m: pickle.loads(pickle.dumps(m)),
    "cloudpickle": _cloudpickled,
    "deepcopy": copy.deepcopy,
    "clone": lambda m: m.clone(),
    "torch.save": lambda m: torch.load(_saved(m), weights_only=False),
}


@pytest.mark.parametrize("copier", list(COPIERS))
@pytest.mark.parametrize("name", NAMES)
def test_copies_carry_on(name: str, copier: str) -> None:
    """A copy taken mid-run has the same states and goes on exactly as torchmetrics' copy."""
    mine, theirs = pair(name)
    first, rest = updates(10)[:2], updates(10)[2:]
    feed(mine, first)
    feed(theirs, first)
    mine_copy, theirs_copy = COPIERS[copier](mine), COPIERS[copier](theirs)
    assert type(mine_copy) is type(mine) and type(theirs_copy) is type(theirs)
    same_states(mine_copy, theirs_copy, copier)
    assert mine_copy._update_count == theirs_copy._update_count == 2
    for preds, target in rest:
        same_tensor(mine_copy(preds, target), theirs_copy(preds, target), f"{copier} forward")
    same_tensor(mine_copy.compute(), theirs_copy.compute(), f"{copier} compute")
    same_states(mine, theirs, "the original, untouched")


# -- TorchScript ----------------------------------------------------------------------------------
@pytest.mark.filterwarnings("ignore:`torch.jit.script` is deprecated:DeprecationWarning")
@pytest.mark.parametrize("name", NAMES)
def test_scripts_like_torchmetrics(name: str) -> None:
    """Both script; the scripted modules hold the same states and fail alike when called
    (torchmetrics' forward is ``torch.jit.unused``: BLEU is not computed in TorchScript)."""
    mine, theirs = pair(name)
    feed(mine, updates(11))
    feed(theirs, updates(11))
    mine_scripted, theirs_scripted = torch.jit.script(mine), torch.jit.script(theirs)
    assert type(mine_scripted) is type(theirs_scripted)
    for state in STATES:
        same_tensor(getattr(mine_scripted, state), getattr(theirs_scripted, state), state)
    preds, target = updates(12)[0]
    got = outcome(lambda: mine_scripted(preds, target))
    want = outcome(lambda: theirs_scripted(preds, target))
    assert got == want, (got, want)
    for method in ("update", "compute", "reset"):
        assert hasattr(mine_scripted, method) == hasattr(theirs_scripted, method), method
    # Scripting leaves the Python metrics as they were.
    same_states(mine, theirs)
    same_tensor(mine.compute(), theirs.compute())


# -- state dicts ----------------------------------------------------------------------------------
def same_state_dict(got: Dict[str, Any], want: Dict[str, Any]) -> None:
    assert list(got) == list(want), (list(got), list(want))
    for key in want:
        same_tensor(got[key], want[key], key)


@pytest.mark.filterwarnings("ignore:The ``compute`` method of metric:UserWarning")
@pytest.mark.parametrize("name", NAMES)
def test_state_dict(name: str) -> None:
    mine, theirs = pair(name)
    feed(mine, updates(13))
    feed(theirs, updates(13))
    same_state_dict(mine.state_dict(), theirs.state_dict())  # not persistent: empty
    assert mine.state_dict() == {}
    mine.persistent(True)
    theirs.persistent(True)
    same_state_dict(mine.state_dict(), theirs.state_dict())
    assert sorted(mine.state_dict()) == sorted(STATES)
    # Loaded into a fresh metric of either library, the states give the same score.
    for source in (mine.state_dict(), theirs.state_dict()):
        fresh_mine, fresh_theirs = pair(name)
        fresh_mine.persistent(True)
        fresh_theirs.persistent(True)
        got = fresh_mine.load_state_dict(source)
        want = fresh_theirs.load_state_dict(source)
        assert (got.missing_keys, got.unexpected_keys) == (want.missing_keys, want.unexpected_keys)
        same_states(fresh_mine, fresh_theirs, "loaded")
        same_tensor(fresh_mine.compute(), theirs.compute(), "compute after load")
        same_tensor(fresh_theirs.compute(), theirs.compute(), "compute after load")


# -- dtypes ---------------------------------------------------------------------------------------
CONVERSIONS: Dict[str, Callable[[Any], Any]] = {
    "half": lambda m: m.half(),
    "double": lambda m: m.double(),
    "float": lambda m: m.float(),
    "type(float64)": lambda m: m.type(torch.float64),
    "set_dtype(float64)": lambda m: m.set_dtype(torch.float64),
    "set_dtype(float16)": lambda m: m.set_dtype(torch.float16),
    "set_dtype(bfloat16)": lambda m: m.set_dtype(torch.bfloat16),
}


@pytest.mark.parametrize("conversion", list(CONVERSIONS))
@pytest.mark.parametrize("name", NAMES)
def test_dtype_conversions(name: str, conversion: str) -> None:
    """``.half()``/``.double()``/``.type()`` leave torchmetrics' states alone, ``set_dtype``
    converts them; either way turbobleu's states, batch values and scores follow."""
    mine, theirs = pair(name)
    feed(mine, updates(14)[:1])
    feed(theirs, updates(14)[:1])
    converted_mine = CONVERSIONS[conversion](mine)
    converted_theirs = CONVERSIONS[conversion](theirs)
    assert converted_mine is mine and converted_theirs is theirs
    for state in STATES:
        assert getattr(mine, state).dtype == getattr(theirs, state).dtype, state
    same_states(mine, theirs, f"{conversion}: converted")
    for preds, target in updates(15):
        same_tensor(mine(preds, target), theirs(preds, target), f"{conversion}: forward")
    same_states(mine, theirs, f"{conversion}: updated")
    same_tensor(mine.compute(), theirs.compute(), f"{conversion}: compute")


def test_set_dtype_changes_the_states() -> None:
    """The case above would pass if no conversion did anything: this one says set_dtype does."""
    mine, _ = pair("bleu")
    assert mine.set_dtype(torch.float64).numerator.dtype == torch.float64
    assert mine.half().numerator.dtype == torch.float64


# -- MetricCollection -----------------------------------------------------------------------------
@pytest.mark.parametrize("compute_groups", [True, False])
def test_metric_collection(compute_groups: bool) -> None:
    """Every config in one collection (two BLEUScores with equal states share a compute group
    when groups are on): forward, update, compute, reset give the same dicts."""
    mine = MetricCollection(
        {name: pair(name)[0] for name in NAMES}, compute_groups=compute_groups, prefix="val_"
    )
    theirs = MetricCollection(
        {name: pair(name)[1] for name in NAMES}, compute_groups=compute_groups, prefix="val_"
    )
    for preds, target in updates(16):
        same_dict(mine(preds, target), theirs(preds, target))
    feed(mine, updates(17))
    feed(theirs, updates(17))
    same_dict(mine.compute(), theirs.compute())
    assert mine.compute_groups == theirs.compute_groups
    for key in NAMES:
        same_states(mine[key], theirs[key], key)
    mine.reset()
    theirs.reset()
    feed(mine, updates(18)[:1])
    feed(theirs, updates(18)[:1])
    same_dict(mine.compute(), theirs.compute())


def same_dict(got: Dict[str, Any], want: Dict[str, Any]) -> None:
    assert sorted(got) == sorted(want) and len(want) == len(NAMES), (sorted(got), sorted(want))
    for key in want:
        same_tensor(got[key], want[key], key)


# -- two gloo ranks -------------------------------------------------------------------------------
WORLD = 2
DDP_SEGMENTS = 120


def _ddp_run(metric: Any, rank: int) -> Dict[str, Any]:
    """This rank's share of the corpus through forward and update, then the synced results."""
    preds, target = random_corpus(2025, DDP_SEGMENTS)
    cut = DDP_SEGMENTS // 4  # uneven on purpose
    mine = slice(0, cut) if rank == 0 else slice(cut, DDP_SEGMENTS)
    steps = list(zip(batches(preds[mine], 20), batches(target[mine], 20)))
    out: Dict[str, Any] = {"forward": [metric(p, t) for p, t in steps[:2]]}
    feed(metric, steps[2:])
    out["compute"] = metric.compute()
    with metric.sync_context():
        out["states"] = {s: getattr(metric, s).clone() for s in STATES}
    return out


def _ddp_worker(rank: int, port: int, out: str) -> None:
    torch.set_num_threads(1)
    dist = torch.distributed
    dist.init_process_group(
        "gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=WORLD
    )
    results: Dict[str, Any] = {}
    for name in ("bleu", "sacre-intl-lc"):
        for library, metric in zip(("mine", "theirs"), pair(name)):
            results[f"{name} {library}"] = _ddp_run(metric, rank)
            # dist_sync_on_step: forward's batch value is synced over the ranks too.
            on_step = CONFIGS[name][0 if library == "mine" else 1]
            metric = on_step(**CONFIGS[name][2], dist_sync_on_step=True)
            results[f"{name} {library} on-step"] = _ddp_run(metric, rank)
    Path(f"{out}.{rank}").write_bytes(pickle.dumps(results))
    dist.barrier()
    dist.destroy_process_group()


def test_two_gloo_ranks(tmp_path: Path) -> None:
    dist = pytest.importorskip("torch.distributed")
    if not dist.is_available() or not dist.is_gloo_available():
        pytest.skip("torch.distributed with gloo is not available")
    import torch.multiprocessing as mp

    out = str(tmp_path / "results")
    mp.spawn(_ddp_worker, args=(free_port(), out), nprocs=WORLD, join=True)
    for rank in range(WORLD):
        results = pickle.loads(Path(f"{out}.{rank}").read_bytes())
        keys = [k for k in results if " mine" in k]
        assert len(keys) == 4, keys
        for key in keys:
            got, want = results[key], results[key.replace(" mine", " theirs")]
            where = f"rank {rank} {key}"
            assert len(got["forward"]) == len(want["forward"]) == 2
            for g, w in zip(got["forward"], want["forward"]):
                same_tensor(g, w, f"{where} forward")
            same_tensor(got["compute"], want["compute"], f"{where} compute")
            for state in STATES:
                same_tensor(got["states"][state], want["states"][state], f"{where} {state}")


# -- the supported torchmetrics range -------------------------------------------------------------
OUT_OF_RANGE = ("0.10.3", "1.8.2", "2.0.0", "unknown")


def _import_in_subprocess(tmp_path: Path, package_files: Dict[str, str]) -> Tuple[int, str]:
    """Import turbobleu.torchmetrics in a fresh interpreter whose ``sys.path`` starts with
    ``tmp_path``, which holds ``package_files`` (a fake torchmetrics)."""
    for relative, text in package_files.items():
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), *sys.path])
    proc = subprocess.run(
        [sys.executable, "-c", "import turbobleu.torchmetrics"],
        capture_output=True,
        text=True,
        env=env,
    )
    return proc.returncode, proc.stderr


def test_an_unsupported_release_is_refused_before_it_is_imported(tmp_path: Path) -> None:
    """An installed torchmetrics 0.10 (the mbr extra's, through unbabel-comet) may not even
    import (it needs pkg_resources): its metadata alone gives the error."""
    version = "0.10.3"
    rc, stderr = _import_in_subprocess(
        tmp_path,
        {
            "torchmetrics/__init__.py": "raise ModuleNotFoundError('must not be imported')\n",
            f"torchmetrics-{version}.dist-info/METADATA": (
                f"Metadata-Version: 2.1\nName: torchmetrics\nVersion: {version}\n"
            ),
        },
    )
    assert rc != 0
    last = stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: turbobleu.torchmetrics needs torchmetrics>=1.9,<2"), last
    assert f"torchmetrics {version} is installed" in last, last
    assert "must not be imported" not in stderr


@pytest.mark.parametrize("version", OUT_OF_RANGE)
def test_an_unsupported_module_version_is_refused(
    monkeypatch: pytest.MonkeyPatch, version: str
) -> None:
    """Without metadata to say otherwise (a source checkout), the module's ``__version__``."""
    import importlib
    import types
    from importlib import metadata

    fake = types.ModuleType("torchmetrics")
    fake.__version__ = version  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "torchmetrics", fake)
    for name in [m for m in sys.modules if m.startswith("turbobleu.torchmetrics")]:
        monkeypatch.delitem(sys.modules, name)

    def no_metadata(name: str) -> str:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", no_metadata)
    with pytest.raises(ImportError) as info:
        importlib.import_module("turbobleu.torchmetrics")
    message = str(info.value)
    assert "needs torchmetrics>=1.9,<2" in message, message
    assert f"torchmetrics {version} is installed" in message, message


@pytest.mark.parametrize("version", ["1.9.0", "1.9.1", "1.10.0", "1.12.3rc1"])
def test_supported_versions(version: str) -> None:
    from turbobleu import torchmetrics as package

    assert package._supported_torchmetrics(version)
    assert not package._supported_torchmetrics("1.8.9")
