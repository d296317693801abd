"""The official 7" DSI display's overlay for Debian's kernel (systemd/image/dsi-7inch, issue 37):
it compiles with Debian's dtc, applies with fdtoverlay onto Debian's own Raspberry Pi 4 tree, the
merged tree holds what the kernel's modules bind to, and its hook merges it again after a kernel
update and leaves the firmware's file alone when it cannot.

Debian's kernel comes from tests/dsi_kernel_kit.py (the image build's cached base, or the package on
Debian's mirror, checked and cached). None of this shows that a real panel lights up: that is for a
person with the display (docs/appliance.md, "What Debian's kernel drives").
"""

from __future__ import annotations

import fnmatch
import os
import re
import shutil
import stat
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.dsi_kernel_kit import DTB, Kernel, kernel

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "systemd" / "image" / "dsi-7inch"
SOURCE = FOLDER / "companion-dsi-7inch.dts"
HOOK = FOLDER / "z60-companion-dsi-7inch"
I2C0 = "/soc/i2c@7e205000"
DSI1 = "/soc/dsi@7e700000"
PANEL = f"{I2C0}/lcd@45"
TOUCH = f"{I2C0}/touchscreen@38"

pytestmark = pytest.mark.skipif(shutil.which("dtc") is None or shutil.which("fdtoverlay") is None,
                                reason="Debian's device-tree-compiler is not installed (.ci/run installs it)")


def _run(*command: str | Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(c) for c in command], capture_output=True, text=True, timeout=120, env=env)


def _get(dtb: Path, node: str, prop: str, kind: str = "s") -> str:
    done = _run("fdtget", "-t", kind, dtb, node, prop)
    assert done.returncode == 0, f"{node} {prop}: {done.stderr}"
    return done.stdout.strip()


def _has(dtb: Path, node: str, prop: str) -> bool:
    return _run("fdtget", dtb, node, prop).returncode == 0


@pytest.fixture(scope="module")
def debian() -> Kernel:
    return kernel()


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("dsi")


@pytest.fixture(scope="module")
def overlay(folder: Path) -> Path:
    compiled = folder / "companion-dsi-7inch.dtbo"
    done = _run("dtc", "-I", "dts", "-O", "dtb", "-o", compiled, SOURCE)
    assert done.returncode == 0, done.stderr
    return compiled


@pytest.fixture(scope="module")
def merged(debian: Kernel, overlay: Path, folder: Path) -> Path:
    out = folder / DTB
    done = _run("fdtoverlay", "-i", debian.dtb, "-o", out, overlay)
    assert done.returncode == 0, f"onto {debian.origin}: {done.stderr}"
    return out


# -- the overlay: compiled, applied ------------------------------------------------------------------

def test_the_overlay_compiles_without_a_warning() -> None:
    done = _run("dtc", "-I", "dts", "-O", "dtb", "-o", os.devnull, SOURCE)
    assert done.returncode == 0 and done.stderr == "", done.stderr


def test_the_overlay_needs_no_label_of_the_base_tree(overlay: Path, debian: Kernel) -> None:
    """Debian's tree has no __symbols__: every fragment names its target by path, and nothing in
    the overlay is left for the base's labels to resolve (no __fixups__)."""
    assert "__symbols__" not in _run("fdtget", "-l", debian.dtb, "/").stdout.split()
    nodes = _run("fdtget", "-l", overlay, "/").stdout.split()
    assert "__fixups__" not in nodes
    fragments = [n for n in nodes if n.startswith("fragment@")]
    assert len(fragments) == 3
    for fragment in fragments:
        assert not _has(overlay, f"/{fragment}", "target")
        assert _get(overlay, f"/{fragment}", "target-path").startswith("/soc/")


