"""Debian's arm64 kernel, as far as the DSI overlay's checks need it (tests/test_dsi_overlay.py): the
Raspberry Pi 4's device tree it ships, the aliases its modules bind by, and the ``vc4`` and
``edt-ft5x06`` modules.

From the image build's cached Debian base when there is one (``base-*`` in the cache folder: the
kernel the image is built with, its ``modules.alias`` written by depmod). Otherwise from the
``linux-image-*-arm64`` package on Debian's mirror: the version is the one Bookworm's
``linux-image-arm64`` depends on today (in the security suite when it is newer there), read from the
archive's index, whose signature ``gpgv`` checks against Debian's keyring and whose SHA256 of the
package the download must match. The package's data is read as a stream and only these are kept,
under the cache folder: the device tree, those two modules, and ``modules.alias`` made as depmod
makes it (a line ``alias PATTERN MODULE`` for each alias in each module's ``.modinfo``: the .deb
carries no modules.alias, depmod writes it when the kernel is installed). Without a network, the
newest kernel kept before serves.
"""

from __future__ import annotations

import hashlib
import lzma
import os
import re
import shutil
import struct
import subprocess
import tarfile
import tempfile
import urllib.request
from dataclasses import dataclass
from pathlib import Path

CACHE = Path(os.environ.get("COMPANION_IMAGE_CACHE")
             or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "companion-image")
DTB = "bcm2711-rpi-4-b.dtb"
MIRRORS = (("http://deb.debian.org/debian", "bookworm"),
           ("http://deb.debian.org/debian-security", "bookworm-security"))
KEYRING = Path("/usr/share/keyrings/debian-archive-keyring.gpg")
INDEX = "main/binary-arm64/Packages.xz"
TIMEOUT = 300
#: The modules kept from the package, by the names the checks read them by.
KEPT_MODULES = ("vc4.ko", "edt_ft5x06.ko")


@dataclass(frozen=True)
class Kernel:
    """One Debian arm64 kernel's files: where they came from, and those the checks read."""

    version: str
    origin: str
    dtb: Path
    modules_alias: Path
    vc4: Path
    edt_ft5x06: Path


def kernel() -> Kernel:
    """The cached base's kernel when the image has been built here, else the archive's (cached)."""
    return _from_base() or _from_archive()


def _from_base() -> Kernel | None:
    bases = sorted(CACHE.glob("base-*/usr/lib/linux-image-*/broadcom/" + DTB),
                   key=lambda path: path.stat().st_mtime, reverse=True)
    for dtb in bases:
        base = dtb.parents[4]
        if base.name.endswith(".part"):  # a base mmdebstrap is still making
            continue
        version = dtb.parents[1].name.removeprefix("linux-image-")
        modules = base / "usr" / "lib" / "modules" / version
        alias = modules / "modules.alias"
        vc4 = modules / "kernel" / "drivers" / "gpu" / "drm" / "vc4" / "vc4.ko"
        touch = modules / "kernel" / "drivers" / "input" / "touchscreen" / "edt-ft5x06.ko"
        if alias.exists() and vc4.exists() and touch.exists():
            return Kernel(version, f"the image build's cached Debian base {base}", dtb, alias, vc4, touch)
    return None


def _from_archive() -> Kernel:
    """Today's kernel of Bookworm, kept once; offline, the newest one kept before."""
    try:
        package, version, url, sha256 = _newest_kernel_package()
    except OSError as error:
        before = sorted((p for p in (CACHE / "dsi-kernel").glob("linux-image-*") if _whole(p)),
                        key=lambda path: path.stat().st_mtime)
        assert before, f"Debian's mirror cannot be reached ({error}) and no kernel is kept under {CACHE}"
        return _kernel(before[-1], f"{before[-1]} (kept; Debian's mirror cannot be reached: {error})")
    kept = CACHE / "dsi-kernel" / f"{package}_{version}"
    if not _whole(kept):
        _keep_from_package(url, sha256, package.removeprefix("linux-image-"), kept)
    return _kernel(kept, f"{url} (SHA256 {sha256})")


def _whole(kept: Path) -> bool:
    return all((kept / name).exists() for name in (DTB, "modules.alias", *KEPT_MODULES))


def _kernel(kept: Path, origin: str) -> Kernel:
    version = kept.name.split("_")[0].removeprefix("linux-image-")
    return Kernel(version, origin, *(kept / name for name in (DTB, "modules.alias", *KEPT_MODULES)))


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=TIMEOUT) as answer:
        data: bytes = answer.read()
    return data


