"""One form of address in Hungarian: the companion speaks to the table in the informal plural
("írjátok be", "válasszatok", "kezdjetek egyet"), never formally ("írja be", "Ön") nor to one
person informally ("írd be", "válassz"). docs/messages.md says why.

The lists below were built from what the catalogues held before they were made one voice
(every such form found there is listed), plus the common ones a new entry might bring.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.i18n.po import read_po

ROOT = Path(__file__).resolve().parents[1] / "companion"
CATALOGUES = sorted(p for p in [*ROOT.glob("locale/hu/*.po"), *ROOT.glob("games/*/locale/hu/*.po")]
                    if p.name != "argparse.po")  # argparse's own words are keyed by its English

#: Formal address: the pronoun and the formal imperatives (3rd person subjunctive said to "you").
FORMAL = ("Ön", "Önök", "Önt", "Önnek", "Önöknek", "Öné", "írja be", "írjon", "adja meg", "adjon",
          "válasszon", "kezdjen", "nyomja meg", "érintse meg", "forgassa", "hagyja el", "hagyja jóvá",
          "használjon", "másolja", "állítsa le", "állítson", "futtassa", "javítsa", "javítson",
          "mentsen", "szabadítson", "törölje", "indítson", "kattintson", "koppintson", "próbálja")
#: Informal address to one person: singular imperatives and "you"/"your" in the singular.
SINGULAR = ("írd be", "írd", "írj", "add meg", "adj", "válassz", "nyomd meg", "nyomj", "érintsd meg",
            "koppints", "koppintsd", "tartsd", "tekerj", "olvasd be", "kövesd", "próbáld", "fordíts",
            "fordítsd", "építs", "tegyél", "tedd", "rakj", "rakd", "passzolj", "vegyél", "helyezz",
            "helyezd", "játssz", "használd", "töröld", "zárd be", "mondd meg", "fedj", "csapj",
            "dugd be", "kapcsold", "várj", "küldj", "engedélyezd", "forgasd", "másold", "egészítsd",
            "erősítsd", "szabadíts", "indíts", "kezdj", "mutasd", "nálad", "neked", "te jössz",
            "telefonodon", "kártyáid", "zászlókártyáid", "pajzspontod", "ezüstöd", "jelződ", "jelződet",
            "várad", "váradat", "tornyod", "korongodnak", "felépítetted", "felfordítod", "építened",
            "építesz", "fizetsz", "fizess", "adhatsz", "adtál", "felfedtél", "indíthatsz", "kezedben",
            "kijátszhatnál", "kijátszottál", "koppinthatsz", "sajátodat", "sajátodra", "építhetsz")

_FORM = {form: r"(?<!\w)" + re.escape(form) + r"(?!\w)" for form in (*FORMAL, *SINGULAR)}
#: "Ön" is also the start of words ("önálló", "önmagára"): the pronoun is matched with its capital.
_CASED = {"Ön", "Önök", "Önt", "Önnek", "Önöknek", "Öné"}


def other_forms(text: str) -> list[str]:
    """The forms of address other than the informal plural found in ``text``."""
    found = []
    for form, pattern in _FORM.items():
        flags = 0 if form in _CASED else re.IGNORECASE
        if re.search(pattern, text, flags):
            found.append(form)
    return found


def test_the_detector_tells_the_forms_apart() -> None:
    assert other_forms("a listához írja be: `lépések`") == ["írja be"]
    assert other_forms("Válassz színt") == ["válassz"]
    assert other_forms("Kérem, Ön adja meg") == ["Ön", "adja meg"]
    # the informal plural, the 3rd person and words that merely start alike pass
    assert other_forms("írjátok be; válasszatok; kezdjetek egyet; nyomjatok; tartsátok nyomva") == []
    assert other_forms("a játszma nem használja; önálló; Anna adja a lapot; építése; Tolvaj") == []


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: str(p.relative_to(ROOT)))
def test_hungarian_catalogues_speak_to_the_table_in_the_informal_plural(path: Path) -> None:
    offenders = []
    for entry in read_po(path):
        for text in entry.msgstr.values():
            words = re.sub(r"`[^`]*`", " ", text)  # what is typed is no address
            found = other_forms(words)
            if found:
                offenders.append(f"{entry.msgid}: {found}: {text}")
    assert not offenders, "formal or singular address:\n" + "\n".join(offenders)
