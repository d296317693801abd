"""The TOML configuration: every kind of mistake, the example file, the reference, and the CLI."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.service.config import KEYS, ConfigError, check_file, defaults, example_toml, read_config

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def write(tmp_path: Path):
    def write_file(text: str | bytes, name: str = "companion.toml") -> Path:
        path = tmp_path / name
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        return path
    return write_file


def test_the_example_file_is_every_key_with_its_default() -> None:
    text = (ROOT / "companion.example.toml").read_text(encoding="utf-8")
    assert text == example_toml()  # regenerate with `companion config example > companion.example.toml`
    config = read_config(ROOT / "companion.example.toml")
    assert config.problems == ()
    assert dict(config.values) == dict(defaults().values)
    flat = {}
    for name, value in tomllib.loads(text).items():
        if isinstance(value, dict):
            flat.update({f"{name}.{inner}": v for inner, v in value.items()})
        else:
            flat[name] = value
    assert set(flat) == {key.name for key in KEYS}


def test_the_reference_documents_every_key() -> None:
    reference = (ROOT / "docs" / "config.md").read_text(encoding="utf-8")
    missing = [key.name for key in KEYS if f"`{key.name}`" not in reference]
    assert missing == []


def test_no_file_means_the_defaults_of_a_simulated_appliance() -> None:
    config = defaults()
    assert config.data_dir is None and config["oled.address"] == 0x3C and config["serial.panels"] == []
    assert config.problems == ()


def test_a_good_file_is_read_as_written(write) -> None:
    path = write('data_dir = "~/games"\nlog_level = "debug"\n[oled]\ndriver = "sh1106"\naddress = 0x3D\n'
                 '[encoder]\nenabled = true\n[serial]\npanels = ["loop://", "/dev/ttyACM0"]\n'
                 "[buttons]\nhold_time = 1\n")
    config = read_config(path)
    assert config.problems == ()
    assert (config.data_dir, config["oled.driver"], config["oled.address"], config["encoder.enabled"],
            config["serial.panels"], config["buttons.hold_time"]) == (
        "~/games", "sh1106", 0x3D, True, ["loop://", "/dev/ttyACM0"], 1)
    assert config.log_level == 10


@pytest.mark.parametrize(("text", "key", "message"), [
    ('colour = "red"\n', "colour", "unknown key; ignored"),
    ("[oled]\ncontrast = 3\n", "oled.contrast", "unknown key; ignored"),
    ('[wifi]\nssid = "x"\n', "wifi", "unknown key; ignored"),
    ("oled = 3\n", "oled", "must be a table ([oled]), not a whole number; using the defaults"),
    ('log_level = "loud"\n', "log_level", 'not "loud"; using the default "info"'),
    ('[oled]\naddress = "3c"\n', "oled.address", "must be a whole number such as 0x3C, not a text; "
                                                 "using the default 0x3C"),
    ("[oled]\naddress = 0x78\n", "oled.address", "from 0x03 to 0x77, not 0x78"),
    ('[oled]\ndriver = "ssd1325"\n', "oled.driver", 'not "ssd1325"; using the default "ssd1306"'),
    ("[oled]\nrotation = 90\n", "oled.rotation", "must be one of 0, 1, 2, 3, not 90"),
    ("[oled]\nbus = -1\n", "oled.bus", "must be from 0 to 31"),
    ("[screen]\nrotation = 45\n", "screen.rotation", "must be one of 0, 90, 180, 270, not 45"),
    ("[screen]\nrotation = 90.0\n", "screen.rotation", "must be one of 0, 90, 180, 270, not 90.0"),
    ("[buttons]\nundo = 40\n", "buttons.undo",
     "from 0 to 27 (a BCM GPIO number), not 40; using the default 5"),
    ("[buttons]\nundo = true\n", "buttons.undo",
     "must be a whole number (a BCM GPIO number), not true/false"),
    ('[buttons]\nhold_time = "long"\n', "buttons.hold_time", "must be a number of seconds, not a text"),
    ('[encoder]\nenabled = "yes"\n', "encoder.enabled", "must be true or false, not a text"),
    ('[serial]\npanels = "/dev/ttyACM0"\n', "serial.panels", "must be a list of serial ports"),
    ('[serial]\npanels = ["loop://", "loop://"]\n', "serial.panels", "names a port twice"),
    ("[serial]\nbaudrate = 1200\n", "serial.baudrate", "not 1200; using the default 115200"),
    ('[serial]\nwired = "/dev/ttyAMA0=1"\n', "serial.wired", 'must be a list of "PORT=SEAT" strings'),
    ('[serial]\nwired = ["/dev/ttyAMA0=10"]\n', "serial.wired", "with a seat from 1 to 9"),
    ('[serial]\nwired = ["/dev/ttyAMA0"]\n', "serial.wired", '"/dev/ttyAMA0" is not "PORT=SEAT"'),
    ('[serial]\nwired = ["/dev/ttyAMA0=1", "/dev/ttyS0=1"]\n', "serial.wired", "a seat twice"),
    ("[buttons]\nundo = 6\n", "buttons.confirm", "pin 6 is already buttons.undo; buttons.confirm is off"),
    ("[encoder]\nenabled = true\na = 5\n", "encoder.a", "pin 5 is already buttons.undo; encoder.a is off"),
])
def test_a_hardware_mistake_is_one_line_and_falls_back(write, text: str, key: str, message: str) -> None:
    path = write(text)
    config = read_config(path)  # the appliance starts anyway
    (problem,) = config.problems
    line = str(problem)
    assert "\n" not in line and line.startswith(f"{path}: {key}: ") and message in line
    assert not problem.fatal
    if key in config.values and "is off" not in message:
        assert config[key] == defaults()[key]
    assert check_file(path) == [problem]


def test_a_pin_given_twice_switches_the_later_key_off_and_keeps_the_first(write) -> None:
    config = read_config(write("[buttons]\nundo = 6\n"))
    assert (config["buttons.undo"], config["buttons.confirm"]) == (6, None)
    assert read_config(write("[encoder]\na = 5\n")).problems == ()  # no encoder fitted: no clash


def test_every_mistake_in_a_file_is_reported(write) -> None:
    path = write('log_level = "loud"\nextra = 1\n[oled]\nbus = "one"\n[buttons]\nmenu = 99\n')
    assert [p.key for p in check_file(path)] == ["log_level", "extra", "oled.bus", "buttons.menu"]


@pytest.mark.parametrize(("text", "message"), [
    ("data_dir = 3\n", "data_dir: must be a text (a directory), not a whole number"),
    ('data_dir = "games"\n', 'data_dir: must be an absolute path (or start with ~), not "games"'),
    ("[buttons\nundo = 5\n", "is not valid TOML"),
    (b"data_dir = \"\xff\"\n", "is not"),
])
def test_a_bad_data_dir_or_an_unreadable_file_is_fatal(write, text: str | bytes, message: str) -> None:
    path = write(text)
    with pytest.raises(ConfigError) as caught:
        read_config(path)
    assert str(caught.value).startswith(f"{path}: ") and message in str(caught.value)
    assert "\n" not in str(caught.value)
    assert any(p.fatal for p in check_file(path))


def test_a_data_dir_that_is_a_file_is_fatal(write, tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x")
    path = write(f'data_dir = "{tmp_path / "afile"}"\n')
    with pytest.raises(ConfigError, match="is not a directory"):
        read_config(path)


def test_missing_file_and_directory_are_fatal(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such configuration file"):
        read_config(tmp_path / "nowhere.toml")
    with pytest.raises(ConfigError, match="is a directory"):
        read_config(tmp_path)


# -- the command line --------------------------------------------------------------------------

def test_config_check_exits_0_for_a_good_file_and_2_with_every_problem(run_cli, write) -> None:
    good = write('[oled]\ndriver = "sh1106"\n', "good.toml")
    assert run_cli("config", "check", str(good)) == (0, f"{good}: ok\n", "")
    bad = write('log_level = "loud"\n[buttons]\nundo = 40\n', "bad.toml")
    code, out, err = run_cli("config", "check", str(bad))
    assert (code, out) == (2, "")
    assert err.splitlines() == [
        f'companion: {bad}: log_level: must be one of debug, info, warning, error, not "loud"; '
        'using the default "info"',
        f"companion: {bad}: buttons.undo: must be from 0 to 27 (a BCM GPIO number), not 40; "
        "using the default 5"]
    none = bad.parent / "none.toml"
    code, out, err = run_cli("config", "check", str(none))
    assert (code, out, err) == (2, "", f"companion: {none}: no such configuration file\n")


def test_config_example_prints_the_example_file(run_cli) -> None:
    assert run_cli("config", "example") == (0, example_toml(), "")


def test_run_starts_with_a_bad_pin_and_stops_on_a_bad_data_dir(run_cli, write, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    monkeypatch.delenv("COMPANION_DATA", raising=False)
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.setattr("sys.stdin", io.StringIO("status\n"))
    games = tmp_path / "games"
    ok = write(f'data_dir = "{games}"\n[buttons]\nundo = 40\n', "pins.toml")
    code, out, err = run_cli("run", "--headless", "--config", str(ok))
    assert code == 0 and "no game in progress" in out
    assert f"companion: warning: {ok}: buttons.undo: must be from 0 to 27" in err
    assert (games / "companion.sqlite3").exists()  # the file's data_dir was used
    bad = write('data_dir = "relative"\n[buttons]\nundo = 40\n', "bad.toml")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO("status\n"))
    code, out, err = run_cli("run", "--headless", "--config", str(bad))
    assert (code, out) == (2, "")
    assert err == (f'companion: {bad}: data_dir: must be an absolute path (or start with ~), '
                   'not "relative"\n')
    assert not (tmp_path / "relative").exists()  # no other, empty store was opened


# -- any file: the configuration in force is always usable -------------------------------------------

_NAMES = [key.name for key in KEYS] + ["colour", "oled.contrast", "wifi.ssid"]
_VALUES = st.one_of(st.integers(-5, 300), st.booleans(), st.floats(-1, 400, allow_nan=False),
                    st.text(max_size=12), st.lists(st.text(min_size=1, max_size=6), max_size=3))


def _toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + "".join(c if c.isalnum() or c in " ./:~-_" else f"\\u{ord(c):04x}" for c in value) + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return repr(value)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow], max_examples=150)
@given(st.dictionaries(st.sampled_from(_NAMES), _VALUES, max_size=8))
def test_whatever_the_file_says_the_configuration_in_force_is_valid(write, entries: dict) -> None:
    top = {k: v for k, v in entries.items() if "." not in k}
    sections: dict[str, dict] = {}
    for name, value in entries.items():
        if "." in name:
            section, key = name.split(".", 1)
            sections.setdefault(section, {})[key] = value
    text = "".join(f"{k} = {_toml_value(v)}\n" for k, v in top.items())
    for section, keys in sections.items():
        text += f"[{section}]\n" + "".join(f"{k} = {_toml_value(v)}\n" for k, v in keys.items())
    path = write(text)
    try:
        config = read_config(path)
    except ConfigError as error:
        assert error.problem.key in ("data_dir", "") and error.problem.fatal
        return
    for key in KEYS:
        value = config[key.name]
        assert value is None or key.check(value) is None, (key.name, value)
    for problem in config.problems:
        assert "\n" not in str(problem) and str(problem).startswith(f"{path}: ")
    assert [str(p) for p in check_file(path)] == [str(p) for p in config.problems]