def _signed_index(mirror: str, suite: str) -> str:
    """The suite's arm64 package index, checked: InRelease by gpgv, the index by its SHA256 there."""
    with tempfile.TemporaryDirectory() as folder:
        release = Path(folder) / "InRelease"
        release.write_bytes(_get(f"{mirror}/dists/{suite}/InRelease"))
        checked = subprocess.run(["gpgv", "--keyring", str(KEYRING), "--output", "-", str(release)],
                                 capture_output=True, timeout=60)
    assert checked.returncode == 0, f"{mirror} {suite}: InRelease's signature: {checked.stderr.decode()}"
    listed = re.search(rf"^ ([0-9a-f]{{64}}) +\d+ {re.escape(INDEX)}$",
                       checked.stdout.decode().split("\nSHA256:\n", 1)[1], re.MULTILINE)
    assert listed, f"{mirror} {suite}: InRelease lists no SHA256 for {INDEX}"
    index = _get(f"{mirror}/dists/{suite}/{INDEX}")
    wanted = listed.group(1)
    assert hashlib.sha256(index).hexdigest() == wanted, f"{mirror} {suite}: {INDEX} is not InRelease's"
    return lzma.decompress(index).decode()


def _stanzas(index: str) -> dict[tuple[str, str], dict[str, str]]:
    found = {}
    for stanza in index.split("\n\n"):
        fields = dict(re.findall(r"^([A-Za-z0-9-]+): (.*)$", stanza, re.MULTILINE))
        if "Package" in fields:
            found[(fields["Package"], fields["Version"])] = fields
    return found


def _newer(one: str, other: str) -> bool:
    return subprocess.run(["dpkg", "--compare-versions", one, "gt", other], timeout=30).returncode == 0


def _newest_kernel_package() -> tuple[str, str, str, str]:
    """The package linux-image-arm64 depends on, newest of the suites: name, version, URL, SHA256."""
    best: tuple[str, str, str, str] | None = None
    for mirror, suite in MIRRORS:
        stanzas = _stanzas(_signed_index(mirror, suite))
        for (name, version), fields in stanzas.items():
            if name != "linux-image-arm64":
                continue
            wanted = re.match(r"(linux-image-[0-9.]+-[0-9]+-arm64) \(= ([^)]+)\)", fields["Depends"])
            assert wanted, f"linux-image-arm64 {version}: {fields['Depends']}"
            image = stanzas.get((wanted.group(1), wanted.group(2)))
            if image and (best is None or _newer(wanted.group(2), best[1])):
                best = (wanted.group(1), wanted.group(2), f"{mirror}/{image['Filename']}", image["SHA256"])
    assert best, "no linux-image-*-arm64 in Bookworm's indexes"
    return best


def _modinfo_aliases(module: bytes) -> list[str]:
    """The ``alias=`` records of a 64-bit little-endian ELF module's ``.modinfo`` section."""
    assert module[:6] == b"\x7fELF\x02\x01", "not a 64-bit little-endian ELF module"
    shoff, = struct.unpack_from("<Q", module, 0x28)
    entsize, count, names = struct.unpack_from("<HHH", module, 0x3A)
    headers = [struct.unpack_from("<IIQQQQ", module, shoff + i * entsize) for i in range(count)]
    strings = headers[names]
    for name, _type, _flags, _addr, offset, size in headers:
        start = strings[4] + name
        if module[start:module.index(b"\0", start)] == b".modinfo":
            records = module[offset:offset + size].split(b"\0")
            return [r.decode()[len("alias="):] for r in records if r.startswith(b"alias=")]
    return []


def _keep_from_package(url: str, sha256: str, version: str, kept: Path) -> None:
    """The device tree, vc4 and a depmod-style modules.alias, from the package read as a stream."""
    deb = _get(url)
    assert hashlib.sha256(deb).hexdigest() == sha256, f"{url} is not what Debian's index says"
    part = kept.with_name(kept.name + ".part")
    shutil.rmtree(part, ignore_errors=True)
    part.mkdir(parents=True)
    with tempfile.NamedTemporaryFile(suffix=".deb") as file:
        file.write(deb)
        file.flush()
        data = subprocess.Popen(["dpkg-deb", "--fsys-tarfile", file.name], stdout=subprocess.PIPE)
        assert data.stdout is not None
        lines = []
        with tarfile.open(fileobj=data.stdout, mode="r|") as tar:
            for member in tar:
                name = member.name.removeprefix("./")
                if not member.isfile():
                    continue
                if name == f"usr/lib/linux-image-{version}/broadcom/{DTB}":
                    (part / DTB).write_bytes(_read(tar, member))
                elif re.search(r"\.ko(\.xz)?$", name):
                    module = _read(tar, member)
                    if name.endswith(".xz"):
                        module = lzma.decompress(module)
                    stem = Path(name).name.split(".ko")[0].replace("-", "_")
                    lines += [f"alias {alias} {stem}\n" for alias in _modinfo_aliases(module)]
                    if f"{stem}.ko" in KEPT_MODULES:
                        (part / f"{stem}.ko").write_bytes(module)
        assert data.wait(timeout=TIMEOUT) == 0, f"dpkg-deb could not read {url}"
    (part / "modules.alias").write_text("".join(lines))
    assert all((part / name).exists() for name in (DTB, *KEPT_MODULES)), f"{url} lacks {DTB} or a module"
    shutil.rmtree(kept, ignore_errors=True)
    part.rename(kept)


def _read(tar: tarfile.TarFile, member: tarfile.TarInfo) -> bytes:
    extracted = tar.extractfile(member)
    assert extracted is not None
    return extracted.read()
