"""Castelli in English and Hungarian: every refusal a code, every code a text, no English left.

The refusals and explanations are checked one by one in the other test modules
(``refused(..., code)``, ``assert_message``); here the whole: the source holds
no sentence, the catalogue holds exactly the codes the game uses, and the
example record replays in Hungarian without an English word, while ``--json``
stays the same in every language.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion.games.castelli import tables
from companion.games.messages import msg
from companion.i18n import LANGUAGES, catalogue, render
from companion.i18n.po import read_po
from tests.conftest import EXAMPLES
from tests.refusals import english_words_in

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = ROOT / "companion" / "games" / "castelli"
COMMANDS = ROOT / "companion" / "cli" / "commands" / "castelli.py"
EXAMPLE = EXAMPLES / "castelli.json"
CODE = re.compile(r"^castelli\.[a-z0-9_.-]*[a-z0-9_]$")


#: The guided entry of a table's board speaks Castelli's words from the service and the command line.
BOARD_ENTRY = [ROOT / "companion" / "service" / "castelli_board_entry.py",
               ROOT / "companion" / "cli" / "commands" / "castelli_board_entry.py"]


def _sources() -> list[Path]:
    return [*sorted(PACKAGE.rglob("*.py")), COMMANDS, *BOARD_ENTRY]


# -- the source ------------------------------------------------------------------------------

def _sentences_raised(path: Path) -> list[str]:
    """``IllegalMove(...)``, ``RecordError(...)`` (and the commands' ``UserError(...)``) given a
    string literal or an f-string instead of a message code."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Call) and node.args):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
        first = node.args[0]
        is_text = isinstance(first, ast.JoinedStr) or (isinstance(first, ast.Constant)
                                                       and isinstance(first.value, str))
        if name in ("IllegalMove", "RecordError", "UserError") and is_text:
            found.append(f"{path.name}:{node.lineno}: {name}({ast.unparse(first)[:60]})")
    return found


def test_no_refusal_or_record_error_is_a_sentence_built_in_code():
    assert len(_sources()) > 10  # the walk finds the package
    found = [line for path in _sources() for line in _sentences_raised(path)]
    assert not found, "\n".join(found)


def test_the_walk_would_find_a_sentence(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text('raise IllegalMove("no")\nraise RecordError(f"bad {x}", "p")\n'
                      'raise IllegalMove(msg("castelli.game.over"))\n')
    assert len(_sentences_raised(sample)) == 2


# -- the catalogue ---------------------------------------------------------------------------

def _literal_codes() -> set[str]:
    """Every ``castelli.…`` code written out in the source (``_beating`` forms of the resolver)."""
    codes: set[str] = set()
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and CODE.match(node.value):
                codes.add(node.value)
    beaten = {f"{code}_beating" for code in codes
              if code.startswith("castelli.evaluation.") and code.rsplit(".", 1)[1] in
              ("neutral_leads", "leads", "tie_void", "tie_neutral", "tie_shared")}
    return codes | beaten


def _word_codes() -> set[str]:
    """The codes :mod:`companion.games.castelli.words` and the report build from the tables' keys."""
    cards = {*tables.BASE_CARDS, *tables.BATTLE_CARDS}
    gains = {g for g in tables.AREA_GAIN.values() if g} | {"cards"}
    finals = {"cards", "resources", "silver", "starting_tile", "settlements", "open_castles"}
    return ({f"castelli.colour.{c}" for c in tables.COLORS}
            | {f"castelli.resource.{r}" for r in tables.RESOURCES}
            | {f"castelli.kind.{k}" for k in tables.AREA_KINDS}
            | {f"castelli.card.{c}" for c in cards}
            | {f"castelli.settlement.{s}" for s in tables.SETTLEMENT_KINDS}
            | {f"castelli.amount.{g}" for g in gains}
            | {f"castelli.amount.{g}.acc" for g in gains}  # what a text says someone gets ({amount:acc})
            | {f"castelli.final.{line}" for line in finals})


def _po_codes(language: str) -> set[str]:
    catalogue = ROOT / "companion" / "games" / "castelli" / "locale" / language / "castelli.po"
    return {entry.msgid for entry in read_po(catalogue) if entry.msgid}


def test_the_catalogues_hold_exactly_the_codes_the_game_uses():
    used = _literal_codes() | _word_codes()
    assert "castelli.game.over" in used and "castelli.evaluation.leads_beating" in used
    for language in LANGUAGES:
        defined = _po_codes(language)
        assert used - defined == set(), f"{language}: codes without a text"
        assert defined - used == set(), f"{language}: texts no code uses"


def test_every_word_of_the_tables_reads_in_every_language():
    for code in _word_codes():
        for language in LANGUAGES:
            text = catalogue(language).lookup(code, count=2)
            assert text and not text.startswith("castelli."), (language, code)
    assert render(msg("castelli.card.master-builder"), "hu") == "Főépítész"
    assert render(msg("castelli.amount.cards", count=1), "en") == "1 card"
    assert render(msg("castelli.amount.cards", count=3), "en") == "3 cards"


# -- the example record in Hungarian ------------------------------------------------------------

def _record_names(path: Path) -> tuple[str, ...]:
    """Names the record brings (players, areas, spaces, layouts): never translated."""
    data = json.loads(path.read_text(encoding="utf-8"))
    board = data["setup"]["board"]
    names = [*data["players"]]
    if isinstance(board, dict):
        names += [*board["areas"], *board["spaces"]]
    return tuple(sorted(names, key=len, reverse=True))


def _english_only_words() -> set[str]:
    """Words of the English castelli catalogue that its Hungarian one never uses ("forest", "gains"); a
    word the Hungarian one shows only as one to type (`` `forest` ``, an option's choice) is not used."""
    def words(language: str) -> set[str]:
        found: set[str] = set()
        for entry in read_po(ROOT / "companion" / "games" / "castelli" / "locale" / language / "castelli.po"):
            for text in entry.msgstr.values():
                prose = re.sub(r"\{\w+\}|`[^`]*`", " ", text)
                found |= {w.lower() for w in re.findall(r"[A-Za-z]{3,}", prose)}
        return found

    return words("en") - words("hu")


def _english_left(text: str, names: tuple[str, ...]) -> set[str]:
    for name in names:
        text = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w-])", " ", text)
    left = english_words_in(text)
    left |= {w for w in re.findall(r"[A-Za-z]{3,}", text) if w.lower() in _english_only_words()}
    return left