def test_the_merged_tree_switches_dsi1_on_and_links_it_to_the_panel(merged: Path, debian: Kernel) -> None:
    assert _get(debian.dtb, DSI1, "status") == "disabled"  # as Debian ships it: the panel dark
    assert _get(merged, DSI1, "status") == "okay"
    dsi_end, panel_end = f"{DSI1}/port/endpoint", f"{PANEL}/port/endpoint"
    assert _get(merged, dsi_end, "remote-endpoint", "x") == _get(merged, panel_end, "phandle", "x")
    assert _get(merged, panel_end, "remote-endpoint", "x") == _get(merged, dsi_end, "phandle", "x")
    assert _get(merged, PANEL, "reg", "x") == "45"
    assert _get(merged, TOUCH, "reg", "x") == "38"
    assert _get(merged, TOUCH, "touchscreen-size-x", "u") == "800"
    assert _get(merged, TOUCH, "touchscreen-size-y", "u") == "480"


def test_the_display_bus_is_i2c0_on_gpio_44_and_45(merged: Path, debian: Kernel) -> None:
    """I2C0's pins: GPIO 0/1 in Debian's tree, the display connector's SDA0/SCL0 (GPIO 44/45,
    alternate function 1) in the merged one."""
    assert _get(merged, I2C0, "status") == "okay"
    assert _get(debian.dtb, "/soc/gpio@7e200000", "gpio-line-names").split()[44:46] == ["SDA0", "SCL0"]
    pins = _get(merged, I2C0, "pinctrl-0", "x")
    groups = [n for n in _run("fdtget", "-l", merged, "/soc/gpio@7e200000").stdout.split()
              if _has(merged, f"/soc/gpio@7e200000/{n}", "phandle")
              and _get(merged, f"/soc/gpio@7e200000/{n}", "phandle", "x") == pins]
    assert len(groups) == 1
    group = f"/soc/gpio@7e200000/{groups[0]}"
    assert _get(merged, group, "brcm,pins", "u") == "44 45"
    assert _get(merged, group, "brcm,function", "u") == "5"
    assert _get(debian.dtb, I2C0, "pinctrl-0", "x") != pins


def test_only_the_overlay_changed_in_the_tree(merged: Path, debian: Kernel) -> None:
    """Of Debian's tree, only two lines are gone (DSI1's "disabled" and I2C0's pins on GPIO 0/1);
    everything else is there as Debian made it, the display's nodes added."""
    def lines(dtb: Path) -> Counter[str]:
        text = _run("dtc", "-q", "-I", "dtb", "-O", "dts", dtb).stdout
        return Counter(line.strip() for line in text.splitlines())

    before, after = lines(debian.dtb), lines(merged)
    gone = sorted((before - after).elements())
    assert len(gone) == 2 and gone[1] == 'status = "disabled";', gone
    assert re.fullmatch(r"pinctrl-0 = <0x[0-9a-f]+>;", gone[0]), gone
    assert 'compatible = "raspberrypi,7inch-touchscreen-panel";' in after - before


# -- what the kernel's modules bind to ---------------------------------------------------------------

def _aliases(debian: Kernel) -> list[tuple[str, str]]:
    found = []
    for line in debian.modules_alias.read_text().splitlines():
        if line.startswith("alias of:"):
            _, pattern, module = line.split(" ", 2)
            found.append((pattern, module))
    return found


def _modalias(dtb: Path, node: str) -> str:
    """The node's modalias as Linux 6.1 makes it (of_modalias): its name, its type (none here:
    printed "(null)") and each compatible string in order."""
    name = node.rsplit("/", 1)[1].split("@")[0]
    kind = _get(dtb, node, "device_type") if _has(dtb, node, "device_type") else "(null)"
    compatibles = _run("fdtget", "-t", "s", dtb, node, "compatible").stdout.split()
    return f"of:N{name}T{kind}" + "".join(f"C{c}" for c in compatibles)


def _bound_by(debian: Kernel, dtb: Path, node: str) -> set[str]:
    """The modules whose aliases match the node's modalias, as kmod matches them (fnmatch)."""
    modalias = _modalias(dtb, node)
    return {module for pattern, module in _aliases(debian) if fnmatch.fnmatchcase(modalias, pattern)}


