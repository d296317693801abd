#!/usr/bin/env bash
# Install the tabletop companion as a kiosk on Raspberry Pi OS Lite (Bookworm).
#
#   sudo systemd/install.sh [--headless] [--wheelhouse DIR] [--adopt-user] [--dry-run]
#   sudo systemd/install.sh --rollback [--dry-run]
#   sudo systemd/install.sh --uninstall [--purge] [--dry-run]
#   sudo systemd/install.sh --root DIR [--headless] [--wheelhouse DIR] [--dry-run]   (image mode)
#
# --root DIR installs into the root file system of an image being built (systemd/image/build.sh):
# nothing there runs, so the release is made inside DIR through chroot (qemu-user runs it when DIR
# is arm64), the units are enabled offline (systemctl --root) and nothing is started.
# Idempotent: running it again upgrades to the checkout it runs from, keeping the previous
# environment for --rollback. The players' games (/var/lib/companion) and the configuration
# (/etc/companion) are never replaced; --uninstall keeps them unless --purge.
# Root runs nothing it has not checked: the wheels are built by an account made for the build
# (on this machine, also in image mode) in a folder only it and root reach, and removed after it;
# each wheel is hashed when the build ends and installed by that hash, the dependencies only as
# wheels whose hashes are in the locks systemd/lock.sh writes. An account named companion that
# this installer did not create is refused unless --adopt-user says to use it.
# --dry-run prints every action and changes nothing (the test suite runs it).
# docs/appliance.md explains each step.
set -euo pipefail

SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# Every path below is under ROOT ("" on a real Pi; a folder in tests; the image's root with --root).
ROOT="${COMPANION_INSTALL_ROOT:-}"
# Image mode (--root): commands that must run inside the root run through chroot, where the paths
# have no ROOT before them (INSIDE is then "", else ROOT).
IMAGE=0
INSIDE=""
set_paths() {
    INSIDE="$ROOT"
    [[ $IMAGE -eq 1 ]] && INSIDE=""
    PREFIX="$ROOT/opt/companion"
    ETC="$ROOT/etc/companion"
    STATE="$ROOT/var/lib/companion"
    UNITS="$ROOT/etc/systemd/system"
    POLKIT="$ROOT/etc/polkit-1/rules.d/50-companion.rules"
    UDEV_RULE="$ROOT/etc/udev/rules.d/99-companion-backlight.rules"
    # the backup stick's device unit (dev-disk-by-label/COMPANION, \x2d escaping its dash)
    STICK_DEVICE_DROPIN="$UNITS/dev-disk-by\x2dlabel-COMPANION.device.d/companion-stick.conf"
    BOOT_CMDLINE="$ROOT/boot/firmware/cmdline.txt"
    # Written when this installer creates the account: only such an account is used without --adopt-user.
    ACCOUNT_MARK="$ETC/.account-created-by-installer"
}
# The service's account (tests name one that exists to see how an existing account is treated).
SERVICE_USER="${COMPANION_INSTALL_USER:-companion}"
GROUPS_NEEDED=(video render input gpio i2c dialout)
# What the wheels load at run time: SDL2 inside Kivy's aarch64 wheel has KMSDRM built in and
# opens libdrm, libgbm, libEGL and libGLESv2 itself (docs/appliance.md: "The display"); its
# offscreen window (companion snapshot) opens libEGL and libGL.
APT_PACKAGES=(python3 python3-venv libdrm2 libgbm1 libegl1 libgles2 libgl1 libgl1-mesa-dri libudev1
              libmtdev1 i2c-tools)

MODE=install
DRY_RUN=0
PURGE=0
HEADLESS=0
WHEELHOUSE=""
ADOPT_USER=0