@pytest.fixture
def in_progress(write_record):
    """The example record stopped after its sixth move: Bela to reveal, cards to play."""
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    data["moves"] = data["moves"][:6]
    return write_record(data)


def test_the_check_finds_english_words():
    names = ("Anna",)
    assert _english_left("a24 (forest): Anna gains 2 wood", names) >= {"forest", "gains", "wood"}
    assert _english_left("a24 (erdő): Anna 2 fát kap", names) == set()


def test_replay_in_hungarian_has_no_english_word(run_cli, in_progress):
    names = _record_names(EXAMPLE)
    for path in (str(EXAMPLE), in_progress):
        code, out, err = run_cli("--lang", "hu", "replay", path)
        assert (code, err) == (0, "")
        assert _english_left(out, names) == set(), out
    code, out, _ = run_cli("--lang", "hu", "replay", str(EXAMPLE))
    assert ("ezüstbánya, 3. sor, 3. oszlop: Csaba (kék) befolyása a legnagyobb (5; utána: Dora (sárga) 2, "
            "Bela (piros) 1 és Anna (zöld) 1): Csaba 11 ezüstöt kap") in out
    assert "Csaba                    kék" in out and "győztes" in out
    assert "Végső pontozás:" in out and "  Csaba: kártyák 0, nyersanyagok 5, ezüst 4" in out
    english = run_cli("replay", str(EXAMPLE))[1]
    assert "mine, row 3, column 3: Csaba (blue) has the most (5)" in english
    assert "  Csaba: cards 0, resources 5, silver 4" in english


def test_moves_in_hungarian_has_no_english_word(run_cli, in_progress):
    code, out, err = run_cli("--lang", "hu", "moves", in_progress)
    assert (code, err) == (0, "")
    assert "  1. Bela: felfed 1. sor, 2. oszlop" in out and "Anna: király 3" in out
    assert _english_left(out, _record_names(EXAMPLE)) == set(), out
    assert "  1. Bela: reveal row 1, column 2" in run_cli("moves", in_progress)[1]