@pytest.mark.parametrize(("node", "module"), [(PANEL, "panel_raspberrypi_touchscreen"),
                                              (TOUCH, "edt_ft5x06"),
                                              (I2C0, "i2c_bcm2835"),
                                              ("/gpu", "vc4")])
def test_each_node_has_a_module_of_the_kernel_by_its_aliases(merged: Path, debian: Kernel, node: str,
                                                             module: str) -> None:
    found = _bound_by(debian, merged, node)
    assert found == {module}, f"{node} ({_modalias(merged, node)}) in {debian.origin}: {found}"


def test_dsi1_is_bound_by_vc4_through_its_match_table(merged: Path, debian: Kernel) -> None:
    """vc4's DSI is a part of the vc4 module, which loads by the GPU node's alias; its own platform
    driver has no module alias, so its compatible is found in vc4's of_device_id table: an entry is
    a 32-byte name and a 32-byte type (both empty) followed by the 128-byte compatible string."""
    compatible = _get(merged, DSI1, "compatible")
    assert compatible == "brcm,bcm2711-dsi1"
    assert _bound_by(debian, merged, DSI1) == set()
    assert b"\0" * 64 + compatible.encode() + b"\0" in debian.vc4.read_bytes()
    assert b"\0" * 64 + b"brcm,bcm2711-dsi9\0" not in debian.vc4.read_bytes()  # the search can fail


def test_debians_kernel_has_no_driver_for_the_bridge_model(debian: Kernel) -> None:
    """Why the panel is described by the older binding: the other (the ATtiny as a regulator
    feeding a TC358762 bridge) needs a bridge driver Debian's 6.1 does not build."""
    patterns = [p for p, _ in _aliases(debian)]
    assert not [p for p in patterns if "tc358762" in p]
    assert [p for p in patterns if p.startswith("of:N*T*Craspberrypi,7inch-touchscreen-panel-regulator")]


def test_debians_touch_driver_asks_for_an_interrupt_the_display_has_not(debian: Kernel) -> None:
    """Why touch is not expected to work with Debian's 6.1 (docs/appliance.md): the display's cable
    carries no interrupt line, and its edt-ft5x06 has no polled mode (Raspberry Pi's kernel adds
    one). Read from the module's symbols: its interrupt handler is there, no poll function is."""
    module = debian.edt_ft5x06.read_bytes()
    assert b"\0edt_ft5x06_ts_isr\0" in module and b"\0devm_request_threaded_irq\0" in module
    assert not re.findall(rb"\0[a-z0-9_]*poll[a-z0-9_]*\0", module)


# -- the hook: merging again after a kernel update ---------------------------------------------------

def _tree(root: Path, versions: dict[str, Path], overlay: Path) -> None:
    """A root as a Debian box has it: kernels in /boot and /usr/lib/linux-image-*, raspi-firmware's
    copy of the newest's device tree on /boot/firmware, the overlay where build.sh puts it."""
    for version, dtb in versions.items():
        (root / "boot").mkdir(parents=True, exist_ok=True)
        (root / "boot" / f"vmlinuz-{version}").write_bytes(b"kernel")
        lib = root / "usr" / "lib" / f"linux-image-{version}" / "broadcom"
        lib.mkdir(parents=True)
        shutil.copyfile(dtb, lib / DTB)
    (root / "usr" / "lib" / "companion-image").mkdir(parents=True, exist_ok=True)
    shutil.copyfile(overlay, root / "usr" / "lib" / "companion-image" / "companion-dsi-7inch.dtbo")
    _raspi_firmware(root)


def _raspi_firmware(root: Path) -> None:
    """What z50-raspi-firmware does to the device tree: the newest kernel's, copied as it is."""
    newest = sorted((p.name.removeprefix("vmlinuz-") for p in (root / "boot").glob("vmlinuz-*")),
                    key=lambda v: [int(x) if x.isdigit() else x for x in v.replace("-", ".").split(".")])[-1]
    (root / "boot" / "firmware").mkdir(parents=True, exist_ok=True)
    shutil.copyfile(root / "usr" / "lib" / f"linux-image-{newest}" / "broadcom" / DTB,
                    root / "boot" / "firmware" / DTB)