usage() {
    sed -n '2,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}
fail() { echo "install.sh: $*" >&2; exit 1; }

# The options, then the checks made before anything is changed.
parse_options() {
    while [[ $# -gt 0 ]]; do
        case "$1" in
            --dry-run) DRY_RUN=1 ;;
            --headless) HEADLESS=1 ;;
            --rollback) MODE=rollback ;;
            --uninstall) MODE=uninstall ;;
            --purge) PURGE=1 ;;
            --wheelhouse)
                [[ $# -ge 2 ]] || { echo "install.sh: --wheelhouse needs a folder" >&2; exit 2; }
                WHEELHOUSE="$(realpath -m "$2")"; shift ;;
            --build-user)
                echo "install.sh: --build-user is gone: the wheels are built by an account the installer" \
                     "makes for the build and removes after it" >&2; exit 2 ;;
            --adopt-user) ADOPT_USER=1 ;;
            --root)
                [[ $# -ge 2 && -d $2 ]] || { echo "install.sh: --root needs the folder of the image's root" >&2; exit 2; }
                ROOT="$(cd "$2" && pwd)"; IMAGE=1; shift ;;
            -h|--help) usage; exit 0 ;;
            *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
        esac
        shift
    done
    set_paths
    WHEELHOUSE_INSIDE="$WHEELHOUSE"
    if [[ $IMAGE -eq 1 && $MODE != install ]]; then
        echo "install.sh: --root installs into an image; --rollback and --uninstall are for the running box" >&2; exit 2
    fi
    if [[ $PURGE -eq 1 && $MODE != uninstall ]]; then
        echo "install.sh: --purge goes with --uninstall" >&2; exit 2
    fi
    if [[ $DRY_RUN -eq 0 && $(id -u) -ne 0 ]]; then
        echo "install.sh: run it as root (sudo), or with --dry-run to see what it would do" >&2; exit 2
    fi
    if [[ $IMAGE -eq 1 && ! -x $ROOT/usr/bin/python3 && ! -L $ROOT/usr/bin/python3 ]]; then
        echo "install.sh: there is no python3 in $ROOT (the image's packages come first: systemd/image/packages.txt)" >&2
        exit 2
    fi
}

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

# inside COMMAND...: a command that must run in the installed system: through chroot in image mode,
# with nothing of this machine's environment but the CA bundle pip needs to reach the index.
inside() {
    if [[ $IMAGE -eq 1 ]]; then
        run chroot "$ROOT" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root PIP_NO_CACHE_DIR=1 \
            PIP_CERT="$CA_INSIDE" "$@"
    else
        run "$@"
    fi
}
# host_path PATH: where a path of the installed system is seen from here.
host_path() { if [[ $IMAGE -eq 1 ]]; then echo "$ROOT$1"; else echo "$1"; fi; }
# inside_path PATH: a path seen from here, as the installed system's commands see it.
inside_path() { if [[ $IMAGE -eq 1 ]]; then echo "${1#"$ROOT"}"; else echo "$1"; fi; }

install_packages() {
    if [[ $IMAGE -eq 1 ]]; then
        say "image mode: ${APT_PACKAGES[*]} come with the image (systemd/image/packages.txt)"
    elif command -v apt-get >/dev/null; then
        run apt-get update
        run apt-get install -y --no-install-recommends "${APT_PACKAGES[@]}"
    else
        say "no apt-get here: install ${APT_PACKAGES[*]} by hand"
    fi
}

# The accounts and groups of the system being installed: this machine's, or the image's files.
has_user() {
    if [[ $IMAGE -eq 1 ]]; then grep -q "^$1:" "$ROOT/etc/passwd"; else id "$1" >/dev/null 2>&1; fi
}
has_group() {
    if [[ $IMAGE -eq 1 ]]; then grep -q "^$1:" "$ROOT/etc/group"; else getent group "$1" >/dev/null; fi
}
# useradd, groupadd and usermod work on the image's files with --root.
SHADOW_ROOT=()

# An existing account of that name is given the devices' groups (and power rights, through the
# polkit rule) only when this installer made it, or --adopt-user says it is the one to use.
check_user() {
    if ! has_user "$SERVICE_USER" || [[ -f $ACCOUNT_MARK || $ADOPT_USER -eq 1 ]]; then
        return 0
    fi
    echo "install.sh: an account named $SERVICE_USER exists that this installer did not create;" \
         "use --adopt-user to run the companion as it" >&2
    exit 2
}