@pytest.mark.parametrize("command", ["replay", "moves"])
def test_json_output_is_the_same_in_every_language(run_cli, in_progress, command):
    for path in (str(EXAMPLE), in_progress):
        outputs = {language: run_cli("--lang", language, command, path, "--json") for language in LANGUAGES}
        assert outputs["en"][0] == 0
        assert len(set(outputs.values())) == 1, f"{command} {path}: --json differs between languages"


def test_explanations_carry_the_area_the_code_the_params_and_the_english_line(run_cli):
    summary = json.loads(run_cli("--lang", "hu", "replay", str(EXAMPLE), "--json")[1])
    first, tie = summary["explanations"][0], summary["explanations"][2]
    assert first == {"area": "a24", "kind": "forest", "code": "castelli.evaluation.leads",
                     "params": {"best": 3, "who": {"code": "castelli.who.player",
                                                   "params": {"player": "Csaba", "colour": {
                                                       "code": "castelli.colour.blue", "params": {}}}},
                                "player": "Csaba",
                                "amount": {"code": "castelli.amount.wood", "params": {"count": 2}}},
                     "text": "forest, row 3, column 5: Csaba (blue) has the most (3): Csaba gains 2 wood"}
    assert tie["code"] == "castelli.evaluation.rounded_down"
    assert tie["text"] == ("rock, row 2, column 2: Dora (yellow) and Anna (green) tie with 3: "
                           "1 stone shared 2 ways, 0 stone each, rounded down")
    assert [e["area"] for e in summary["explanations"]] == [e["area"] for e in summary["evaluations"]]


# -- refusals and the board commands in Hungarian ----------------------------------------------

def test_an_illegal_move_in_a_record_is_refused_in_hungarian(run_cli, write_record):
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    data["moves"][4]["cards"] = 3
    code, out, err = run_cli("--lang", "hu", "replay", write_record(data))
    assert (code, out) == (2, "")
    assert "1 kártya van a kézben; 3 kártyát nem lehet eladni" in err


def test_the_resolver_speaks_hungarian(run_cli):
    code, out, err = run_cli("--lang", "hu", "castelli", "resolve", "--kind", "market", "--tents", "2",
                             "--shield", "red:1", "--shield", "green:3", "--shield", "yellow:3",
                             "--player", "Anna=green", "--player", "Bela=yellow")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "befolyás: Bela (sárga) 3, Anna (zöld) 3 és semleges piros 1",
        "Bela: 1 kártya", "Anna: 1 kártya",
        "Bela (sárga) és Anna (zöld) holtversenyben, 3 ponttal (utánuk: semleges piros 1): "
        "2 kártya elosztva 2 felé, fejenként 1 kártya"]
    code, _, err = run_cli("--lang", "hu", "castelli", "resolve", "--kind", "mine")
    assert code == 2
    assert err == "companion: az ezüstbányához meg kell adni: --silver (a bányában lévő ezüst)\n"


def test_resolve_json_carries_the_explanation_as_code_params_and_english_text(run_cli):
    args = ("castelli", "resolve", "--kind", "rock", "--shield", "blue:2", "--json")
    outputs = {language: run_cli("--lang", language, *args) for language in LANGUAGES}
    assert len(set(outputs.values())) == 1
    explanation = json.loads(outputs["en"][1])["explanation"]
    assert explanation["code"] == "castelli.evaluation.leads"
    assert explanation["text"] == "blue (blue) has the most (2): blue gains 2 stone"


