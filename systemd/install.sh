#!/usr/bin/env bash
# Install the tabletop companion as a kiosk on Raspberry Pi OS Lite (Bookworm).
#
#   sudo systemd/install.sh [--headless] [--wheelhouse DIR] [--dry-run]
#   sudo systemd/install.sh --rollback [--dry-run]
#   sudo systemd/install.sh --uninstall [--purge] [--dry-run]
#
# Idempotent: running it again upgrades to the checkout it runs from, keeping the previous
# environment for --rollback. The players' games (/var/lib/companion) and the configuration
# (/etc/companion) are never replaced; --uninstall keeps them unless --purge.
# --dry-run prints every action and changes nothing (the test suite runs it).
# docs/appliance.md explains each step.
set -euo pipefail

SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# Every path below is under ROOT ("" on a real Pi; a folder in tests).
ROOT="${COMPANION_INSTALL_ROOT:-}"
PREFIX="$ROOT/opt/companion"
ETC="$ROOT/etc/companion"
STATE="$ROOT/var/lib/companion"
UNITS="$ROOT/etc/systemd/system"
POLKIT="$ROOT/etc/polkit-1/rules.d/50-companion.rules"
UDEV_RULE="$ROOT/etc/udev/rules.d/99-companion-backlight.rules"
BOOT_CMDLINE="$ROOT/boot/firmware/cmdline.txt"
SERVICE_USER=companion
GROUPS_NEEDED=(video render input gpio i2c dialout)
# What the wheels load at run time: SDL2 inside Kivy's aarch64 wheel has KMSDRM built in and
# opens libdrm, libgbm, libEGL and libGLESv2 itself (docs/appliance.md: "The display").
APT_PACKAGES=(python3 python3-venv libdrm2 libgbm1 libegl1 libgles2 libgl1-mesa-dri libudev1
              libmtdev1 i2c-tools)

MODE=install
DRY_RUN=0
PURGE=0
HEADLESS=0
WHEELHOUSE=""