def _hook(root: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {"PATH": os.environ["PATH"], "COMPANION_DSI_ROOT": str(root), **env}
    return _run("sh", HOOK, *args, env=environment)


def _marked(dtb: Path, folder: Path, mark: str) -> Path:
    """A copy of a real tree told apart by its model (another kernel's tree, for the checks)."""
    copy = folder / f"{mark}.dtb"
    shutil.copyfile(dtb, copy)
    assert _run("fdtput", "-t", "s", copy, "/", "model", mark).returncode == 0
    return copy


@pytest.fixture
def box(tmp_path: Path, debian: Kernel, overlay: Path) -> Iterator[Path]:
    root = tmp_path / "root"
    _tree(root, {"6.1.0-9-arm64": _marked(debian.dtb, tmp_path, "the older kernel")}, overlay)
    done = _hook(root, "6.1.0-9-arm64", "/boot/vmlinuz-6.1.0-9-arm64", DEB_MAINT_PARAMS="configure")
    assert done.returncode == 0 and _has(root / "boot/firmware" / DTB, PANEL, "compatible"), done.stderr
    yield root


def test_the_hook_merges_the_new_kernels_tree_after_an_update(box: Path, debian: Kernel, overlay: Path,
                                                              tmp_path: Path) -> None:
    # the update: a newer kernel, and raspi-firmware's hook copying its plain tree over the merged one
    _tree(box, {"6.1.0-10-arm64": debian.dtb}, overlay)
    firmware = box / "boot" / "firmware" / DTB
    assert not _has(firmware, PANEL, "compatible")
    done = _hook(box, "6.1.0-10-arm64", "/boot/vmlinuz-6.1.0-10-arm64", DEB_MAINT_PARAMS="configure")
    assert done.returncode == 0, done.stderr
    assert "is now the" in done.stderr and "6.1.0-10-arm64" in done.stderr
    assert _get(firmware, "/", "model") == _get(debian.dtb, "/", "model")  # the new kernel's, not the old
    expected = tmp_path / "expected.dtb"
    assert _run("fdtoverlay", "-i", debian.dtb, "-o", expected, overlay).returncode == 0
    assert firmware.read_bytes() == expected.read_bytes()
    assert sorted(p.name for p in firmware.parent.iterdir()) == [DTB]  # no temporary file left


def test_the_hook_runs_again_after_an_initramfs_update(box: Path) -> None:
    """update-initramfs runs z50-raspi-firmware (a plain tree again), then this hook, with the
    kernel's version and the initramfs as arguments and no DEB_MAINT_PARAMS."""
    _raspi_firmware(box)
    done = _hook(box, "6.1.0-9-arm64", "/boot/initrd.img-6.1.0-9-arm64")
    assert done.returncode == 0 and _has(box / "boot/firmware" / DTB, PANEL, "compatible"), done.stderr
    again = _hook(box, "6.1.0-9-arm64", "/boot/initrd.img-6.1.0-9-arm64")
    assert "already" in again.stderr


@pytest.mark.parametrize("env", [{"DEB_MAINT_PARAMS": "remove"}, {"INITRAMFS_TOOLS_KERNEL_HOOK": "1"}])
def test_the_hook_leaves_what_raspi_firmware_also_leaves(box: Path, env: dict[str, str]) -> None:
    """A kernel's removal, and an initramfs update the kernel package's own hooks follow: nothing."""
    _raspi_firmware(box)
    before = (box / "boot/firmware" / DTB).read_bytes()
    assert _hook(box, **env).returncode == 0
    assert (box / "boot/firmware" / DTB).read_bytes() == before


def _broken(folder: Path, text: str) -> Path:
    """The overlay's source with one line changed, compiled (an overlay the new kernel's tree
    cannot take)."""
    source = SOURCE.read_text()
    assert 'target-path = "/soc/dsi@7e700000";' in source
    dts = folder / "broken.dts"
    dts.write_text(source.replace('target-path = "/soc/dsi@7e700000";', text))
    dtbo = folder / "broken.dtbo"
    assert _run("dtc", "-q", "-I", "dts", "-O", "dtb", "-o", dtbo, dts).returncode == 0
    return dtbo


@pytest.mark.parametrize("breakage", ["a node the tree lacks", "not an overlay"])
def test_a_merge_that_fails_leaves_the_firmwares_file(box: Path, debian: Kernel, tmp_path: Path,
                                                      breakage: str) -> None:
    overlay = box / "usr" / "lib" / "companion-image" / "companion-dsi-7inch.dtbo"
    broken = tmp_path / "half.dtbo"
    if breakage == "a node the tree lacks":
        broken = _broken(tmp_path, 'target-path = "/soc/dsi@7e700001";')
    else:
        broken.write_bytes(overlay.read_bytes()[:200])
    _tree(box, {"6.1.0-10-arm64": debian.dtb}, broken)  # the update: raspi-firmware's plain copy
    firmware = box / "boot" / "firmware" / DTB
    before = firmware.read_bytes()
    done = _hook(box, DEB_MAINT_PARAMS="configure")
    assert done.returncode == 0  # a kernel update is never left half-configured by it
    assert firmware.read_bytes() == before
    assert sorted(p.name for p in firmware.parent.iterdir()) == [DTB]
    assert len(done.stderr.splitlines()) == 1
    assert "fdtoverlay could not merge" in done.stderr and "left as it was" in done.stderr


def test_a_box_without_the_display_can_have_the_plain_tree_back(box: Path, debian: Kernel,
                                                                tmp_path: Path) -> None:
    (box / "etc" / "default").mkdir(parents=True)
    (box / "etc" / "default" / "companion-dsi-7inch").write_text("DSI_PANEL=no\n")
    done = _hook(box, DEB_MAINT_PARAMS="configure")
    assert done.returncode == 0 and "DSI_PANEL=no" in done.stderr
    plain = _marked(debian.dtb, tmp_path, "the older kernel")
    assert (box / "boot/firmware" / DTB).read_bytes() == plain.read_bytes()


def test_the_hook_merges_nothing_when_raspi_firmware_copies_no_tree(box: Path) -> None:
    (box / "etc" / "default").mkdir(parents=True)
    (box / "etc" / "default" / "raspi-firmware").write_text("KERNEL=vmlinuz-custom\n")
    _raspi_firmware(box)
    before = (box / "boot/firmware" / DTB).read_bytes()
    done = _hook(box, DEB_MAINT_PARAMS="configure")
    assert done.returncode == 0 and "KERNEL=vmlinuz-custom" in done.stderr
    assert (box / "boot/firmware" / DTB).read_bytes() == before


def test_run_parts_runs_the_hook_after_raspi_firmwares(tmp_path: Path) -> None:
    """The name run-parts accepts and orders after z50-raspi-firmware (in /etc/kernel/postinst.d
    and /etc/initramfs/post-update.d alike)."""
    for name in ("z50-raspi-firmware", HOOK.name, "initramfs-tools"):
        script = tmp_path / name
        script.write_text("#!/bin/sh\n")
        script.chmod(script.stat().st_mode | stat.S_IXUSR)
    done = _run("run-parts", "--test", tmp_path)
    assert [Path(p).name for p in done.stdout.split()] == ["initramfs-tools", "z50-raspi-firmware", HOOK.name]
    assert os.access(HOOK, os.X_OK)


def test_shellcheck_finds_nothing_in_the_hook() -> None:
    shellcheck = shutil.which("shellcheck") or str(Path(sys.executable).parent / "shellcheck")
    done = _run(shellcheck, HOOK)
    assert done.returncode == 0, done.stdout
