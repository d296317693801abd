"""The installer's build, run for real (issue 34, defect 20): the wheels are built by an account made
for the build, in a folder only it and root reach; the account is gone afterwards, also when the
build fails or the installer is stopped; a wheel altered between the build and its install is
refused; in image mode the image's root gains no account.

These run ``systemd/install.sh``'s own functions (the script is sourced, as ``main`` would call
them) or its ``main`` up to the point a real Debian root is needed. They need root (they make and
remove accounts on this machine) and the locked setuptools wheel and sdnotify sdist (fetched once
with pip; skipped when neither root nor the files are to be had). The rest of an install (apt, the
units, the release made by chroot in an arm64 root) is what ``tests/test_installer.py`` follows in
dry runs and the ``pi`` tests do for real.
"""

from __future__ import annotations

import grp
import hashlib
import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
INSTALLER = ROOT / "systemd" / "install.sh"
PROJECT = "tabletop_companion-0.1.0-py3-none-any.whl"  # the project's own wheel, as the build names it

pytestmark = pytest.mark.skipif(os.geteuid() != 0 or shutil.which("useradd") is None
                                or shutil.which("runuser") is None,
                                reason="the build makes and removes an account: root, useradd and runuser")


@pytest.fixture(scope="module")
def wheelhouse() -> Iterator[Path]:
    """The files the build's locks name (the setuptools wheel, sdnotify's sdist), by their hashes, in
    a folder every account can read, as ``--wheelhouse`` asks (pytest's own folders are root's alone)."""
    folder = Path(tempfile.mkdtemp(prefix="companion-test-wheelhouse."))
    try:
        _download(folder)
        yield folder
    finally:
        shutil.rmtree(folder)


def _download(folder: Path) -> None:
    locks = ROOT / "systemd"
    for binary, lock in (("--only-binary", "requirements-build.lock"),
                         ("--no-binary", "requirements-source.lock")):
        done = subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                               "--require-hashes", binary, ":all:", "-d", str(folder),
                               "-r", str(locks / lock)],
                              capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            pytest.skip(f"the locked build files could not be fetched: {done.stderr[-300:]}")
    for path in (folder, *folder.iterdir()):
        path.chmod(0o755 if path.is_dir() else 0o644)


#: What the tests run first: install.sh's functions, defined and not run. ``--dry-run`` is a
#: safety net: an installer that ran its main when sourced (as before issue 34) would only print.
SOURCE = f'source "{INSTALLER}" --dry-run\nset_paths\n'