create_user() {
    local group
    [[ $IMAGE -eq 1 ]] && SHADOW_ROOT=(--root "$ROOT")
    for group in "${GROUPS_NEEDED[@]}"; do
        has_group "$group" || run groupadd "${SHADOW_ROOT[@]}" --system "$group"
    done
    if ! has_user "$SERVICE_USER"; then
        run useradd "${SHADOW_ROOT[@]}" --system --home-dir /var/lib/companion --no-create-home \
            --shell /usr/sbin/nologin "$SERVICE_USER"
        run install -D -m 0644 /dev/null "$ACCOUNT_MARK"
    elif [[ -f $ACCOUNT_MARK ]]; then
        say "user $SERVICE_USER exists (made by this installer)"
    else
        say "user $SERVICE_USER exists; adopted (--adopt-user)"
    fi
    run usermod "${SHADOW_ROOT[@]}" --append --groups "$(IFS=,; echo "${GROUPS_NEEDED[*]}")" "$SERVICE_USER"
}

lock_file() {
    if [[ $HEADLESS -eq 1 ]]; then echo "$LOCKS/requirements-headless.lock"
    else echo "$LOCKS/requirements-ui.lock"; fi
}

# -- The build: the wheels of the project and of the dependencies published only as source ----------
# Made by an account created for it (on this machine, in image mode too: the image gains no account),
# in a folder only that account and root reach; the account is removed when the build ends, and by
# cleanup however the installer ends. Root runs none of the build; it only installs the wheels, which
# runs no code of theirs, each by the hash it had when the build ended.
BUILD_ACCOUNT=""  # its name, while it exists
BUILD_UID=""
BUILD_DIR=""      # its folder (0700, its own)
BUILD_ENV=()      # all it is given of root's environment: pip's settings and the proxies
STAGE=""          # root's folder (0700) the wheels are copied to when the build ends
BUILT=()          # "SHA256 NAME" of each wheel, recorded when the build ended

make_build_account() {
    local name var
    name="companion-build-$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')"
    if [[ $DRY_RUN -eq 1 ]]; then BUILD_DIR="/tmp/companion-build.XXXXXX"
    else BUILD_DIR="$(mktemp -d /tmp/companion-build.XXXXXX)"; fi
    run useradd --system --user-group --no-create-home --home-dir "$BUILD_DIR" --shell /usr/sbin/nologin "$name"
    BUILD_ACCOUNT="$name"
    [[ $DRY_RUN -eq 1 ]] || BUILD_UID="$(id -u "$name")"
    run chown "$name:$name" "$BUILD_DIR"
    run chmod 0700 "$BUILD_DIR"
    # (its temporary files in its folder too, not in the /tmp every account reaches)
    BUILD_ENV=(PATH=/usr/local/bin:/usr/bin:/bin HOME="$BUILD_DIR" TMPDIR="$BUILD_DIR/tmp" LANG=C.UTF-8
               PIP_NO_CACHE_DIR=1)
    for var in $(compgen -e); do
        case "$var" in
            PIP_NO_CACHE_DIR) ;;
            PIP_*|http_proxy|https_proxy|no_proxy|HTTP_PROXY|HTTPS_PROXY|NO_PROXY) BUILD_ENV+=("$var=${!var}") ;;
        esac
    done
    if [[ -n $WHEELHOUSE && $DRY_RUN -eq 0 ]] && ! as_build_account test -r "$WHEELHOUSE" -a -x "$WHEELHOUSE" >/dev/null; then
        fail "the build's account cannot read $WHEELHOUSE (--wheelhouse: a folder every account can read)"
    fi
}

# as_build_account COMMAND...: a command run as the build's account, with nothing of root's
# environment but BUILD_ENV (from /, a folder it can enter).
as_build_account() {
    (cd / && run runuser -u "$BUILD_ACCOUNT" -- env -i "${BUILD_ENV[@]}" "$@")
}

