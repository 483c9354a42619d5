"""sacrebleu's and NLTK's own test suites, run against turbobleu's stand-ins.

Fetches the pinned source distributions from the package index (``pip download --no-binary
sacrebleu,nltk --no-deps``, with pip's build isolation; ``--no-binary :all:`` gives the same
files but also builds the isolated environment's setuptools from source: 164 s instead of 28 s
without pip's cache on 2 shared cores), checks their sha256, unpacks the test files only
into ``build/upstream/`` (ignored by git; nothing of them enters the repository) and runs:

1. sacrebleu 2.6.0's ``test/`` through the drop-in ``turbobleu.sacrebleu``;
2. the same through ``turbobleu.patch("sacrebleu")`` on the real sacrebleu;
3. NLTK 3.10.4's ``nltk/test/unit/translate/test_bleu.py`` through ``turbobleu.nltk``;
4. the same through ``turbobleu.patch("nltk")`` on the real NLTK.

The modes are ``scripts/upstream/turbobleu_modes.py`` (a pytest plugin), which also deselects
the tests that download, saying why. Where the package index cannot be reached this says so and
exits 0 (as ``.ci/run`` does for its other optional installs); a checksum mismatch or a failing
test exits 1.

Usage: python scripts/upstream/suites.py [--dir DIR] [--only MODE ...] [--fetch-only]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parent.parent
DEFAULT_DIR = REPO_ROOT / "build" / "upstream"


@dataclass(frozen=True)
class Sdist:
    """A pinned source distribution and the part of it whose tests run here."""

    project: str
    version: str
    sha256: str
    # Directory inside the archive, relative to its top folder, whose files are unpacked.
    tests: str
    # Files (relative to the unpacked root) pytest is given.
    args: Sequence[str]

    @property
    def filename(self) -> str:
        return f"{self.project}-{self.version}.tar.gz"

    @property
    def top(self) -> str:
        return f"{self.project}-{self.version}"


SACREBLEU = Sdist(
    "sacrebleu",
    "2.6.0",
    "91499b6cd46138d95154fff1e863c2f9be57e82f0c719d8dd718d0006cf6c566",
    "test",
    ("test",),
)
NLTK = Sdist(
    "nltk",
    "3.10.4",
    "44679f4e9220abfd496d2c8cdb22f8425ccbe557604f9aa5cacb1c44003dabc1",
    "nltk/test/unit/translate",
    ("nltk/test/unit/translate/test_bleu.py",),
)
SDISTS = (SACREBLEU, NLTK)
# mode -> the suite it runs
MODES: Dict[str, Sdist] = {
    "sacrebleu-dropin": SACREBLEU,
    "sacrebleu-patch": SACREBLEU,
    "nltk-dropin": NLTK,
    "nltk-patch": NLTK,
}


class IndexUnreachable(Exception):
    """pip could not download the source distributions."""


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _verified(path: Path, sdist: Sdist) -> bool:
    return path.is_file() and sha256_of(path) == sdist.sha256


def fetch(dist_dir: Path, python: str = sys.executable) -> Dict[str, Path]:
    """The sdists in ``dist_dir``, downloaded unless already there with the pinned sha256.

    Raises IndexUnreachable when pip fails, ValueError when a download has another sha256."""
    dist_dir.mkdir(parents=True, exist_ok=True)
    missing = [s for s in SDISTS if not _verified(dist_dir / s.filename, s)]
    if missing:
        # A fresh folder, so a stale or partial file never stands in for a download.
        with tempfile.TemporaryDirectory(dir=dist_dir) as tmp:
            cmd = [
                python, "-m", "pip", "download", "--no-deps",
                "--no-binary", ",".join(s.project for s in missing),
                "--disable-pip-version-check", "--no-input", "--timeout", "30",
                "--dest", tmp, *(f"{s.project}=={s.version}" for s in missing),
            ]  # fmt: skip
            proc = subprocess.run(cmd, capture_output=True, text=True)
            if proc.returncode != 0:
                tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-5:])
                raise IndexUnreachable(f"pip download failed ({proc.returncode}):\n{tail}")
            for sdist in missing:
                got = Path(tmp) / sdist.filename
                if not got.is_file():
                    raise IndexUnreachable(f"pip download did not produce {sdist.filename}")
                digest = sha256_of(got)
                if digest != sdist.sha256:
                    raise ValueError(
                        f"{sdist.filename}: sha256 {digest}, expected {sdist.sha256} "
                        "(the index served another file than the pinned one)"
                    )
                shutil.move(str(got), str(dist_dir / sdist.filename))
    paths = {s.project: dist_dir / s.filename for s in SDISTS}
    for sdist in SDISTS:  # checked again, also when nothing was downloaded
        if not _verified(paths[sdist.project], sdist):
            raise ValueError(f"{paths[sdist.project]} does not have the pinned sha256")
    return paths


def unpack(archive: Path, sdist: Sdist, into: Path) -> Path:
    """Writes the regular files under ``sdist.tests`` of ``archive`` to ``into/<top>/``
    (replacing what was there) and returns that folder. Members are copied by hand, so no
    name, link or mode from the archive reaches the file system unchecked."""
    root = into / sdist.top
    shutil.rmtree(root, ignore_errors=True)
    prefix = f"{sdist.top}/{sdist.tests}/"
    count = 0
    with tarfile.open(archive, "r:gz") as tar:
        for member in tar:
            if not member.isfile() or not member.name.startswith(prefix):
                continue
            relative = member.name[len(sdist.top) + 1 :]
            parts = relative.split("/")
            if any(part in ("", ".", "..") for part in parts):
                raise ValueError(f"{archive.name}: unexpected member name {member.name!r}")
            target = root.joinpath(*parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            source = tar.extractfile(member)
            assert source is not None  # a regular file
            with source, target.open("wb") as out:
                shutil.copyfileobj(source, out)
            count += 1
    if count == 0:
        raise ValueError(f"{archive.name}: nothing under {prefix}")
    for arg in sdist.args:
        if not (root / arg).exists():
            raise ValueError(f"{archive.name}: {arg} is missing")
    return root


def pytest_command(mode: str, root: Path, python: str = sys.executable) -> List[str]:
    """The pytest command line of ``mode``, to run in the unpacked suite's root."""
    sdist = MODES[mode]
    return [
        python, "-m", "pytest", "-c", str(HERE / "pytest.ini"), "--rootdir", str(root),
        "--confcutdir", str(root), "-p", "no:cacheprovider", "-p", "turbobleu_modes",
        "--turbobleu-mode", mode, "--continue-on-collection-errors", "-rfE",
        *sdist.args,
    ]  # fmt: skip