usage() {
    sed -n '2,12p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

while [[ $# -gt 0 ]]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --headless) HEADLESS=1 ;;
        --rollback) MODE=rollback ;;
        --uninstall) MODE=uninstall ;;
        --purge) PURGE=1 ;;
        --wheelhouse)
            [[ $# -ge 2 ]] || { echo "install.sh: --wheelhouse needs a folder" >&2; exit 2; }
            WHEELHOUSE="$2"; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
if [[ $PURGE -eq 1 && $MODE != uninstall ]]; then
    echo "install.sh: --purge goes with --uninstall" >&2; exit 2
fi
if [[ $DRY_RUN -eq 0 && $(id -u) -ne 0 ]]; then
    echo "install.sh: run it as root (sudo), or with --dry-run to see what it would do" >&2; exit 2
fi

# Every change goes through run or put, so --dry-run shows all of them.
run() {
    printf '+ %s\n' "$*"
    if [[ $DRY_RUN -eq 0 ]]; then "$@"; fi
}
# put MODE SOURCE DEST: install a file (replacing what is there).
put() {
    printf '+ install -D -m %s %s %s\n' "$1" "$2" "$3"
    if [[ $DRY_RUN -eq 0 ]]; then install -D -m "$1" "$2" "$3"; fi
}
say() { printf '# %s\n' "$*"; }

unit_name() { if [[ $HEADLESS -eq 1 ]]; then echo companion-headless.service; else echo companion.service; fi; }

install_packages() {
    if command -v apt-get >/dev/null; then
        run apt-get update
        run apt-get install -y --no-install-recommends "${APT_PACKAGES[@]}"
    else
        say "no apt-get here: install ${APT_PACKAGES[*]} by hand"
    fi
}

create_user() {
    local group
    for group in "${GROUPS_NEEDED[@]}"; do
        getent group "$group" >/dev/null || run groupadd --system "$group"
    done
    if id "$SERVICE_USER" >/dev/null 2>&1; then
        say "user $SERVICE_USER exists"
    else
        run useradd --system --home-dir /var/lib/companion --no-create-home \
            --shell /usr/sbin/nologin "$SERVICE_USER"
    fi
    run usermod --append --groups "$(IFS=,; echo "${GROUPS_NEEDED[*]}")" "$SERVICE_USER"
}

install_environment() {
    local release extras="ui,pi"
    release="$PREFIX/releases/$(date -u +%Y%m%dT%H%M%SZ)"
    [[ $HEADLESS -eq 1 ]] && extras="pi"
    run mkdir -p "$PREFIX/releases"
    run python3 -m venv "$release"
    if [[ -n $WHEELHOUSE ]]; then
        run "$release/bin/pip" install --no-index --find-links "$WHEELHOUSE" \
            -c "$SOURCE/constraints.txt" "${SOURCE}[$extras]"
    else
        run "$release/bin/pip" install -c "$SOURCE/constraints.txt" "${SOURCE}[$extras]"
    fi
    # The unit's root is read-only: compile the bytecode now, once.
    run "$release/bin/python" -m compileall -q "$release/lib"
    local replaced=""
    if [[ -L $PREFIX/venv ]]; then
        replaced="$(readlink "$PREFIX/venv")"
        run ln -sfn "$replaced" "$PREFIX/previous"
    fi
    run ln -sfn "$release" "$PREFIX/venv.new"
    run mv -T "$PREFIX/venv.new" "$PREFIX/venv"
    prune_releases "$release" "$replaced"
}

# Keep the new release and the one it replaced (for --rollback); remove older ones.
prune_releases() {
    local keep_new="$1" keep_old="$2" old
    for old in "$PREFIX"/releases/*; do
        [[ -d $old ]] || continue
        [[ $old == "$keep_new" || $old == "$keep_old" ]] && continue
        run rm -rf "$old"
    done
}

install_config() {
    if [[ -e $ETC/companion.toml ]]; then
        say "keeping $ETC/companion.toml"
    else
        put 0644 "$SOURCE/companion.example.toml" "$ETC/companion.toml"
    fi
}

install_units() {
    local unit
    for unit in companion.service companion-headless.service media-COMPANION.mount \
                media-COMPANION.automount; do
        put 0644 "$SOURCE/systemd/$unit" "$UNITS/$unit"
    done
    put 0644 "$SOURCE/systemd/50-companion.rules" "$POLKIT"
    put 0644 "$SOURCE/systemd/99-companion-backlight.rules" "$UDEV_RULE"
    run udevadm trigger --subsystem-match=backlight --action=add
    run systemctl daemon-reload
    if [[ $HEADLESS -eq 1 ]]; then
        run systemctl disable companion.service
    else
        run systemctl disable companion-headless.service
    fi
    run systemctl enable "$(unit_name)" media-COMPANION.automount
}

enable_i2c_and_keep_the_screen_on() {
    if command -v raspi-config >/dev/null; then
        run raspi-config nonint do_i2c 0
    else
        say "no raspi-config here: enable I2C by hand (dtparam=i2c_arm=on)"
    fi
    if [[ -f $BOOT_CMDLINE ]] && ! grep -q 'consoleblank=0' "$BOOT_CMDLINE"; then
        run sed -i '1 s/$/ consoleblank=0/' "$BOOT_CMDLINE"
    else
        say "screen blanking: nothing to change in $BOOT_CMDLINE"
    fi
}

restart() {
    run systemctl restart "$(unit_name)"
}

rollback() {
    if [[ ! -L $PREFIX/previous ]]; then
        echo "install.sh: there is no previous installation to go back to" >&2; exit 2
    fi
    local current previous
    current="$(readlink "$PREFIX/venv")"
    previous="$(readlink "$PREFIX/previous")"
    run ln -sfn "$previous" "$PREFIX/venv.new"
    run mv -T "$PREFIX/venv.new" "$PREFIX/venv"
    run ln -sfn "$current" "$PREFIX/previous"
    restart
}

uninstall() {
    local unit
    for unit in companion.service companion-headless.service media-COMPANION.automount; do
        run systemctl disable --now "$unit"
    done
    for unit in companion.service companion-headless.service media-COMPANION.mount \
                media-COMPANION.automount; do
        run rm -f "$UNITS/$unit"
    done
    run rm -f "$POLKIT" "$UDEV_RULE"
    run systemctl daemon-reload
    run rm -rf "$PREFIX"
    if [[ $PURGE -eq 1 ]]; then
        run rm -rf "$STATE" "$ETC"
        run userdel "$SERVICE_USER"
    else
        say "keeping the games in $STATE and the configuration in $ETC (--purge removes them)"
    fi
}

case "$MODE" in
    install)
        install_packages
        create_user
        install_environment
        install_config
        install_units
        enable_i2c_and_keep_the_screen_on
        restart
        say "installed: $(unit_name) runs $PREFIX/venv"
        ;;
    rollback) rollback ;;
    uninstall) uninstall ;;
esac