def test_board_commands_speak_hungarian(run_cli, write_record, tmp_path):
    board = write_record(json.loads(EXAMPLE.read_text(encoding="utf-8"))["setup"]["board"])
    code, out, _ = run_cli("--lang", "hu", "board", "validate", board)
    assert (code, out) == (0, "rendben: 12 lapkahely, 13 terület (6 erdő, 1 szántó, 4 szikla, "
                              "1 ezüstbánya és 1 síkság), 1 falu, 0 város\n")
    code, _, err = run_cli("--lang", "hu", "board", "validate", str(EXAMPLE))
    assert code == 2 and "egy teljes játszma feljegyzése" in err
    data_dir = ("--data-dir", str(tmp_path / "data"))
    code, out, _ = run_cli("--lang", "hu", *data_dir, "board", "import", board, "--name", "otthon")
    assert code == 0 and out.startswith("„otthon” tábla eltárolva: 12 lapkahely, 13 terület")
    code, out, _ = run_cli("--lang", "hu", *data_dir, "board", "layouts")
    assert "otthon: 12 lapkahely, 13 terület (itt tárolva)" in out
    assert "example-2p: 16 lapkahely" in out and "(példa elrendezés)" in out
    bad = write_record({"areas": {"a1": {"kind": "forest", "at": [0, 0]}}, "spaces": {}})
    code, _, err = run_cli("--lang", "hu", "board", "validate", bad)
    assert code == 2 and err.endswith("spaces: egy táblán legalább egy lapkahely kell\n")



def test_the_commands_help_speaks_the_chosen_language(run_cli):
    code, out, _ = run_cli("--lang", "hu", "castelli", "resolve", "--help")
    assert code == 0 and "a területre mutató pajzs" in out and "a shield pointing" not in out
    # the defaults named in the help are the tables' own
    assert f"erdő/szántó/szikla, alapból {tables.DEFAULT_YIELD}" in " ".join(out.split())
    assert f"piac, alapból {tables.DEFAULT_TENTS}" in " ".join(out.split())
    english = " ".join(run_cli("castelli", "resolve", "--help")[1].split())
    assert f"forest/field/rock, default {tables.DEFAULT_YIELD}" in english
    assert f"market, default {tables.DEFAULT_TENTS}" in english
    code, out, _ = run_cli("--lang", "hu", "--help")
    assert code == 0 and "Castelli-táblák: ellenőrzés, importálás, lista" in out


def test_the_engine_reads_no_catalogue_until_a_text_is_shown():
    """Importing, playing and refusing cost no catalogue; the words are read when shown."""
    script = (
        "import json, sys\n"
        "from companion.registry import get_game\n"
        "from companion.games.base import IllegalMove\n"
        "from companion.service.records import final_state, parse_record\n"
        f"record = parse_record(json.load(open({str(EXAMPLE)!r}, encoding='utf-8')))\n"
        "state = final_state(record)\n"
        "try:\n"
        "    record.game.apply(state, record.moves[-1])\n"
        "except IllegalMove as refusal:\n"
        "    reason = refusal.reason\n"
        "print('companion.i18n.po' in sys.modules)\n"
        "print(reason.code)\n"
        "str(reason)\n"
        "print('companion.i18n.po' in sys.modules)\n")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                         cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == ["False", "castelli.game.over", "True"]


@pytest.mark.parametrize(("gain", "hungarian"), [("wood", "fát"), ("grain", "gabonát"), ("stone", "követ"),
                                                 ("cards", "kártyát"), ("silver", "ezüstöt")])
def test_who_gets_an_area_says_the_amount_in_the_accusative(gain: str, hungarian: str) -> None:
    """"Dora 2 fát kap", not the lottery's "Dora nyereménye 2 fa" (issue 36): the explanation asks for
    the amount's accusative ({amount:acc}); English keeps its one form."""
    for count in (1, 2, 11):
        amount = msg(f"castelli.amount.{gain}", count=count)
        said = msg("castelli.evaluation.leads", who="Dora (kék)", best=3, player="Dora", amount=amount)
        assert render(said, "hu") == f"Dora (kék) befolyása a legnagyobb (3): Dora {count} {hungarian} kap"
        assert render(said, "en").endswith(f"Dora gains {render(amount, 'en')}")
    # where no case is asked for, the amount stays in the nominative ("2 fa elosztva 2 felé")
    shared = msg("castelli.evaluation.tie_shared", tied=["A", "B"], best=2, ways=2,
                 amount=msg(f"castelli.amount.{gain}", count=2), each=msg(f"castelli.amount.{gain}", count=1))
    assert hungarian not in render(shared, "hu").split("elosztva")[0]