def run_mode(mode: str, root: Path, home: Path, python: str = sys.executable) -> int:
    """Runs one mode; returns pytest's exit status."""
    env = dict(os.environ)
    # The plugin is found on PYTHONPATH; sacrebleu's cache (nothing is downloaded) stays in build/.
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(HERE), env.get("PYTHONPATH")) if p)
    env["SACREBLEU"] = str(home)
    # sacrebleu's test_significance reads ./test/wmt17_en_de_systems.pkl.bz2: the root is cwd.
    return subprocess.run(pytest_command(mode, root, python), cwd=root, env=env).returncode


def main(argv: Optional[Sequence[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--dir", type=Path, default=DEFAULT_DIR, help="work folder (default: %(default)s)"
    )
    p.add_argument("--only", nargs="+", choices=list(MODES), help="run these modes only")
    p.add_argument("--fetch-only", action="store_true", help="fetch, verify and unpack only")
    args = p.parse_args(argv)
    work = args.dir.resolve()
    build = REPO_ROOT / "build"
    inside = work == REPO_ROOT or REPO_ROOT in work.parents
    if inside and not (work == build or build in work.parents):
        p.error(f"--dir {work} is inside the repository but not under build/ (not ignored)")
    start = time.monotonic()
    try:
        archives = fetch(work / "dist")
    except IndexUnreachable as exc:
        print(f"the package index could not be reached: the upstream suites are skipped\n{exc}")
        return 0
    roots = {s.project: unpack(archives[s.project], s, work) for s in SDISTS}
    print(f"fetched, verified and unpacked in {time.monotonic() - start:.0f}s: {sorted(roots)}")
    if args.fetch_only:
        return 0
    home = work / "sacrebleu-home"
    home.mkdir(exist_ok=True)
    failed = []
    for mode in args.only or list(MODES):
        began = time.monotonic()
        print(f"\n--- {mode}", flush=True)
        status = run_mode(mode, roots[MODES[mode].project], home)
        print(f"--- {mode}: exit status {status} in {time.monotonic() - began:.0f}s", flush=True)
        if status != 0:
            failed.append(mode)
    print(f"\nupstream suites: {len(failed)} of {len(args.only or MODES)} modes failed {failed}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
