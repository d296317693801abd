#!/usr/bin/env bash
# Build the appliance's SD-card image for a Raspberry Pi 4 or 3B+ from this checkout:
# companion-VERSION-arm64.img.xz, its .sha256 and its package manifest (docs/appliance.md,
# "Building the image").
#
#   systemd/image/build.sh [--out DIR] [--manifest FILE] [--headless] [--base-only]
#
# --out DIR        where the image, its checksum and its manifest go (default: the cache folder's out/)
# --manifest FILE  the packages and versions of an earlier build's manifest, to build that image again
# --headless       the headless appliance (OLED, buttons, seat panels) instead of the touchscreen one
# --base-only      only make (or find) the cached Debian base, e.g. to warm the cache
#
# Run as root on Debian or Ubuntu with mmdebstrap, qemu-user-static (its binfmt registered), fdisk,
# dosfstools, mtools, e2fsprogs, xz-utils and python3-venv (the companion's wheels are built on this
# machine, by an account install.sh makes for the build and removes after it). It mounts nothing
# but /proc and /dev in the root it builds (no loop devices): the partitions are made in files
# (mkfs.ext4 -d, mkfs.vfat and mcopy) and written into the image laid out by sfdisk. The Debian
# base (the slow part: its initramfs is made under qemu-user) is cached under
# $XDG_CACHE_HOME/companion-image, keyed by its inputs; a second build starts from a copy of it.
# Single quotes below keep $1 and ${Package} for the command that reads them (mmdebstrap's hooks,
# dpkg-query's format, the shell in the root).
# shellcheck disable=SC2016
set -euo pipefail
shopt -s inherit_errexit

SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HERE="$SOURCE/systemd/image"
CACHE="${COMPANION_IMAGE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/companion-image}"
OUT="$CACHE/out"
MANIFEST=""
HEADLESS=0
BASE_ONLY=0
SUITE=bookworm
MIRROR="${COMPANION_IMAGE_MIRROR:-http://deb.debian.org/debian}"
SECURITY="${COMPANION_IMAGE_SECURITY:-http://deb.debian.org/debian-security}"
# The partitions: the FAT one the Pi's firmware boots from, then the root (grown at first boot).
BOOT_MIB=256
ROOT_MIB="${COMPANION_IMAGE_ROOT_MIB:-2560}"
BOOT_LABEL=RASPIFIRM
ROOT_LABEL=RASPIROOT