@pytest.fixture(scope="module", autouse=True)
def sourcing_runs_nothing() -> None:
    done = subprocess.run(["bash", "-c", SOURCE + "declare -F make_build_account"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0 and done.stdout == "make_build_account\n", done.stdout[-2000:]


def _bash(script: str, *, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """``script`` run after install.sh's functions are defined."""
    return subprocess.run(["bash", "-c", SOURCE + script], capture_output=True, text=True, timeout=timeout)


def _facts(done: subprocess.CompletedProcess[str]) -> dict[str, list[str]]:
    """The ``key=value`` lines a test's script printed (every value of each key)."""
    facts: dict[str, list[str]] = {}
    for line in done.stdout.splitlines():
        key, sep, value = line.partition("=")
        if sep and key.isidentifier():
            facts.setdefault(key, []).append(value)
    return facts


def _accounts() -> set[str]:
    return {entry.pw_name for entry in pwd.getpwall()}


def _groups() -> set[str]:
    return {entry.gr_name for entry in grp.getgrall()}


def _processes_of(uid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if entry.stat().st_uid == uid:
                    found.append(int(entry.name))
            except FileNotFoundError:
                continue
    return found


@dataclass
class Build:
    account: str
    uid: int
    dir: Path
    dir_mode: str
    dir_owner: int
    wheel_owners: set[int]
    stage: Path
    stage_mode: str
    built: dict[str, str]  # wheel name -> sha256 recorded when the build ended
    kept: Path  # a copy of root's wheels folder, for the install tests
    accounts_before: set[str]
    uids_before: set[int]
    done: subprocess.CompletedProcess[str]


@pytest.fixture(scope="module")
def build(wheelhouse: Path, tmp_path_factory: pytest.TempPathFactory) -> Build:
    """One real build of this checkout, as ``install_environment`` runs it, looked at while its
    account exists and after ``end_build``."""
    kept = tmp_path_factory.mktemp("kept")
    before = pwd.getpwall()
    done = _bash(f'''
WHEELHOUSE="{wheelhouse}"
guard_exit
make_build_account
build_wheels > "{kept}/build.log" 2>&1
# while the build's account exists: who it is and where it built
echo "account=$BUILD_ACCOUNT"
echo "uid=$(id -u "$BUILD_ACCOUNT")"
echo "dir=$BUILD_DIR"
stat -c 'dir_mode=%a' "$BUILD_DIR"; stat -c 'dir_owner=%u' "$BUILD_DIR"
for wheel in "$BUILD_DIR"/wheels/*.whl; do stat -c 'wheel_owner=%u' "$wheel"; done
end_build
echo "stage=$STAGE"; stat -c 'stage_mode=%a %u' "$STAGE"
for line in "${{BUILT[@]}}"; do echo "built=$line"; done
cp "$STAGE"/*.whl "{kept}/"
''')
    facts = _facts(done)
    assert done.returncode == 0, done.stderr + (kept / "build.log").read_text(errors="replace")[-3000:]
    return Build(account=facts["account"][0], uid=int(facts["uid"][0]), dir=Path(facts["dir"][0]),
                 dir_mode=facts["dir_mode"][0], dir_owner=int(facts["dir_owner"][0]),
                 wheel_owners={int(uid) for uid in facts["wheel_owner"]}, stage=Path(facts["stage"][0]),
                 stage_mode=facts["stage_mode"][0],
                 built={line.split(" ", 1)[1]: line.split(" ", 1)[0] for line in facts["built"]}, kept=kept,
                 accounts_before={entry.pw_name for entry in before},
                 uids_before={entry.pw_uid for entry in before}, done=done)


def test_the_build_runs_as_a_fresh_account_in_a_folder_only_it_reaches(build: Build) -> None:
    nobody = pwd.getpwnam("nobody").pw_uid
    assert build.account.startswith("companion-build-") and build.account not in build.accounts_before
    assert build.uid not in build.uids_before | {0, nobody}  # a uid no account had: shared with nothing
    assert build.dir_mode == "700" and build.dir_owner == build.uid
    assert build.wheel_owners == {build.uid}  # the build's processes ran as it
    assert sorted(build.built) == ["sdnotify-0.3.2-py3-none-any.whl", PROJECT]


def test_the_account_and_its_folder_are_gone_when_the_build_ends(build: Build) -> None:
    assert build.account not in _accounts() and build.account not in _groups()
    assert not build.dir.exists()
    assert _processes_of(build.uid) == []
    # root's folder for the wheels: root's alone, removed when the installer ended
    assert build.stage_mode == "700 0" and not build.stage.exists()


def test_each_wheel_is_hashed_when_the_build_ends(build: Build) -> None:
    for name, digest in build.built.items():
        assert hashlib.sha256((build.kept / name).read_bytes()).hexdigest() == digest
        assert f"# built {name} sha256:{digest}" in build.done.stdout


def _install(build: Build, tmp_path: Path, change: str) -> tuple[subprocess.CompletedProcess[str], Path]:
    """``install_built_wheels`` into a fresh environment, from root's folder holding the build's
    wheels and their recorded hashes, after ``change`` (a shell command run in that folder)."""
    release = tmp_path / "release"
    subprocess.run(["python3", "-m", "venv", str(release)], check=True, timeout=300)
    built = " ".join(f'"{digest} {name}"' for name, digest in build.built.items())
    done = _bash(f'''
guard_exit
STAGE="$(mktemp -d)"
cp "{build.kept}"/*.whl "$STAGE/"
BUILT=({built})
(cd "$STAGE" && {change})
install_built_wheels "{release}"
''')
    return done, release


def _installed(release: Path) -> set[str]:
    return {path.name.split("-")[0] for path in release.glob("lib/python3*/site-packages/*.dist-info")}


@pytest.mark.parametrize("change", [
    f"printf 'x' >> {PROJECT}",  # a byte added
    f"cp sdnotify-0.3.2-py3-none-any.whl {PROJECT}",  # another wheel, whole, under its name
    # a module added inside it, the wheel otherwise whole
    f"python3 -c 'import zipfile; zipfile.ZipFile(\"{PROJECT}\", \"a\").writestr(\"companion/x.py\", \"\")'",
])
def test_a_wheel_altered_between_its_build_and_its_install_is_refused(build: Build, tmp_path: Path,
                                                                      change: str) -> None:
    done, release = _install(build, tmp_path, change)
    assert done.returncode == 1
    message = done.stderr.strip()
    assert len(message.splitlines()) == 1, message
    assert message.startswith(f"install.sh: {PROJECT} changed after it was built (sha256 "
                              f"{build.built[PROJECT]} when the build ended, ")
    assert message.endswith(" now); nothing of it is installed")
    assert "tabletop_companion" not in _installed(release)


def test_a_wheel_gone_before_its_install_is_refused(build: Build, tmp_path: Path) -> None:
    done, release = _install(build, tmp_path, f"rm {PROJECT}")
    assert done.returncode == 1
    assert done.stderr.strip() == (f"install.sh: {PROJECT}, built by this installer, is gone; "
                                   "nothing of it is installed")
    assert not {"tabletop_companion", "sdnotify"} & _installed(release)


def test_the_wheels_as_built_are_installed_by_their_hashes(build: Build, tmp_path: Path) -> None:
    done, release = _install(build, tmp_path, "true")
    assert done.returncode == 0, done.stderr
    assert {"tabletop_companion", "sdnotify"} <= _installed(release)
    assert "--require-hashes" in done.stdout


@pytest.mark.parametrize(("left", "says"), [
    ("ln -s /etc/shadow \"$BUILD_DIR/wheels/x-1-py3-none-any.whl\"",
     "the build left x-1-py3-none-any.whl, which is not a wheel"),  # root would read what it points to
    ("mkdir \"$BUILD_DIR/wheels/y.whl\"", "the build left y.whl, which is not a wheel"),
    ("true", "the build left no wheels"),  # its folder empty
])
def test_what_the_build_left_that_is_not_a_wheel_is_refused(left: str, says: str) -> None:
    done = _bash(f'''
guard_exit
make_build_account > /dev/null
echo "account=$BUILD_ACCOUNT"
as_build_account mkdir "$BUILD_DIR/wheels" > /dev/null
as_build_account {left} > /dev/null
end_build
echo "not reached=1"
''', timeout=120)
    assert done.returncode == 1 and "not reached" not in done.stdout
    assert done.stderr.strip() == f"install.sh: {says}"
    assert _facts(done)["account"][0] not in _accounts()


def test_a_failed_build_leaves_no_account_nor_a_process_of_it(wheelhouse: Path) -> None:
    """The build fails with a process of its account still running (one it started and left):
    the installer exits, and what it made is gone."""
    done = _bash('''
guard_exit
make_build_account > /dev/null
echo "account=$BUILD_ACCOUNT"; echo "uid=$BUILD_UID"; echo "dir=$BUILD_DIR"
as_build_account bash -c 'sleep 300 & echo "left=$!"; exit 3'
echo "not reached=1"
''', timeout=120)
    facts = _facts(done)
    assert done.returncode == 3 and "not reached" not in facts, done.stdout
    account, uid, left = facts["account"][0], int(facts["uid"][0]), int(facts["left"][0])
    assert account not in _accounts() and account not in _groups()
    assert not Path(facts["dir"][0]).exists()
    assert _processes_of(uid) == [] and not Path(f"/proc/{left}").exists()


def test_a_wheelhouse_the_build_cannot_read_is_refused_and_leaves_no_account(tmp_path: Path) -> None:
    hidden = tmp_path / "wheels"  # under pytest's folders, which are root's alone
    hidden.mkdir()
    done = _bash(f'''
guard_exit
WHEELHOUSE="{hidden}"
make_build_account
echo "not reached=1"
''', timeout=120)
    assert done.returncode == 1 and "not reached" not in done.stdout
    assert done.stderr.strip() == (f"install.sh: the build's account cannot read {hidden} "
                                   "(--wheelhouse: a folder every account can read)")
    account = next(line.split()[-1] for line in done.stdout.splitlines() if line.startswith("+ useradd "))
    assert f"+ userdel {account}" in done.stdout and account not in _accounts()


def test_a_stopped_build_leaves_no_account(wheelhouse: Path) -> None:
    """SIGTERM while the build's account runs: the installer exits 130 and removes it."""
    script = SOURCE + '''
guard_exit
make_build_account > /dev/null
echo "account=$BUILD_ACCOUNT"; echo "uid=$BUILD_UID"
as_build_account sleep 300 > /dev/null &
while ! pgrep -u "$BUILD_UID" sleep > /dev/null; do sleep 0.05; done
echo "running=1"
wait
'''
    process = subprocess.Popen(["bash", "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    assert process.stdout is not None
    lines = []
    for line in process.stdout:
        lines.append(line.strip())
        if line.startswith("running="):
            break
    process.send_signal(signal.SIGTERM)
    rest, errors = process.communicate(timeout=60)
    facts = _facts(subprocess.CompletedProcess([], 0, "\n".join(lines) + rest, errors))
    assert process.returncode == 130, errors
    account, uid = facts["account"][0], int(facts["uid"][0])
    assert account not in _accounts() and _processes_of(uid) == []


def _image_root(tmp_path: Path) -> Path:
    """A root as the image build hands it over, as far as the installer reads it before its first
    chroot: the accounts files and a python3 (a link to nothing: chroot is where this stops)."""
    root = tmp_path / "root"
    for folder in ("etc", "usr/bin", "tmp", "proc", "dev"):
        (root / folder).mkdir(parents=True)
    (root / "etc" / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n"
                                         "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n")
    (root / "etc" / "group").write_text("root:x:0:\nvideo:x:44:\nnogroup:x:65534:\n")
    (root / "usr" / "bin" / "python3").symlink_to("python3.11")
    return root


@pytest.mark.skipif(shutil.which("unshare") is None, reason="unshare keeps the installer's mounts its own")
def test_image_mode_builds_here_and_the_image_gains_no_build_account(wheelhouse: Path,
                                                                    tmp_path: Path) -> None:
    """``install.sh --root`` run for real (in a mount namespace of its own, so its /proc and /dev
    mounts are its own): the build runs on this machine and its wheels reach the root's /tmp; it
    stops at the first chroot, which needs a real Debian root (the ``pi`` tests build one)."""
    root = _image_root(tmp_path)
    passwd, group = (root / "etc" / "passwd").read_text(), (root / "etc" / "group").read_text()
    accounts = _accounts()
    env = {**os.environ, "PIP_CERT": "/etc/ssl/certs/ca-certificates.crt"}
    env.pop("COMPANION_INSTALL_ROOT", None)
    done = subprocess.run(["unshare", "--mount", "--propagation", "private", "bash", str(INSTALLER),
                           "--root", str(root), "--headless", "--wheelhouse", str(wheelhouse)],
                          capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode != 0  # the release is made by chroot into the root: not here
    out = done.stdout
    made = next(line.split() for line in out.splitlines()
                if line.startswith("+ useradd --system --user-group"))
    account, build_dir = made[-1], Path(made[made.index("--home-dir") + 1])
    assert f"# built {PROJECT} sha256:" in out, done.stdout[-3000:] + done.stderr[-3000:]
    assert f"+ userdel {account}" in out
    assert out.index(f"+ userdel {account}") < out.index(f"+ chroot {root} env -i ")
    # the build's account was this machine's, and is gone; the root has the service's and no other
    assert _accounts() == accounts
    added = set((root / "etc" / "passwd").read_text().splitlines()) - set(passwd.splitlines())
    assert [line.split(":")[0] for line in added] == ["companion"]
    assert "companion-build" not in (root / "etc" / "group").read_text() and group
    # root's folder for the wheels was in the root's /tmp, and is removed as the installer ends
    assert f"{root}/tmp/companion-wheels." in out
    assert not list((root / "tmp").glob("companion-wheels.*"))
    assert not build_dir.exists()