# The checkout copied to the build's folder, a build environment with the locked setuptools, then
# the wheels of the dependencies published only as source (their sdists checked against
# requirements-source.lock) and of the project. The locks are read from the copy.
build_wheels() {
    local dir="$BUILD_DIR" index=()
    [[ -n $WHEELHOUSE ]] && index=(--no-index --find-links "$WHEELHOUSE")
    as_build_account mkdir "$dir/src" "$dir/tmp"
    printf '+ tar -C %s --exclude=./.git --exclude=./.venv -cf - . | runuser -u %s -- tar -C %s -xf -\n' \
        "$SOURCE" "$BUILD_ACCOUNT" "$dir/src"
    if [[ $DRY_RUN -eq 0 ]]; then
        tar -C "$SOURCE" --exclude=./.git --exclude=./.venv -cf - . \
            | (cd / && runuser -u "$BUILD_ACCOUNT" -- tar -C "$dir/src" -xf -)
    fi
    as_build_account python3 -m venv "$dir/venv"
    as_build_account "$dir/venv/bin/pip" install --no-deps --require-hashes --only-binary :all: \
        "${index[@]}" -r "$dir/src/systemd/requirements-build.lock"
    as_build_account "$dir/venv/bin/pip" wheel --no-deps --no-build-isolation --require-hashes \
        --no-binary :all: "${index[@]}" --wheel-dir "$dir/wheels" -r "$dir/src/systemd/requirements-source.lock"
    as_build_account "$dir/venv/bin/pip" wheel --no-deps --no-build-isolation \
        --wheel-dir "$dir/wheels" "$dir/src"
}

# Nothing of the build's account runs any more (a process it left behind is ended too).
stop_build_account() {
    printf '+ pkill -KILL -u %s\n' "$BUILD_ACCOUNT"
    [[ $DRY_RUN -eq 0 && -n $BUILD_UID ]] || return 0
    local tries=0
    while pgrep -u "$BUILD_UID" >/dev/null; do
        pkill -KILL -u "$BUILD_UID" || true
        (( ++tries <= 100 )) || { echo "install.sh: processes of $BUILD_ACCOUNT do not end" >&2; return 1; }
        sleep 0.1
    done
}

remove_build_account() {
    [[ -n $BUILD_ACCOUNT ]] || return 0
    stop_build_account
    run userdel "$BUILD_ACCOUNT"
    if [[ $DRY_RUN -eq 0 ]] && getent group "$BUILD_ACCOUNT" >/dev/null; then run groupdel "$BUILD_ACCOUNT"; fi
    BUILD_ACCOUNT=""
    BUILD_UID=""
}