usage() { sed -n '2,19p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }

while [[ $# -gt 0 ]]; do
    case "$1" in
        --out) [[ $# -ge 2 ]] || { echo "build.sh: --out needs a folder" >&2; exit 2; }; OUT="$2"; shift ;;
        --manifest) [[ $# -ge 2 ]] || { echo "build.sh: --manifest needs a file" >&2; exit 2; }
                    MANIFEST="$(realpath "$2")"; shift ;;
        --headless) HEADLESS=1 ;;
        --base-only) BASE_ONLY=1 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "build.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
if [[ $(id -u) -ne 0 ]]; then echo "build.sh: run it as root (it makes a Debian root with mmdebstrap)" >&2; exit 2; fi

say() { printf '# %s\n' "$*" >&2; }
# Every heavy step yields to everything else on the machine.
slow() { nice -n 19 ionice -c3 "$@"; }

# The packages asked for, or (--manifest) every package of the earlier image at its version.
packages() {
    if [[ -n $MANIFEST ]]; then
        awk '!/^#/ && $1 == "deb" { print $2 "=" $3 }' "$MANIFEST"
    else
        grep -v -e '^#' -e '^$' "$HERE/packages.txt"
    fi
}

# The base's cache key: everything that goes into it (the recipe, base() below, included).
base_key() {
    { echo "$SUITE arm64 minbase main non-free-firmware $MIRROR $SECURITY"; packages | sort
      mmdebstrap --version; declare -f base; } | sha256sum | cut -c1-16
}

check_tools() {
    local tool missing=()
    for tool in mmdebstrap arch-test sfdisk mkfs.vfat mcopy mkfs.ext4 xz useradd runuser; do
        command -v "$tool" >/dev/null || missing+=("$tool")
    done
    # the build account runs this machine's /usr/bin/python3 (install.sh: build_wheels)
    /usr/bin/python3 -c 'import ensurepip, venv' 2>/dev/null || missing+=(python3-venv)
    [[ -e /usr/bin/qemu-aarch64-static || -e /usr/libexec/qemu-binfmt/aarch64-binfmt-P ]] || missing+=(qemu-user-static)
    if [[ ${#missing[@]} -gt 0 ]]; then
        echo "build.sh: missing ${missing[*]} (apt-get install mmdebstrap arch-test qemu-user-static fdisk dosfstools mtools e2fsprogs xz-utils python3-venv)" >&2
        exit 2
    fi
    if [[ ! -e /proc/sys/fs/binfmt_misc/register ]]; then
        mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
    fi
    if [[ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]]; then
        cat /usr/lib/binfmt.d/qemu-aarch64.conf > /proc/sys/fs/binfmt_misc/register
    fi
}

# The Debian base, a root folder in the cache: made once for each key (mmdebstrap writes it into
# a folder of its own; it is renamed to its key's name only when whole).
base() {
    local key dir
    key="$(base_key)"
    dir="$CACHE/base-$key"
    if [[ -d $dir ]]; then say "Debian base from the cache: $dir"; echo "$dir"; return; fi
    say "making the Debian base $key (about 30 minutes on 2 cores: the kernel's initramfs under qemu-user)"
    mkdir -p "$CACHE"
    release_mounts "$dir.part"  # mmdebstrap's own, when an earlier build was stopped
    rm -rf --one-file-system "$dir.part"
    local include
    include="$(packages | paste -sd, -)"
    # The initramfs, the slow part under qemu-user, is made once, at the end, by the hook below:
    # Debian makes it when the kernel is configured and again when a later package's trigger asks
    # (30 of the base's 33 minutes here). INITRD=No, which mmdebstrap passes on to the maintainer
    # scripts, skips both; the initramfs made at the end holds the same files (compared here).
    INITRD=No slow mmdebstrap --mode=root --format=directory --arch=arm64 --variant=minbase \
        --components="main non-free-firmware" --include="$include" \
        --setup-hook='mkdir -p "$1/boot/firmware"' \
        --customize-hook='ls "$1"/boot/initrd.img-* >/dev/null 2>&1 || chroot "$1" update-initramfs -c -k all' \
        "$SUITE" "$dir.part" \
        "deb $MIRROR $SUITE main non-free-firmware" \
        "deb $MIRROR $SUITE-updates main non-free-firmware" \
        "deb $SECURITY $SUITE-security main non-free-firmware" >&2
    mv "$dir.part" "$dir"
    echo "$dir"
}

# The appliance's own files in the root: the companion by its installer in image mode, the
# partitions by label, the setup file's service, config.txt's additions; SSH off, no machine id
# and no host keys (each box makes its own at first boot).
configure() {
    local root="$1"
    local installer=(bash "$SOURCE/systemd/install.sh" --root "$root")
    [[ $HEADLESS -eq 1 ]] && installer+=(--headless)
    say "installing the companion into the root (install.sh --root: its wheels built here by an account made" \
        "for the build, its release made in the root under qemu-user)"
    # pip in the root finds the package index through this machine's resolver while it builds;
    # the image itself asks systemd-resolved.
    rm -f "$root/etc/resolv.conf" && cp /etc/resolv.conf "$root/etc/resolv.conf"
    slow "${installer[@]}" >&2
    ln -sfn /run/systemd/resolve/stub-resolv.conf "$root/etc/resolv.conf"
    printf '%s\n' "LABEL=$ROOT_LABEL / ext4 rw,noatime,errors=remount-ro 0 1" \
        "LABEL=$BOOT_LABEL /boot/firmware vfat rw,noatime,umask=0077 0 2" > "$root/etc/fstab"
    echo companion > "$root/etc/hostname"
    printf '127.0.0.1\tlocalhost\n127.0.1.1\tcompanion\n' > "$root/etc/hosts"
    install -D -m 0755 "$HERE/companion-setup" "$root/usr/local/sbin/companion-setup"
    install -D -m 0644 "$HERE/companion-setup.service" "$root/etc/systemd/system/companion-setup.service"
    install -D -m 0644 "$HERE/raspi-firmware-custom" "$root/etc/default/raspi-firmware-custom"
    # Wi-Fi: not enabled here. companion-setup starts wpa_supplicant@wlan0 at boot only when the
    # setup file names a network (an enabled unit waits 90 s for a wlan0 at every boot, and a box
    # without Wi-Fi has none). Wired and wireless take DHCP.
    install -d "$root/etc/systemd/system/wpa_supplicant@.service.d"
    printf '[Unit]\nConditionPathExists=/etc/wpa_supplicant/wpa_supplicant-%%I.conf\n' \
        > "$root/etc/systemd/system/wpa_supplicant@.service.d/companion.conf"
    printf '[Match]\nName=eth* wlan* en* wl*\n\n[Network]\nDHCP=yes\n' > "$root/etc/systemd/network/50-dhcp.network"
    systemctl --root="$root" enable companion-setup.service systemd-networkd.service \
        systemd-resolved.service systemd-timesyncd.service >&2
    # SSH: off until the setup file asks for it (Debian's ssh.service honours this file).
    touch "$root/etc/ssh/sshd_not_to_be_run"
    rm -f "$root"/etc/ssh/ssh_host_*
    : > "$root/etc/machine-id"
    # An empty machine id makes the first boot apply the presets (enable-only), and Debian's enable
    # every unit they do not name: the companion's other unit among them. What is enabled is what
    # the build enabled.
    install -d "$root/etc/systemd/system-preset"
    printf '# The image enables what it needs at build time (systemd/image/build.sh).\ndisable *\n' \
        > "$root/etc/systemd/system-preset/99-companion-image.preset"
    rm -f "$root/var/lib/dbus/machine-id"
    # The screen stays on; the firmware's files and config.txt for the FAT partition, from Debian's
    # kernel hook (which reads raspi-firmware-custom), written again now that the file is in place.
    # The root by its label (the hook would name the build machine's), the consoles: the Pi 4's UART
    # and the screen.
    echo "consoleblank=0" > "$root/etc/default/raspi-extra-cmdline"
    sed -i -e '/^ROOTPART=/d' -e '/^CONSOLES=/d' "$root/etc/default/raspi-firmware"
    # CMA=0 leaves cma= off the command line: the hook adds cma=64M when it cannot see a Pi 4 (as in
    # a build), and its own notes say that may leave a Pi 4 unbootable; the kernel's default is kept.
    printf '%s\n' "ROOTPART=LABEL=$ROOT_LABEL" 'CONSOLES="ttyS1,115200 tty0"' CMA=0 \
        >> "$root/etc/default/raspi-firmware"
    mount -t proc proc "$root/proc"
    chroot "$root" env DEB_MAINT_PARAMS=configure /etc/kernel/postinst.d/z50-raspi-firmware >&2 \
        || { umount "$root/proc"; return 1; }
    umount "$root/proc"
    dsi_overlay "$root"
    install -m 0644 "$HERE/companion-setup.txt" "$root/boot/firmware/companion-setup.txt"
    rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/tmp/* "$root"/root/.cache
}

# The official 7" DSI display for Debian's kernel (docs/appliance.md, "What Debian's kernel drives"):
# the overlay compiled by the root's own dtc, its hook installed to run after raspi-firmware's at
# every kernel and initramfs update, and run once now to merge it into the Pi 4's device tree on
# the FAT partition (written there a moment ago by raspi-firmware's hook).
dsi_overlay() {
    local root="$1" lib=/usr/lib/companion-image name=companion-dsi-7inch hook=z60-companion-dsi-7inch
    if [[ ! -x $root/usr/bin/dtc || ! -x $root/usr/bin/fdtoverlay ]]; then
        echo "build.sh: the root has no dtc and fdtoverlay (device-tree-compiler belongs in packages.txt)" >&2
        return 1
    fi
    install -D -m 0644 "$HERE/dsi-7inch/$name.dts" "$root$lib/$name.dts"
    chroot "$root" dtc -I dts -O dtb -o "$lib/$name.dtbo" "$lib/$name.dts" >&2
    install -D -m 0755 "$HERE/dsi-7inch/$hook" "$root/etc/kernel/postinst.d/$hook"
    install -d "$root/etc/initramfs/post-update.d"
    ln -sfn "/etc/kernel/postinst.d/$hook" "$root/etc/initramfs/post-update.d/$hook"
    chroot "$root" env DEB_MAINT_PARAMS=configure "/etc/kernel/postinst.d/$hook" >&2
    # The hook never fails a kernel update; the build does fail when the merge did not happen.
    chroot "$root" fdtget /boot/firmware/bcm2711-rpi-4-b.dtb /soc/i2c@7e205000/lcd@45 compatible >/dev/null \
        || { echo "build.sh: the Pi 4's device tree on the FAT partition has no DSI display (above: why)" >&2; return 1; }
}

# The manifest: every Debian package and Python distribution in the image, with its version, and the
# companion's commit. build.sh --manifest FILE installs exactly those Debian packages again.
manifest() {
    local root="$1" commit
    commit="$(git -C "$SOURCE" rev-parse HEAD 2>/dev/null || echo unknown)"
    {
        echo "# The tabletop companion's image $VERSION: Debian $SUITE arm64, built $(date -u +%Y-%m-%dT%H:%M:%SZ)."
        echo "# build.sh --manifest THIS_FILE builds it again from the same Debian packages."
        echo "companion $VERSION $commit"
        chroot "$root" dpkg-query -W -f='deb ${Package} ${Version} ${Architecture}\n'
        chroot "$root" /opt/companion/venv/bin/python -m pip list --format=freeze --disable-pip-version-check \
            | sed 's/^\(.*\)==\(.*\)$/pip \1 \2/'
    }
}

# The image: sfdisk lays out the partitions in the file; each is made in a file of its own
# (mkfs.vfat and mcopy, mkfs.ext4 -d) and written at its offset. No loop device, no mount.
image() {
    local root="$1" work="$2" img="$3" boot_start=8192 root_start
    root_start=$(( boot_start + BOOT_MIB * 2048 ))
    rm -f "$img" "$work/boot.fat" "$work/root.ext4"
    truncate -s $(( root_start / 2048 + ROOT_MIB ))M "$img"
    printf 'label: dos\nunit: sectors\n\n%s\n%s\n' \
        "start=$boot_start, size=$(( BOOT_MIB * 2048 )), type=c, bootable" \
        "start=$root_start, type=83" | sfdisk --quiet "$img"
    mkfs.vfat -F 32 -n "$BOOT_LABEL" -C "$work/boot.fat" $(( BOOT_MIB * 1024 )) >/dev/null
    mcopy -s -i "$work/boot.fat" "$root"/boot/firmware/* ::/
    mv "$root/boot/firmware" "$work/firmware" && mkdir "$root/boot/firmware"
    truncate -s "${ROOT_MIB}M" "$work/root.ext4"
    slow mkfs.ext4 -q -L "$ROOT_LABEL" -d "$root" "$work/root.ext4"
    rmdir "$root/boot/firmware" && mv "$work/firmware" "$root/boot/firmware"
    dd if="$work/boot.fat" of="$img" bs=1M seek=$(( boot_start / 2048 )) conv=notrunc,sparse status=none
    dd if="$work/root.ext4" of="$img" bs=1M seek=$(( root_start / 2048 )) conv=notrunc,sparse status=none
    rm -f "$work/boot.fat" "$work/root.ext4"
}

# Whatever is mounted under DIR, unmounted (the deepest first). A build stopped halfway leaves
# /proc and /dev mounted in its root, and /dev there is this machine's own: removing the root with
# them in place would delete the machine's device nodes. So the work folder is only removed after
# this, and never across a mount (rm --one-file-system).
release_mounts() {
    local dir="$1" target
    findmnt -rno TARGET | awk -v dir="$dir/" 'index($0, dir) == 1' | sort -r | while read -r target; do
        umount "$target" || umount -l "$target"
    done
}

main() {
    check_tools
    local started base root name
    # (work is global: the EXIT trap below reads it after main has returned)
    started=$(date +%s)
    VERSION="$(sed -n 's/^version = "\(.*\)"$/\1/p' "$SOURCE/pyproject.toml")"
    name="companion-$VERSION-arm64"
    [[ $HEADLESS -eq 1 ]] && name="companion-headless-$VERSION-arm64"
    base="$(base)"
    say "base ready after $(( $(date +%s) - started )) s: $base"
    [[ $BASE_ONLY -eq 1 ]] && return 0
    work="$CACHE/work"
    root="$work/root"
    trap '[[ -z ${work:-} ]] || release_mounts "$work"' EXIT
    trap 'exit 130' INT TERM HUP
    release_mounts "$work"
    rm -rf --one-file-system "$work" && mkdir -p "$work" "$OUT"
    cp -a "$base" "$root"
    configure "$root"
    manifest "$root" > "$work/manifest.txt"
    install -D -m 0644 "$work/manifest.txt" "$root/usr/share/companion-image/manifest.txt"
    say "root ready after $(( $(date +%s) - started )) s"
    image "$root" "$work" "$work/$name.img"
    # The kernel and initramfs beside the image, for booting it in qemu (the pi tests).
    cp "$root"/boot/vmlinuz-* "$OUT/$name.vmlinuz"
    cp "$root"/boot/initrd.img-* "$OUT/$name.initrd"
    say "image laid out after $(( $(date +%s) - started )) s; compressing"
    # xz's level from XZ_OPT when given (-3 is about three times as fast as the default -6).
    XZ_OPT="${XZ_OPT:--6}" slow xz -T0 -f "$work/$name.img"
    mv "$work/$name.img.xz" "$OUT/"
    cp "$work/manifest.txt" "$OUT/$name.manifest.txt"
    (cd "$OUT" && sha256sum "$name.img.xz" > "$name.img.xz.sha256")
    # The root stays in the cache until the next build (the pi tests draw the touchscreen in it).
    say "built in $(( $(date +%s) - started )) s: $OUT/$name.img.xz ($(du -h "$OUT/$name.img.xz" | cut -f1))"
    cat "$OUT/$name.img.xz.sha256"
}

main
