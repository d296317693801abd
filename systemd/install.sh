#!/usr/bin/env bash
# Install the tabletop companion as a kiosk on Raspberry Pi OS Lite (Bookworm).
#
#   sudo systemd/install.sh [--headless] [--wheelhouse DIR] [--build-user NAME] [--adopt-user] [--dry-run]
#   sudo systemd/install.sh --rollback [--dry-run]
#   sudo systemd/install.sh --uninstall [--purge] [--dry-run]
#
# Idempotent: running it again upgrades to the checkout it runs from, keeping the previous
# environment for --rollback. The players' games (/var/lib/companion) and the configuration
# (/etc/companion) are never replaced; --uninstall keeps them unless --purge.
# Root runs nothing it has not checked: the wheels are built as an unprivileged user
# (--build-user, else the one who ran sudo, else nobody), the dependencies installed only as
# wheels whose hashes are in the locks systemd/lock.sh writes. An account named companion that
# this installer did not create is refused unless --adopt-user says to use it.
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
# The service's account (tests name one that exists to see how an existing account is treated).
SERVICE_USER="${COMPANION_INSTALL_USER:-companion}"
# Written when this installer creates the account: only such an account is used without --adopt-user.
ACCOUNT_MARK="$ETC/.account-created-by-installer"
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
BUILD_USER=""
ADOPT_USER=0

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
        --build-user)
            [[ $# -ge 2 ]] || { echo "install.sh: --build-user needs a user name" >&2; exit 2; }
            BUILD_USER="$2"; shift ;;
        --adopt-user) ADOPT_USER=1 ;;
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

# An existing account of that name is given the devices' groups (and power rights, through the
# polkit rule) only when this installer made it, or --adopt-user says it is the one to use.
check_user() {
    if ! id "$SERVICE_USER" >/dev/null 2>&1 || [[ -f $ACCOUNT_MARK || $ADOPT_USER -eq 1 ]]; then
        return 0
    fi
    echo "install.sh: an account named $SERVICE_USER exists that this installer did not create;" \
         "use --adopt-user to run the companion as it" >&2
    exit 2
}

create_user() {
    local group
    for group in "${GROUPS_NEEDED[@]}"; do
        getent group "$group" >/dev/null || run groupadd --system "$group"
    done
    if ! id "$SERVICE_USER" >/dev/null 2>&1; then
        run useradd --system --home-dir /var/lib/companion --no-create-home \
            --shell /usr/sbin/nologin "$SERVICE_USER"
        run install -D -m 0644 /dev/null "$ACCOUNT_MARK"
    elif [[ -f $ACCOUNT_MARK ]]; then
        say "user $SERVICE_USER exists (made by this installer)"
    else
        say "user $SERVICE_USER exists; adopted (--adopt-user)"
    fi
    run usermod --append --groups "$(IFS=,; echo "${GROUPS_NEEDED[*]}")" "$SERVICE_USER"
}

# Who builds the wheels: never root.
builder() {
    local name="$BUILD_USER"
    if [[ -z $name ]]; then
        if [[ -n ${SUDO_USER:-} && ${SUDO_USER} != root ]]; then name="$SUDO_USER"; else name=nobody; fi
    fi
    if ! id "$name" >/dev/null 2>&1; then
        echo "install.sh: there is no user $name to build the wheels as (--build-user)" >&2; exit 2
    fi
    if [[ $(id -u "$name") -eq 0 ]]; then
        echo "install.sh: the wheels are not built as root; name an unprivileged --build-user" >&2; exit 2
    fi
    echo "$name"
}

lock_file() {
    if [[ $HEADLESS -eq 1 ]]; then echo "$SOURCE/systemd/requirements-headless.lock"
    else echo "$SOURCE/systemd/requirements-ui.lock"; fi
}

# as USER COMMAND...: run a command as the unprivileged builder, in its own folder.
as_user() {
    local user="$1" home="$2"; shift 2
    run runuser -u "$user" -- env HOME="$home" PIP_NO_CACHE_DIR=1 "$@"
}

# The unprivileged step: the checkout copied to a folder only the builder writes, a build
# environment with the locked setuptools, then the wheels of the project and of the dependencies
# published only as source (their sdists checked against requirements-source.lock). Root runs none
# of it; it only installs the wheels, which runs no code of theirs.
build_wheels() {
    local user="$1" build="$2" index=()
    [[ -n $WHEELHOUSE ]] && index=(--no-index --find-links "$WHEELHOUSE")
    run install -d -m 0700 -o "$user" "$build"
    printf '+ tar -C %s --exclude=./.git --exclude=./.venv -cf - . | runuser -u %s -- tar -C %s -xf -\n' \
        "$SOURCE" "$user" "$build/src"
    if [[ $DRY_RUN -eq 0 ]]; then
        runuser -u "$user" -- mkdir "$build/src"
        tar -C "$SOURCE" --exclude=./.git --exclude=./.venv -cf - . | runuser -u "$user" -- tar -C "$build/src" -xf -
    fi
    as_user "$user" "$build" python3 -m venv "$build/venv"
    as_user "$user" "$build" "$build/venv/bin/pip" install --no-deps --require-hashes --only-binary :all: \
        "${index[@]}" -r "$SOURCE/systemd/requirements-build.lock"
    as_user "$user" "$build" "$build/venv/bin/pip" wheel --no-deps --no-build-isolation --require-hashes \
        --no-binary :all: "${index[@]}" --wheel-dir "$build/wheels" -r "$SOURCE/systemd/requirements-source.lock"
    as_user "$user" "$build" "$build/venv/bin/pip" wheel --no-deps --no-build-isolation \
        --wheel-dir "$build/wheels" "$build/src"
}

install_environment() {
    local release user build index=()
    release="$PREFIX/releases/$(date -u +%Y%m%dT%H%M%SZ)"
    [[ -n $WHEELHOUSE ]] && index=(--no-index --find-links "$WHEELHOUSE")
    user="$(builder)"
    if [[ $DRY_RUN -eq 1 ]]; then build="/tmp/companion-build.XXXXXX"; else build="$(mktemp -d /tmp/companion-build.XXXXXX)"; fi
    build_wheels "$user" "$build"
    run mkdir -p "$PREFIX/releases"
    run python3 -m venv "$release"
    # As root: only wheels, each checked against the lock's hashes; then the wheels just built.
    run "$release/bin/pip" install --no-deps --require-hashes --only-binary :all: "${index[@]}" \
        -r "$(lock_file)"
    run "$release/bin/pip" install --no-deps --no-index --only-binary :all: "$build"/wheels/*.whl
    run rm -rf "$build"
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

# The table's live page for phones (companion web, docs/web.md): beside either unit, on by default
# (the Settings switch turns the page off without stopping the unit).
install_web_unit() {
    put 0644 "$SOURCE/systemd/companion-web.service" "$UNITS/companion-web.service"
    run systemctl daemon-reload
    run systemctl enable companion-web.service
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
    run systemctl restart companion-web.service
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
    for unit in companion.service companion-headless.service companion-web.service \
                media-COMPANION.automount; do
        run systemctl disable --now "$unit"
    done
    for unit in companion.service companion-headless.service companion-web.service \
                media-COMPANION.mount media-COMPANION.automount; do
        run rm -f "$UNITS/$unit"
    done
    run rm -f "$POLKIT" "$UDEV_RULE"
    run systemctl daemon-reload
    run rm -rf "$PREFIX"
    if [[ $PURGE -eq 1 ]]; then
        if [[ -f $ACCOUNT_MARK ]]; then
            run userdel "$SERVICE_USER"
        else
            say "keeping the account $SERVICE_USER: this installer did not create it"
        fi
        run rm -rf "$STATE" "$ETC"
    else
        say "keeping the games in $STATE and the configuration in $ETC (--purge removes them)"
    fi
}

case "$MODE" in
    install)
        check_user  # before anything is changed
        install_packages
        create_user
        install_environment
        install_config
        install_units
        install_web_unit
        enable_i2c_and_keep_the_screen_on
        restart
        say "installed: $(unit_name) runs $PREFIX/venv"
        ;;
    rollback) rollback ;;
    uninstall) uninstall ;;
esac