# The build has ended: its account's processes are ended, each wheel it left is copied to root's
# folder and its hash recorded there and then; the account and its folder are removed.
end_build() {
    local wheel name sum
    stop_build_account
    if [[ $DRY_RUN -eq 1 ]]; then STAGE="$(host_path /tmp)/companion-wheels.XXXXXX"
    else STAGE="$(mktemp -d "$(host_path /tmp)/companion-wheels.XXXXXX")"; fi
    say "the wheels the build made: copied to $STAGE and hashed (sha256)"
    if [[ $DRY_RUN -eq 0 ]]; then
        [[ -d $BUILD_DIR/wheels && ! -L $BUILD_DIR/wheels ]] || fail "the build left no wheels"
        for wheel in "$BUILD_DIR"/wheels/*; do
            [[ -e $wheel || -L $wheel ]] || continue  # (an empty folder: no match)
            name="${wheel##*/}"
            # a link would have root read what it points to
            [[ -f $wheel && ! -L $wheel && $name == *.whl ]] || fail "the build left $name, which is not a wheel"
            if [[ $IMAGE -eq 1 && $name != *-none-any.whl ]]; then
                fail "$name was built for this machine, not for the image (only pure-Python wheels are built)"
            fi
            install -m 0644 "$wheel" "$STAGE/$name"
            sum="$(sha256sum "$STAGE/$name")"
            BUILT+=("${sum%% *} $name")
            say "built $name sha256:${sum%% *}"
        done
        [[ ${#BUILT[@]} -gt 0 ]] || fail "the build left no wheels"
    fi
    remove_build_account
    run rm -rf "$BUILD_DIR"
    BUILD_DIR=""
}

# Right before root installs them: each wheel is still the one the build made (its hash when the
# build ended), and pip is given that hash too (--require-hashes).
install_built_wheels() {
    local release="$1" line sum name now lock="$STAGE/built.lock"
    if [[ $DRY_RUN -eq 0 ]]; then
        : > "$lock"
        for line in "${BUILT[@]}"; do
            sum="${line%% *}"; name="${line#* }"
            [[ -f $STAGE/$name && ! -L $STAGE/$name ]] || fail "$name, built by this installer, is gone; nothing of it is installed"
            now="$(sha256sum "$STAGE/$name")"
            if [[ ${now%% *} != "$sum" ]]; then
                fail "$name changed after it was built (sha256 $sum when the build ended, ${now%% *} now); nothing of it is installed"
            fi
            printf '%s --hash=sha256:%s\n' "$(inside_path "$STAGE/$name")" "$sum" >> "$lock"
        done
    else
        say "each wheel checked against its hash, then listed with it in $lock"
    fi
    inside "$release/bin/pip" install --no-deps --no-index --require-hashes --only-binary :all: \
        -r "$(inside_path "$lock")"
}

# Image mode: the image's /proc and /dev for the commands run in it, this machine's CA bundle for
# pip, the locks and the wheelhouse copied in where the root's commands see them; undone at exit.
MOUNTED=()
CA_INSIDE=""
LOCKS="$SOURCE/systemd"
WHEELHOUSE_INSIDE=""
prepare_root() {
    [[ $IMAGE -eq 1 ]] || return 0
    local ca="${PIP_CERT:-/etc/ssl/certs/ca-certificates.crt}" part
    for part in proc dev; do
        if [[ $DRY_RUN -eq 0 ]] && mountpoint -q "$ROOT/$part"; then continue; fi
        if [[ $part == proc ]]; then run mount -t proc proc "$ROOT/proc"; else run mount --bind /dev "$ROOT/dev"; fi
        MOUNTED+=("$ROOT/$part")
    done
    # (unmounted however this ends, by cleanup: a stopped build must not leave the machine's /dev
    # bound inside a root that is removed next, which would delete the machine's own device nodes)
    SETUP="/tmp/companion-setup"
    run install -d -m 0755 "$ROOT$SETUP"
    CA_INSIDE="$SETUP/ca.crt"
    put 0644 "$ca" "$ROOT$CA_INSIDE"
    LOCKS="$SETUP/locks"
    local lock
    for lock in "$SOURCE"/systemd/requirements-*.lock; do put 0644 "$lock" "$ROOT$LOCKS/${lock##*/}"; done
    if [[ -n $WHEELHOUSE ]]; then
        WHEELHOUSE_INSIDE="$SETUP/wheelhouse"
        run cp -rT "$WHEELHOUSE" "$ROOT$WHEELHOUSE_INSIDE"
    fi
}

unmount_root() {
    local part
    for part in "${MOUNTED[@]}"; do
        if [[ $DRY_RUN -eq 0 ]]; then umount "$part" || true; fi
    done
    MOUNTED=()
}

# However the installer ends (done, failed, stopped): no build account, no build folder, no wheels
# folder, nothing mounted in the image's root.
cleanup() {
    remove_build_account || echo "install.sh: the build account $BUILD_ACCOUNT could not be removed" >&2
    if [[ -n $BUILD_DIR ]]; then run rm -rf "$BUILD_DIR"; BUILD_DIR=""; fi
    if [[ -n $STAGE ]]; then run rm -rf "$STAGE"; STAGE=""; fi
    unmount_root
}
guard_exit() {
    trap cleanup EXIT
    trap 'exit 130' INT TERM HUP
}

finish_root() {
    [[ $IMAGE -eq 1 ]] || return 0
    run rm -rf "$ROOT$SETUP"
}

install_environment() {
    local release index=()
    release="$INSIDE/opt/companion/releases/$(date -u +%Y%m%dT%H%M%SZ)"
    [[ -n $WHEELHOUSE ]] && index=(--no-index --find-links "$WHEELHOUSE_INSIDE")
    make_build_account
    build_wheels
    end_build
    run mkdir -p "$PREFIX/releases"
    inside python3 -m venv "$release"
    # As root: only wheels, each checked against the lock's hashes; then the wheels just built, each
    # by the hash it had when the build ended.
    inside "$release/bin/pip" install --no-deps --require-hashes --only-binary :all: "${index[@]}" \
        -r "$(lock_file)"
    install_built_wheels "$release"
    run rm -rf "$STAGE"
    STAGE=""
    # The unit's root is read-only: compile the bytecode now, once.
    inside "$release/bin/python" -m compileall -q "$release/lib"
    local replaced=""
    if [[ -L $PREFIX/venv ]]; then
        replaced="$(readlink "$PREFIX/venv")"
        run ln -sfn "$replaced" "$PREFIX/previous"
    fi
    run ln -sfn "$release" "$PREFIX/venv.new"
    run mv -T "$PREFIX/venv.new" "$PREFIX/venv"
    prune_releases "$(host_path "$release")" "${replaced:+$(host_path "$replaced")}"
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

# systemctl for the system being installed: the running one, or the image's files (offline: no
# manager runs there, systemctl --root makes the same links that enable makes on a running box).
SYSTEMCTL=(systemctl)

install_units() {
    local unit
    for unit in companion.service companion-headless.service media-COMPANION.mount \
                media-COMPANION.automount; do
        put 0644 "$SOURCE/systemd/$unit" "$UNITS/$unit"
    done
    # without it, no stick in means the app's unit waits 90 s for one and never starts
    put 0644 "$SOURCE/systemd/companion-stick-device.conf" "$STICK_DEVICE_DROPIN"
    put 0644 "$SOURCE/systemd/50-companion.rules" "$POLKIT"
    put 0644 "$SOURCE/systemd/99-companion-backlight.rules" "$UDEV_RULE"
    if [[ $IMAGE -eq 1 ]]; then
        SYSTEMCTL=(systemctl --root="$ROOT")
        say "image mode: udev reads the rules and systemd the units when the image boots"
    else
        run udevadm trigger --subsystem-match=backlight --action=add
        run systemctl daemon-reload
    fi
    if [[ $HEADLESS -eq 1 ]]; then
        run "${SYSTEMCTL[@]}" disable companion.service
    else
        run "${SYSTEMCTL[@]}" disable companion-headless.service
    fi
    run "${SYSTEMCTL[@]}" enable "$(unit_name)" media-COMPANION.automount
}

# The table's live page for phones (companion web, docs/web.md): beside either unit, on by default
# (the Settings switch turns the page off without stopping the unit).
install_web_unit() {
    put 0644 "$SOURCE/systemd/companion-web.service" "$UNITS/companion-web.service"
    if [[ $IMAGE -eq 0 ]]; then
        run systemctl daemon-reload
    fi
    run "${SYSTEMCTL[@]}" enable companion-web.service
}

# The table in a club (companion club run, docs/club.md): beside either unit, enabled always; it
# starts only when companion.toml names a broker in its [club] section (its ExecCondition).
install_club_unit() {
    put 0644 "$SOURCE/systemd/companion-club.service" "$UNITS/companion-club.service"
    if [[ $IMAGE -eq 0 ]]; then
        run systemctl daemon-reload
    fi
    run "${SYSTEMCTL[@]}" enable companion-club.service
}

enable_i2c_and_keep_the_screen_on() {
    if [[ $IMAGE -eq 1 ]]; then
        say "image mode: I2C and the screen's blanking are set by the image's config.txt and cmdline.txt"
        return 0
    fi
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
    if [[ $IMAGE -eq 1 ]]; then
        say "image mode: $(unit_name), companion-web.service and companion-club.service start when" \
            "the image boots"
    else
        run systemctl restart "$(unit_name)"
        run systemctl restart companion-web.service
        run systemctl restart companion-club.service
    fi
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
                companion-club.service media-COMPANION.automount; do
        run systemctl disable --now "$unit"
    done
    for unit in companion.service companion-headless.service companion-web.service \
                companion-club.service media-COMPANION.mount media-COMPANION.automount; do
        run rm -f "$UNITS/$unit"
    done
    run rm -f "$POLKIT" "$UDEV_RULE" "$STICK_DEVICE_DROPIN"
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

main() {
    parse_options "$@"
    case "$MODE" in
        install)
            check_user  # before anything is changed
            guard_exit
            install_packages
            prepare_root
            create_user
            install_environment
            install_config
            install_units
            install_web_unit
            install_club_unit
            enable_i2c_and_keep_the_screen_on
            finish_root
            restart
            say "installed: $(unit_name) runs $PREFIX/venv"
            ;;
        rollback) rollback ;;
        uninstall) uninstall ;;
    esac
}

# Run, or (sourced, as the tests do) only defined.
if [[ ${BASH_SOURCE[0]} == "$0" ]]; then main "$@"; fi
